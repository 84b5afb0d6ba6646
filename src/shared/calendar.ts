/**
 * Calendar arithmetic in UTC: months ('YYYY-MM'), days ('YYYY-MM-DD') and the instants they start
 * at. UTC so every instance, the database and the caller agree whatever their time zones.
 */

/** The UTC month ('YYYY-MM') an instant falls in. */
export const monthOf = (at: string | Date): string => new Date(at).toISOString().slice(0, 7);

/** The UTC day ('YYYY-MM-DD') an instant falls in. */
export const dayOf = (at: string | Date): string => new Date(at).toISOString().slice(0, 10);

/** The first instant of the month after `month`, ISO. */
export function nextMonthStart(month: string): string {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  // Date.UTC takes months from 0, so the month number itself is the next month; December rolls over.
  return new Date(Date.UTC(year, monthNumber, 1)).toISOString();
}

/** The start of the UTC day of `at`, `offset` days on (1: the next midnight), ISO. */
export function utcDayStart(at: string | Date, offset = 0): string {
  const day = new Date(at);
  return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() + offset)).toISOString();
}

/** The `count` UTC days ending with the day of `today`, oldest first. */
export const lastDays = (today: Date, count: number): string[] =>
  Array.from({ length: count }, (_, i) => dayOf(utcDayStart(today, i + 1 - count)));
