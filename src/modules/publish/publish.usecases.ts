import { plural } from '../../shared/text.ts';
import { isAppError } from '../../shared/errors.ts';
import { sourceOf } from '../../shared/demo.ts';
import type { Payer } from '../../shared/via.ts';
import type { Prices } from '../../shared/config/config.ts';
import type { RailsConfig } from '../../shared/config/rails.ts';
import { transaction, type Database } from '../../shared/db/database.ts';
import { newId } from '../../shared/crypto/ids.ts';
import { decodeCursor, toPage } from '../../shared/http/pagination.ts';
import { leaseFor } from '../../shared/jobs/leases.ts';
import { RedditUnavailableError } from '../../integrations/reddit/reddit.errors.ts';
import { RedditTimeoutError, type PublishOutcome, type RedditUserClient } from '../../integrations/reddit/reddit.user.ts';
import type { ConnectionsUsecases } from '../connections/connections.usecases.ts';
import { chargeFor } from '../credits/credits.prices.ts';
import { creditsIn } from '../credits/credits.usecases.ts';
import type { GenerateUsecases } from '../generate/generate.usecases.ts';
import type { RandomBytes } from '../../shared/crypto/random.ts';
import { publishErrors } from './publish.errors.ts';
import { checkRails, type Attempt } from './publish.rails.ts';
import { createPublishRecovery, settlePublication } from './publish.recovery.ts';
import { createPublicationsRepository, isUniqueViolation, type PublicationRow } from './publish.repository.ts';
import type { PublishBody, PublishFields } from './publish.schemas.ts';
import { afterCommitOf, commitOf, type Committing } from '../../shared/outcomes.ts';
import { locateComment, requestHashOf, resolveTarget, textHashOf, type Locate, type PublishTarget } from './publish.target.ts';

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
    source: sourceOf(row.reddit_id ?? row.target),
  };
}

/** The API's view plus the text and its destination, which the API's answer leaves out (the caller sent them). */
const toPublicationDetail = (row: PublicationRow) => ({
  ...toPublicationView(row),
  target: row.target,
  title: row.title,
  body: row.body,
  author: row.author,
  completed_at: row.completed_at,
});

type Failure = Error & { freeKey?: boolean };

const throwError = (error: Error): never => {
  throw error;
};

/** A publication being created, as its answers name it when the database fails around the commit. */
export const committingPublication = (id: string, price: number): Committing => ({
  noun: 'publication',
  id,
  idField: 'publication_id',
  location: `/api/v1/publications/${id}`,
  money: `holds ${plural(price, 'credit')} until Reddit answers (charged only if it goes out)`,
});

export function createPublishUsecases(deps: {
  db: Database;
  connections: ConnectionsUsecases;
  redditUser: RedditUserClient | null;
  generate: GenerateUsecases;
  clock: () => Date;
  random: RandomBytes;
  prices: Prices;
  rails: RailsConfig;
  /** Where a comment sent as text goes (its subreddit and post), for the rails; without it only a t3_ parent tells its thread. */
  locate?: Locate;
}) {
  const { db, connections, redditUser, generate, clock, random, prices, rails, locate } = deps;
  const publications = createPublicationsRepository(db);
  const recovery = createPublishRecovery({ db, connections, redditUser, clock });
  const balances = creditsIn(db);
  const spendableBalance = (accountId: string) => balances.spendableBalance(accountId);

  /** A retried request with a known key: the first result, or why there is none yet. */
  async function replay(prior: PublicationRow, requestHash: string) {
    if (prior.request_hash !== requestHash) throw publishErrors.idempotencyMismatch();
    if (prior.status === 'running') throw publishErrors.inProgress(prior.id);
    if (prior.status === 'unknown') throw publishErrors.outcomeUnknown(prior.id, 409, prior.lease_expires_at !== null);
    return { publication: toPublicationView(prior, await spendableBalance(prior.account_id)), replayed: true };
  }

  /** Settles a publication that did not go out: its hold is released in the same transaction. False when already settled. */
  const fail = (row: PublicationRow, error: string) => settlePublication(db, row, { status: 'failed', error, at: clock().toISOString() });

  /**
   * This process outlived its lease and recovery settled the publication from what Reddit shows; that
   * stands. The answer to give for it when it went out, else undefined (the caller's error holds).
   */
  async function recovered(row: PublicationRow) {
    const stored = (await publications.findForAccount(row.account_id, row.id))!;
    return stored.status === 'published' ? { publication: toPublicationView(stored, await spendableBalance(row.account_id)), replayed: false } : undefined;
  }

  function send(user: RedditUserClient, accountId: string, t: PublishTarget): Promise<Exclude<PublishOutcome, { kind: 'unauthorized' }>> {
    return connections.withAccessToken(accountId, (token) =>
      t.kind === 'comment'
        ? user.comment(token, { parent: t.target, text: t.body })
        : user.submit(token, { subreddit: t.target.slice(2), title: t.title ?? '', text: t.body }),
    );
  }

  /** Reddit's refusal as the caller's problem; none of them is charged. */
  function refusal(row: PublicationRow, outcome: Exclude<PublishOutcome, { ok: true } | { kind: 'unauthorized' }>) {
    if (outcome.kind === 'rejected') return publishErrors.rejected(row.id, outcome.code, outcome.message, outcome.field);
    if (outcome.kind === 'rate_limited') return publishErrors.rateLimited(row.id, outcome.retryAfterSeconds, outcome.message);
    return publishErrors.forbidden(row.id, outcome.message);
  }

  /**
   * Under the account's lock: the publication that already has the Idempotency-Key (found first, or by
   * the unique index when a twin raced us); else the rails, which refuse before anything is written;
   * else the hold and the record, with the key on it, in one transaction.
   */
  async function holdAndRecord(row: PublicationRow, attempt: Attempt, idempotencyKey: string | undefined): Promise<PublicationRow | undefined> {
    const accountId = row.account_id;
    try {
      return await transaction(db, async (trx) => {
        const repo = createPublicationsRepository(trx);
        await repo.lockAccount(accountId);
        const first = idempotencyKey ? await repo.findByKey(accountId, idempotencyKey) : undefined;
        if (first) return first;
        await checkRails(repo, rails, attempt);
        await creditsIn(trx).hold({ accountId, keyId: row.key_id, amount: row.price, at: row.created_at });
        await repo.insert(row);
        return undefined;
      });
    } catch (error) {
      if (!idempotencyKey || !isUniqueViolation(error)) throw error;
      const raced = await publications.findByKey(accountId, idempotencyKey);
      if (!raced) throw error;
      return raced;
    }
  }

  /** Reddit's part, after the hold committed: the publication (charged), or the hold released and an error with its id. */
  async function goOut(user: RedditUserClient, row: PublicationRow, target: PublishTarget, leaseMs: number) {
    let outcome;
    try {
      outcome = await send(user, row.account_id, target);
    } catch (error) {
      const failure = error as Failure;
      if (error instanceof RedditTimeoutError) {
        // It may have gone out: still held, and checked against Reddit once Reddit has surely finished.
        const checkAfter = new Date(clock().getTime() + leaseMs).toISOString();
        const why = `${error.message}; it is checked against Reddit after ${checkAfter}: charged if it went out, released if not`;
        const mine = await publications.postpone(row.id, { status: 'running' }, { error: why, lease_expires_at: checkAfter, recovery_checks: 0 });
        if (!mine) return (await recovered(row)) ?? throwError(publishErrors.outcomeUnknown(row.id, 504, false));
        throw publishErrors.outcomeUnknown(row.id, 504, true);
      }
      const why = isAppError(error) || error instanceof RedditUnavailableError ? failure.message : 'the publish failed unexpectedly';
      if (!(await fail(row, why))) {
        const result = await recovered(row);
        if (result) return result;
      }
      if (error instanceof RedditUnavailableError) throw publishErrors.redditUnavailable(row.id, error.message, error.upstreamStatus);
      throw error;
    }
    if (!outcome.ok) {
      const problem = refusal(row, outcome);
      if (!(await fail(row, problem.message))) return (await recovered(row)) ?? throwError(problem);
      throw problem;
    }
    const settled = await settlePublication(db, row, { status: 'published', reddit_id: outcome.id, permalink: outcome.permalink, at: clock().toISOString() });
    if (!settled) return (await recovered(row)) ?? throwError(publishErrors.outcomeUnknown(row.id, 409, false));
    const stored = (await publications.findForAccount(row.account_id, row.id))!;
    return { publication: toPublicationView(stored, await spendableBalance(row.account_id)), replayed: false };
  }

  return {
    async publish(caller: Payer, body: PublishBody, idempotencyKey?: string) {
      const requestHash = requestHashOf(body);
      const prior = idempotencyKey ? await publications.findByKey(caller.accountId, idempotencyKey) : undefined;
      if (prior) return replay(prior, requestHash);
      const written = await resolveTarget(caller.accountId, body, generate.get);
      await connections.assertConnected(caller.accountId);
      const target = await locateComment(caller.accountId, written, locate);
      const user = redditUser!;
      const author = (await connections.get(caller.accountId))?.username ?? null;
      // A token refresh and the post, twice when Reddit refuses the first token: all within publishBudgetMs().
      const leaseMs = leaseFor(user.publishBudgetMs());
      const now = clock();
      const id = newId('pub', now, random);
      const price = chargeFor(prices, { kind: 'publication', id });
      const textHash = textHashOf(target);
      const row: PublicationRow = {
        id,
        account_id: caller.accountId,
        key_id: caller.keyId,
        status: 'running',
        kind: target.kind,
        target: target.target,
        title: target.title,
        body: target.body,
        generation_id: target.generationId,
        text_hash: textHash,
        subreddit: target.subreddit,
        thread_id: target.thread,
        idempotency_key: idempotencyKey ?? null,
        request_hash: requestHash,
        reddit_id: null,
        permalink: null,
        price,
        charged: price,
        error: null,
        lease_expires_at: new Date(now.getTime() + leaseMs).toISOString(),
        created_at: now.toISOString(),
        completed_at: null,
        author,
        recovery_checks: 0,
        via: caller.via,
      };

      const { allow_duplicate, allow_second_reply } = body as PublishFields;
      const lifted = { allowDuplicate: allow_duplicate === true, allowSecondReply: allow_second_reply === true };
      const attempt: Attempt = { accountId: caller.accountId, at: row.created_at, kind: target.kind, textHash, subreddit: target.subreddit, thread: target.thread, ...lifted };

      const committing = committingPublication(row.id, price);
      // Hold and record in one transaction before Reddit is called (see creditsIn); charged only once Reddit accepts it.
      const raced = await commitOf(committing, () => holdAndRecord(row, attempt, idempotencyKey));
      if (raced) return replay(raced, requestHash);
      return afterCommitOf(committing, () => goOut(user, row, target, leaseMs));
    },

    /** What publish would post, where, as whom and for how much, without posting or charging: for a person to approve first. */
    async preview(caller: Payer, body: PublishBody) {
      const target = await resolveTarget(caller.accountId, body, generate.get);
      await connections.assertConnected(caller.accountId);
      const author = (await connections.get(caller.accountId))?.username ?? null;
      const price = chargeFor(prices, { kind: 'publication', id: 'preview' });
      const { kind: type, target: where, title, body: text, generationId } = target;
      return { type, target: where, title, body: text, generation_id: generationId, author, price, balance: await spendableBalance(caller.accountId) };
    },

    async get(accountId: string, id: string) {
      const row = await publications.findForAccount(accountId, id);
      if (!row) throw publishErrors.notFound();
      return toPublicationView(row);
    },

    /** The account's publications, newest first, with where they went and what they said (the dashboard's pages). */
    async list(accountId: string, options: { limit: number; cursor?: string }) {
      const rows = await publications.page(accountId, options.limit, decodeCursor(options.cursor, /^pub_[0-9a-f]{28}$/));
      const page = toPage(rows, options.limit, (row) => row.id);
      return { ...page, data: page.data.map(toPublicationDetail) };
    },

    async show(accountId: string, id: string) {
      const row = await publications.findForAccount(accountId, id);
      if (!row) throw publishErrors.notFound();
      return toPublicationDetail(row);
    },

    /** Publications whose answer from Reddit was lost: charged or released by what Reddit shows (publish.recovery.ts). */
    recoverAbandoned: recovery.recoverAbandoned,
  };
}

export type PublishUsecases = ReturnType<typeof createPublishUsecases>;
