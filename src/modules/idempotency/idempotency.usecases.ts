import type { Kysely } from 'kysely';
import type { Database, Tables } from '../../shared/db/database.ts';
import { sha256 } from '../../shared/crypto/sha256.ts';
import { idempotencyErrors } from './idempotency.errors.ts';
import { createIdempotencyRepository, type StoredResponse } from './idempotency.repository.ts';
import { parseIdempotencyKey } from './idempotency.schemas.ts';

/** Stripe's window: a key answers with its first outcome for 24 hours. */
export const KEY_TTL_MS = 24 * 3600_000;

/**
 * A request that carries an Idempotency-Key no earlier request committed anything under. The usecase
 * binds it inside the transaction that creates the resource (`idempotencyIn(trx).bind`), which records
 * `resourceId` here: from then on the key belongs to that resource, whatever becomes of the answer.
 */
export interface IdempotencyClaim {
  accountId: string;
  /** The header's value unquoted (see idempotency.schemas.ts): one key in either form. */
  key: string;
  route: string;
  requestHash: string;
  resourceId: string | null;
}

/**
 * What a request with a key does: run (no earlier request committed under the key), replay the stored
 * first answer, or answer with the current state of the resource the key is bound to (its answer was
 * lost, not stored yet, or said "accepted" and the work has moved on since).
 */
export type Claim =
  | { kind: 'proceed'; claim: IdempotencyClaim }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'resource'; resourceId: string };

/** Answers a retry rebuilds from the resource rather than replays: "accepted" (the work went on) and lost answers. */
const rebuilt = (status: number | null) => status === null || status === 202;

/** The key's part of the usecase's transaction, next to creditsIn(trx): the binding commits or rolls back with the work. */
export function idempotencyIn(db: Kysely<Tables>) {
  const keys = createIdempotencyRepository(db);
  return {
    /**
     * Binds `claim` to the resource being created. A concurrent request with the same key that bound it
     * first wins: this one is refused (409), its transaction rolls back, and its retry gets the winner's outcome.
     */
    async bind(claim: IdempotencyClaim | null, resourceId: string, at: string): Promise<void> {
      if (!claim) return;
      const row = { account_id: claim.accountId, key: claim.key, route: claim.route, request_hash: claim.requestHash, resource_id: resourceId, created_at: at };
      if (!(await keys.bind(row))) throw idempotencyErrors.inProgress();
      claim.resourceId = resourceId;
    },
  };
}

export function createIdempotencyUsecases(deps: { db: Database; clock: () => Date }) {
  const keys = createIdempotencyRepository(deps.db);

  return {
    /** Decides whether this request runs, replays the key's first answer, or answers with its resource. */
    async begin(accountId: string, header: string, route: string, body: unknown): Promise<Claim> {
      const key = parseIdempotencyKey(header);
      if (key === null) throw idempotencyErrors.invalidKey();
      const requestHash = sha256(`${route}\n${JSON.stringify(body ?? null)}`);
      const existing = await keys.find(accountId, key);
      if (existing && deps.clock().getTime() - Date.parse(existing.created_at) > KEY_TTL_MS) {
        await keys.expire(accountId, key, existing.created_at);
      } else if (existing) {
        if (existing.request_hash !== requestHash) throw idempotencyErrors.keyReused();
        if (existing.resource_id && rebuilt(existing.response_status)) return { kind: 'resource', resourceId: existing.resource_id };
        return {
          kind: 'replay',
          response: { status: existing.response_status!, headers: JSON.parse(existing.response_headers ?? '{}'), body: existing.response_body ?? '' },
        };
      }
      return { kind: 'proceed', claim: { accountId, key, route, requestHash, resourceId: null } };
    },

    /**
     * Stores the answer of a request that bound its key, as the key's outcome. Not a 500 or a 503: those
     * say something went wrong on our side (the database, most often) after the commit, so a retry
     * answers from the resource as it then is. A request that bound nothing stores nothing, so its key
     * stays free: it committed nothing.
     */
    async finish(claim: IdempotencyClaim, response: StoredResponse) {
      if (!claim.resourceId || response.status === 500 || response.status === 503) return;
      await keys.complete(claim.accountId, claim.key, claim.resourceId, response);
    },
  };
}

export type IdempotencyUsecases = ReturnType<typeof createIdempotencyUsecases>;
