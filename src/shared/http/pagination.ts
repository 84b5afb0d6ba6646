import { AppError } from '../errors.ts';

export const invalidCursor = () =>
  new AppError({ code: 'request.invalid_cursor', status: 400, message: 'The cursor is not one this API returned.' });

/** Cursors are opaque to clients: base64url of the last item's sort key. */
export const encodeCursor = (value: string | number): string => Buffer.from(String(value)).toString('base64url');

export function decodeCursor(cursor: string | undefined, pattern: RegExp): string | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  const value = Buffer.from(cursor, 'base64url').toString();
  if (!pattern.test(value)) throw invalidCursor();
  return value;
}

/** One page of a list as every list endpoint answers it. */
export interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/** Repositories fetch limit + 1 rows; the extra row only says whether another page exists. */
export function toPage<T>(rows: T[], limit: number, cursorOf: (row: T) => string | number): Page<T> {
  const data = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  return { data, has_more: hasMore, next_cursor: hasMore ? encodeCursor(cursorOf(data[data.length - 1]!)) : null };
}
