import { isAppError } from '../../app/errors.ts';
import { transaction, type Database } from '../../app/database.ts';
import { newId } from '../../app/ids.ts';
import { RedditUnavailableError } from '../../integrations/reddit/reddit.http.ts';
import { RedditTimeoutError, type PublishOutcome, type RedditUserClient } from '../../integrations/reddit/reddit.user.ts';
import type { ConnectionsUsecases } from '../connections/connections.usecases.ts';
import { createCreditsRepository } from '../credits/credits.repository.ts';
import { chargeIn } from '../credits/credits.usecases.ts';
import type { GenerateUsecases } from '../generate/generate.usecases.ts';
import type { Caller } from '../keys/keys.usecases.ts';
import type { RandomBytes } from '../keys/keys.tokens.ts';
import { publishErrors } from './publish.errors.ts';
import { createPublicationsRepository, isUniqueViolation, type PublicationRow } from './publish.repository.ts';
import type { PublishBody } from './publish.schemas.ts';
import { checkShape, contentHashOf, requestHashOf, resolveTarget, type PublishTarget } from './publish.target.ts';

export const DUPLICATE_WINDOW_MS = 10 * 60_000;
/** Past this, a publication still `running` belongs to a dead process and is settled as unknown. */
export const PUBLICATION_LEASE_MS = 10 * 60_000;

export function toPublicationView(row: PublicationRow, balance?: number) {
  return {
    id: row.id,
    status: row.status,
    type: row.kind,
    generation_id: row.generation_id,
    reddit: row.reddit_id ? { id: row.reddit_id, permalink: row.permalink ?? '' } : null,
    credits: balance === undefined ? { charged: row.charged } : { charged: row.charged, balance },
    error: row.error,
    created_at: row.created_at,
  };
}

type Failure = Error & { freeKey?: boolean };

export function createPublishUsecases(deps: {
  db: Database;
  connections: ConnectionsUsecases;
  redditUser: RedditUserClient | null;
  generate: GenerateUsecases;
  clock: () => Date;
  random: RandomBytes;
  price: number;
}) {
  const { db, connections, redditUser, generate, clock, random, price } = deps;
  const publications = createPublicationsRepository(db);
  const balanceOf = async (accountId: string) => (await createCreditsRepository(db).balanceOf(accountId)) ?? 0;

  /** A retried request with a known key: the first result, or why there is none yet. */
  async function replay(prior: PublicationRow, requestHash: string) {
    if (prior.request_hash !== requestHash) throw publishErrors.idempotencyMismatch();
    if (prior.status === 'running') throw publishErrors.inProgress(prior.id);
    if (prior.status === 'unknown') throw publishErrors.outcomeUnknown(prior.id);
    return { publication: toPublicationView(prior, await balanceOf(prior.account_id)), replayed: true };
  }

  /** Settles a publication that did not go out (or may not have): refunds it in the same transaction. */
  async function fail(row: PublicationRow, status: 'failed' | 'unknown', error: string) {
    await transaction(db, async (trx) => {
      const at = clock().toISOString();
      const change = { status, reddit_id: null, permalink: null, charged: 0, error, completed_at: at, freeKey: status === 'failed' };
      if (!(await createPublicationsRepository(trx).settle(row.id, change)) || row.charged === 0) return;
      const refund = { accountId: row.account_id, kind: 'refund' as const, amount: row.charged, keyId: row.key_id, publicationId: row.id, reason: error, at };
      await createCreditsRepository(trx).apply(refund);
    });
  }

  function send(user: RedditUserClient, accountId: string, t: PublishTarget): Promise<Exclude<PublishOutcome, { kind: 'unauthorized' }>> {
    return connections.withAccessToken(accountId, (token) =>
      t.kind === 'comment'
        ? user.comment(token, { parent: t.target, text: t.body })
        : user.submit(token, { subreddit: t.target.slice(2), title: t.title ?? '', text: t.body }),
    );
  }

  /** Reddit's refusal as the caller's problem; every one of them is refunded. */
  function refusal(row: PublicationRow, outcome: Exclude<PublishOutcome, { ok: true } | { kind: 'unauthorized' }>) {
    if (outcome.kind === 'rejected') return publishErrors.rejected(row.id, outcome.code, outcome.message, outcome.field);
    if (outcome.kind === 'rate_limited') return publishErrors.rateLimited(row.id, outcome.retryAfterSeconds, outcome.message);
    return publishErrors.forbidden(row.id, outcome.message);
  }

  return {
    async publish(caller: Caller, body: PublishBody, idempotencyKey?: string) {
      checkShape(body);
      const requestHash = requestHashOf(body);
      const prior = idempotencyKey ? await publications.findByKey(caller.accountId, idempotencyKey) : undefined;
      if (prior) return replay(prior, requestHash);
      const target = await resolveTarget(caller.accountId, body, generate);
      await connections.assertConnected(caller.accountId);
      const user = redditUser!;
      const now = clock();
      const row: PublicationRow = {
        id: newId('pub', now, random),
        account_id: caller.accountId,
        key_id: caller.keyId,
        status: 'running',
        kind: target.kind,
        target: target.target,
        title: target.title,
        body: target.body,
        generation_id: target.generationId,
        content_hash: contentHashOf(target),
        idempotency_key: idempotencyKey ?? null,
        request_hash: requestHash,
        reddit_id: null,
        permalink: null,
        price,
        charged: price,
        error: null,
        lease_expires_at: new Date(now.getTime() + PUBLICATION_LEASE_MS).toISOString(),
        created_at: now.toISOString(),
        completed_at: null,
      };

      // Reserve: charge and record in one transaction before Reddit is called, refund on any refusal.
      let raced: PublicationRow | undefined;
      try {
        raced = await transaction(db, async (trx) => {
          const repo = createPublicationsRepository(trx);
          await repo.lockAccount(caller.accountId);
          const first = idempotencyKey ? await repo.findByKey(caller.accountId, idempotencyKey) : undefined;
          if (first) return first;
          if (!body.allow_duplicate) {
            const since = new Date(now.getTime() - DUPLICATE_WINDOW_MS).toISOString();
            const duplicate = await repo.findRecentDuplicate(caller.accountId, row.content_hash, since);
            if (duplicate) throw publishErrors.duplicate(duplicate.id);
          }
          const charge = { accountId: caller.accountId, price, keyId: caller.keyId, publicationId: row.id, at: row.created_at };
          await chargeIn(createCreditsRepository(trx), charge);
          await repo.insert(row);
          return undefined;
        });
      } catch (error) {
        if (!idempotencyKey || !isUniqueViolation(error)) throw error;
        raced = await publications.findByKey(caller.accountId, idempotencyKey);
        if (!raced) throw error;
      }
      if (raced) return replay(raced, requestHash);

      let outcome;
      try {
        outcome = await send(user, caller.accountId, target);
      } catch (error) {
        const failure = error as Failure;
        if (error instanceof RedditTimeoutError) {
          await fail(row, 'unknown', error.message);
          throw publishErrors.outcomeUnknown(row.id, 504);
        }
        await fail(row, 'failed', isAppError(error) || error instanceof RedditUnavailableError ? failure.message : 'the publish failed unexpectedly');
        if (error instanceof RedditUnavailableError) throw publishErrors.redditUnavailable(row.id, error.message, error.upstreamStatus);
        throw error;
      }
      if (!outcome.ok) {
        const problem = refusal(row, outcome);
        await fail(row, 'failed', problem.message);
        throw problem;
      }
      const settled = await transaction(db, (trx) =>
        createPublicationsRepository(trx).settle(row.id, {
          status: 'published',
          reddit_id: outcome.id,
          permalink: outcome.permalink,
          charged: price,
          error: null,
          completed_at: clock().toISOString(),
          freeKey: false,
        }),
      );
      if (!settled) throw new Error(`publication ${row.id} was settled by someone else while Reddit posted it`);
      const stored = (await publications.findForAccount(caller.accountId, row.id))!;
      return { publication: toPublicationView(stored, await balanceOf(caller.accountId)), replayed: false };
    },

    async get(accountId: string, id: string) {
      const row = await publications.findForAccount(accountId, id);
      if (!row) throw publishErrors.notFound();
      return toPublicationView(row);
    },

    /** A publish whose process died may have gone out: it is refunded and kept as `unknown`. */
    async recoverAbandoned(): Promise<number> {
      const abandoned = await publications.findAbandoned(clock().toISOString());
      for (const row of abandoned) await fail(row, 'unknown', 'the service stopped before Reddit answered; the charge was refunded');
      return abandoned.length;
    },
  };
}

export type PublishUsecases = ReturnType<typeof createPublishUsecases>;
