import type { CallToolResult } from '@modelcontextprotocol/server';
import type { FastifyError } from 'fastify';
import type { AppError } from '../../shared/errors.ts';
import { problemBody, toAppError } from '../../shared/http/error-mapper.ts';
import type { Page } from '../../shared/http/pagination.ts';
import { clip } from '../../shared/text.ts';

/**
 * The most characters a tool result may take, its text and its JSON together. Agents refuse results
 * over about 25,000 tokens (Claude Code says so and asks for pagination); a token is about four
 * characters of English and fewer of JSON punctuation or other scripts, so three characters a token
 * keeps a result under 20,000 tokens.
 */
export const MAX_RESULT_CHARS = 60_000;

/** What a tool answers: the API's JSON for programs, and a few lines saying what happened for the model. */
export interface ToolAnswer {
  summary: string;
  data: object;
}

export const sizeOf = (answer: ToolAnswer): number => answer.summary.length + JSON.stringify(answer.data).length;

export const toolResult = (answer: ToolAnswer): CallToolResult => ({
  content: [{ type: 'text', text: answer.summary }],
  structuredContent: answer.data as Record<string, unknown>,
});

/**
 * A refusal or failure as the tool error the model reads: the problem's detail and its code, with the
 * whole problem body (as the API would have answered) for programs. Nothing was charged: every money
 * move rolls back with the call that failed, as it does for the API.
 */
export function toolError(error: unknown): { result: CallToolResult; appError: AppError } {
  const appError = toAppError(error as FastifyError);
  const problem = problemBody(appError);
  return {
    result: { isError: true, content: [{ type: 'text', text: `${problem.detail} (code ${problem.code})` }], structuredContent: problem },
    appError,
  };
}

/**
 * A page that fits: asked for with `limit`, and again with half as many while its answer is too
 * large, so a page of long posts comes back shorter with a cursor to the rest rather than refused.
 */
export async function fittedPage<T>(limit: number, load: (limit: number) => Promise<Page<T>>, render: (page: Page<T>) => ToolAnswer) {
  for (let size = limit; ; size = Math.max(1, Math.floor(size / 2))) {
    const answer = render(await load(size));
    if (size === 1 || sizeOf(answer) <= MAX_RESULT_CHARS) return answer;
  }
}

/**
 * As many items from `offset` as fit next to the rest of the answer (at least one: no single item
 * comes near the limit), and where the next part starts, or null when these were the last.
 */
export function fittingSlice<T>(items: readonly T[], offset: number, room: number): { slice: T[]; next: number | null } {
  const slice: T[] = [];
  let used = 0;
  for (let i = offset; i < items.length; i++) {
    const size = JSON.stringify(items[i]).length + 1;
    if (slice.length > 0 && used + size > room) return { slice, next: i };
    slice.push(items[i]!);
    used += size;
  }
  return { slice, next: null };
}

/** A text on one line, cut to `max` characters at a word (shared/text.ts `clip`), for a line of a summary. */
export function excerpt(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const kept = clip(flat, max);
  return kept === flat ? flat : `${kept}…`;
}
