import Type from 'typebox';
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_KEY_RULE } from '../idempotency/idempotency.schemas.ts';
import type { IdempotencyClaim, IdempotencyUsecases } from '../idempotency/idempotency.usecases.ts';
import type { Caller } from '../keys/keys.usecases.ts';
import type { ToolAnswer } from './mcp.results.ts';

/** The argument every billable tool takes: the API's Idempotency-Key, with the same rules. */
export const idempotencyKeyArgument = Type.Optional(
  Type.String({
    pattern: IDEMPOTENCY_KEY_PATTERN,
    'x-rule': IDEMPOTENCY_KEY_RULE,
    description:
      'Optional; a new UUID per intended call. A retry with the same key and the same other arguments (after a lost answer or a ' +
      'timeout) answers with the first call\'s outcome and is never charged twice; the same key with other arguments is refused. ' +
      'Kept 24 hours, as the API\'s Idempotency-Key.',
  }),
);

/**
 * How a billable tool runs once per key: its work on the arguments without the key, bound to the claim
 * in the work's own transaction, and its answer rebuilt from what it made.
 */
export interface Once<A> {
  run: (claim: IdempotencyClaim | null, args: A) => Promise<{ answer: ToolAnswer; final: boolean }>;
  rebuild: (resourceId: string) => Promise<ToolAnswer>;
}

/**
 * The API's Idempotency-Key semantics for a tool call (idempotency.hooks.ts does it for routes): the
 * key is claimed for the tool and its other arguments, the work binds it inside its transaction, and a
 * final answer is stored as the key's outcome. A retry gets that answer again; one whose first answer
 * was lost, or was not final (a scrape still running), gets the answer rebuilt from the resource the
 * key is bound to; other arguments under the key are refused (422 idempotency.key_reused).
 */
export async function onceFor<A extends object>(
  idempotency: IdempotencyUsecases,
  caller: Caller,
  tool: string,
  args: A & { idempotency_key?: string },
  once: Once<A>,
): Promise<ToolAnswer> {
  const { idempotency_key: key, ...rest } = args;
  const work = rest as A;
  if (key === undefined) return (await once.run(null, work)).answer;
  const claim = await idempotency.begin(caller.accountId, key, `mcp:${tool}`, work);
  if (claim.kind === 'resource') return once.rebuild(claim.resourceId);
  if (claim.kind === 'replay') return JSON.parse(claim.response.body) as ToolAnswer;
  const { answer, final } = await once.run(claim.claim, work);
  // 202 as the API stores an answer that is not final: a retry rebuilds it from the resource.
  await idempotency.finish(claim.claim, { status: final ? 200 : 202, headers: {}, body: JSON.stringify(answer) });
  return answer;
}
