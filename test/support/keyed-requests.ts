/**
 * Billable requests sent with an Idempotency-Key and retried with it, for the fault suites
 * (test/scale/idempotency-faults.test.ts): what was sent, what came back first, and the checks that a
 * request ran once, was charged once, and that its answers agree with the database.
 */
import { expect } from 'vitest';
import type { Database } from '../../src/shared/db/database.ts';
import { ledgerSum } from './ledger.ts';

export type Kind = 'scrape' | 'generate' | 'publish';

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  replayed: boolean;
}

export interface KeyedRequest {
  kind: Kind;
  path: string;
  accountId: string;
  token: string;
  key: string;
  body: unknown;
  grant: number;
  /** The first answer, or null when the connection was lost before one came. */
  first: Answer | null;
}

const ID_FIELD: Record<Kind, string> = { scrape: 'scrape_id', generate: 'generation_id', publish: 'publication_id' };
const TABLE = { scrape: 'scrapes', generate: 'generations', publish: 'publications' } as const;

export async function send(baseUrl: string, request: KeyedRequest): Promise<Answer | null> {
  try {
    const response = await fetch(`${baseUrl}${request.path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${request.token}`, 'content-type': 'application/json', 'idempotency-key': request.key },
      body: JSON.stringify(request.body),
    });
    return { status: response.status, body: await response.json(), replayed: response.headers.get('idempotent-replayed') === 'true' };
  } catch {
    return null;
  }
}

/** The id an answer names: a 2xx's own, or the one a problem carries. */
export const idOf = (kind: Kind, answer: Answer | null): string | undefined =>
  (answer?.status ?? 500) < 300 ? (answer!.body.id as string) : (answer?.body[ID_FIELD[kind]] as string | undefined);

/** Answers that say "not yet": the work is still running, or the database is still away. */
const pending = (answer: Answer | null) =>
  answer === null ||
  answer.status === 202 ||
  answer.status === 409 ||
  ['unavailable', 'answer_lost', 'outcome_unknown', 'internal'].includes(answer.body.code as string);

/**
 * Retries with the request's key until the answer is final; `between` moves the world on (recovery).
 * A scrape whose job was lost waits for the worker's next pass over stalled scrapes (every 30 s), hence a minute.
 */
export async function retryUntilFinal(baseUrl: string, request: KeyedRequest, between: () => Promise<void>, timeoutMs = 60_000): Promise<Answer> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
    const answer = await send(baseUrl, request);
    if (!pending(answer)) return answer!;
    await between();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${request.kind} with key ${request.key} never got a final answer`);
}

export const resourcesOf = (db: Database, request: KeyedRequest) =>
  db.selectFrom(TABLE[request.kind]).select(['id', 'charged', 'status']).where('account_id', '=', request.accountId).execute();

/**
 * What a first answer says must be true of the database right after it: an answer without an id
 * committed nothing (nothing exists and nothing was charged), and "nothing was charged" is true.
 */
export async function expectFirstAnswerTrue(db: Database, request: KeyedRequest) {
  const resources = await resourcesOf(db, request);
  const id = idOf(request.kind, request.first);
  const what = `${request.kind} first answered ${request.first ? `${request.first.status} ${JSON.stringify(request.first.body).slice(0, 300)}` : 'nothing'}`;
  if (request.first && !id) expect(resources, what).toEqual([]);
  if (request.first?.body.code === 'answer_lost') expect(resources.map((r) => r.id), what).toEqual([id]);
  if (request.first && /nothing was charged/i.test(String(request.first.body.detail))) {
    expect(await ledgerSum(db, request.accountId), what).toBe(request.grant);
  }
}

/**
 * After the retries: the request ran once (at most one resource charged, and the key bound to the one
 * the retry names), the retry got the first outcome, and the ledger agrees with the balance and the charges.
 */
export async function expectOnceAndFirstOutcome(db: Database, request: KeyedRequest, retry: Answer, balance: number) {
  const what = `${request.kind} ${request.key}: first ${request.first?.status} ${request.first?.body.code ?? ''}, retry ${retry.status} ${retry.body.code ?? ''}`;
  const resources = await resourcesOf(db, request);
  const retryId = idOf(request.kind, retry);
  expect(retryId, what).toBeDefined();
  expect(resources.filter((r) => Number(r.charged) > 0).length, what).toBeLessThanOrEqual(1);
  const firstId = idOf(request.kind, request.first);
  // The first outcome is the outcome: a retry names what the first answer named, unless that one never
  // committed (outcome_unknown, then 404) or was a refusal Reddit confirmed (publish frees its key, and says so).
  const firstExists = firstId !== undefined && resources.some((r) => r.id === firstId);
  const refused = request.kind === 'publish' && resources.some((r) => r.id === firstId && r.status === 'failed');
  if (firstExists && !refused) expect(retryId, what).toBe(firstId);
  if (request.first && request.first.status < 300) {
    expect(retry.status, what).toBe(request.first.status);
    expect(retry.replayed, what).toBe(true);
  }
  if (request.kind !== 'publish') expect(resources.length, what).toBe(1);
  const charged = resources.reduce((sum, r) => sum + Number(r.charged), 0);
  expect(balance, what).toBe(request.grant - charged);
  expect(await ledgerSum(db, request.accountId), what).toBe(balance);
}
