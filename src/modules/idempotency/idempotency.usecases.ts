import type { Database } from '../../shared/db/database.ts';
import { idempotencyErrors } from './idempotency.errors.ts';
import { createIdempotencyRepository, type StoredResponse } from './idempotency.repository.ts';
import { parseIdempotencyKey } from './idempotency.schemas.ts';
import { sha256 } from '../../shared/crypto/sha256.ts';

/** Stripe's window: a key answers with its first result for 24 hours. */
export const KEY_TTL_MS = 24 * 3600_000;
/** A request still "in flight" after this long died with its process; its key may be retried. */
export const ABANDONED_AFTER_MS = 2 * 60_000;

/** `key` is the header's value unquoted (see idempotency.schemas.ts): the one the answer is stored under. */
export type Claim = { kind: 'proceed'; key: string } | { kind: 'replay'; response: StoredResponse };

export function createIdempotencyUsecases(deps: { db: Database; clock: () => Date }) {
  const { clock } = deps;
  const keys = createIdempotencyRepository(deps.db);

  return {
    /** Decides whether this request runs, or replays the answer its key already has. */
    async begin(accountId: string, header: string, route: string, body: unknown): Promise<Claim> {
      const key = parseIdempotencyKey(header);
      if (key === null) throw idempotencyErrors.invalidKey();
      const requestHash = sha256(`${route}\n${JSON.stringify(body ?? null)}`);
      for (let attempt = 0; attempt < 3; attempt++) {
        const now = clock();
        const row = { account_id: accountId, key, route, request_hash: requestHash, created_at: now.toISOString() };
        if (await keys.claim(row)) return { kind: 'proceed', key };
        const existing = await keys.find(accountId, key);
        if (!existing) continue;
        const age = now.getTime() - Date.parse(existing.created_at);
        const stale = age > KEY_TTL_MS || (existing.status === 'in_flight' && age > ABANDONED_AFTER_MS);
        if (stale) {
          await keys.release(accountId, key, existing.created_at);
          continue;
        }
        if (existing.request_hash !== requestHash) throw idempotencyErrors.keyReused();
        if (existing.status === 'in_flight') throw idempotencyErrors.inProgress();
        return {
          kind: 'replay',
          response: {
            status: existing.response_status!,
            headers: JSON.parse(existing.response_headers ?? '{}'),
            body: existing.response_body ?? '',
          },
        };
      }
      throw idempotencyErrors.inProgress();
    },

    /** Stores the final answer; a 5xx (nothing was charged) frees the key for a retry instead. */
    async finish(accountId: string, key: string, response: StoredResponse) {
      if (response.status >= 500) await keys.release(accountId, key);
      else await keys.complete(accountId, key, response);
    },
  };
}

export type IdempotencyUsecases = ReturnType<typeof createIdempotencyUsecases>;
