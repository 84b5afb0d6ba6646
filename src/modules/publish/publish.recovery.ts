/**
 * Publications whose outcome was lost: `running` past the lease (the process died while Reddit was
 * asked) or `unknown` (Reddit did not answer in time). Each is still charged. Recovery asks Reddit
 * whether it went out, in the author's own newest comments or posts, and settles it once: found →
 * `published` (the charge stands, the Reddit id is recorded); not there → `failed`, refunded. When
 * Reddit cannot be asked, the question waits for a later round; after MAX_RECOVERY_CHECKS rounds the
 * publication ends `unknown` and is refunded, as it would have been before this check existed.
 */
import { transaction, type Database } from '../../shared/db/database.ts';
import type { OwnThing, RedditUserClient } from '../../integrations/reddit/reddit.user.ts';
import type { ConnectionsUsecases } from '../connections/connections.usecases.ts';
import { refundOf } from '../credits/credits.prices.ts';
import { creditsIn } from '../credits/credits.usecases.ts';
import { createPublicationsRepository, type PublicationRow, type SettleFrom } from './publish.repository.ts';

export const MAX_RECOVERY_CHECKS = 6;
/** The wait before asking again after a round that could not ask: 1, 2, 4, 8, 16 minutes (about half an hour in all). */
export const recheckDelayMs = (checks: number) => 60_000 * 2 ** (checks - 1);
/** Reddit's clock and ours may differ by this much; a thing dated before the publication started, less this, is older. */
const CLOCK_SKEW_S = 60;
/** Listing pages (100 things each) read per question, newest first. */
const MAX_PAGES = 3;

/** Reddit may trim or re-wrap whitespace; the words are what must be the same. */
const same = (a: string | null, b: string | null) => (a ?? '').replace(/\s+/g, ' ').trim() === (b ?? '').replace(/\s+/g, ' ').trim();

function isTheOne(row: PublicationRow, thing: OwnThing): boolean {
  if (row.kind === 'comment') return thing.parentId === row.target && same(thing.text, row.body);
  return thing.subreddit.toLowerCase() === row.target.slice(2).toLowerCase() && same(thing.title, row.title) && same(thing.text, row.body);
}

/**
 * Settles a publication that did not go out, or cannot be shown to have (`unknown`), and refunds it in
 * the same transaction. Guarded on the state it expects: false when someone else settled it first.
 */
export function settleRefunded(
  db: Database,
  row: PublicationRow,
  outcome: { status: 'failed' | 'unknown'; error: string; at: string },
  from: SettleFrom = { status: 'running' },
): Promise<boolean> {
  const { status, error, at } = outcome;
  return transaction(db, async (trx) => {
    // A refusal Reddit confirmed frees the Idempotency-Key, so a retry with it really retries.
    const change = { status, reddit_id: null, permalink: null, charged: 0, error, completed_at: at, freeKey: status === 'failed' };
    if (!(await createPublicationsRepository(trx).settle(row.id, change, from))) return false;
    const amount = refundOf(row);
    if (amount > 0) {
      const purchase = { kind: 'publication', id: row.id } as const;
      await creditsIn(trx).refund({ accountId: row.account_id, amount, chargedAt: row.created_at, keyId: row.key_id, purchase, reason: error, at });
    }
    return true;
  });
}

export function createPublishRecovery(deps: {
  db: Database;
  connections: ConnectionsUsecases;
  redditUser: RedditUserClient | null;
  clock: () => Date;
}) {
  const { db, connections, redditUser, clock } = deps;

  /** The thing on Reddit that this publication became, or null when Reddit shows none; throws when Reddit cannot be asked. */
  async function findOnReddit(row: PublicationRow): Promise<OwnThing | null> {
    const user = redditUser;
    if (!user) throw new Error('Reddit connections are not configured');
    const author = row.author;
    if (!author) throw new Error('the Reddit user it was sent as is not recorded');
    const where = row.kind === 'comment' ? 'comments' : 'submitted';
    const since = Date.parse(row.created_at) / 1000 - CLOCK_SKEW_S;
    const candidates: OwnThing[] = [];
    let after: string | null = null;
    for (let page = 0; page < MAX_PAGES; page++) {
      const listing = await connections.withAccessToken(row.account_id, (token) => user.recent(token, { username: author, where, after }));
      candidates.push(...listing.things.filter((thing) => thing.createdUtc >= since && isTheOne(row, thing)));
      if (!listing.after || listing.things.some((thing) => thing.createdUtc < since)) break;
      after = listing.after;
    }
    // The same text may have been posted again on purpose (allow_duplicate): skip what another publication stands for.
    const taken = await createPublicationsRepository(db).claimed(row.account_id, candidates.map((thing) => thing.name));
    return candidates.filter((thing) => !taken.has(thing.name)).at(-1) ?? null;
  }

  /** Settles with its money move in one transaction; false when another recoverer got there first. */
  async function settle(row: PublicationRow, found: OwnThing | null, finalError?: string): Promise<boolean> {
    const from: SettleFrom = { status: row.status, recoveryChecks: row.recovery_checks };
    const at = clock().toISOString();
    if (found) {
      // The charge taken when it was sent stands: no money moves, only the status.
      const change = { status: 'published' as const, reddit_id: found.name, permalink: found.permalink, charged: row.charged, error: null, completed_at: at };
      return createPublicationsRepository(db).settle(row.id, { ...change, freeKey: false }, from);
    }
    const where = row.kind === 'comment' ? 'comments' : 'posts';
    const error = finalError ?? `the answer from Reddit was lost, and u/${row.author}'s recent ${where} do not show it; the charge was refunded`;
    return settleRefunded(db, row, { status: finalError ? 'unknown' : 'failed', error, at }, from);
  }

  /** Reddit could not be asked: again later, or, after the last round, refunded as unknown. */
  async function postpone(row: PublicationRow, reason: string): Promise<boolean> {
    const checks = row.recovery_checks + 1;
    if (checks >= MAX_RECOVERY_CHECKS) {
      const error = `Reddit could not be asked whether it went out (${reason}), ${checks} times; the charge was refunded`;
      return settle(row, null, error);
    }
    const next = new Date(clock().getTime() + recheckDelayMs(checks));
    await createPublicationsRepository(db).postpone(row.id, { status: row.status, recoveryChecks: row.recovery_checks }, {
      error: `the answer from Reddit was lost; Reddit could not be asked whether it went out (${reason}); asking again after ${next.toISOString()}`,
      lease_expires_at: next.toISOString(),
      recovery_checks: checks,
    });
    return false;
  }

  return {
    /** One recovery round; returns how many publications it settled. */
    async recoverAbandoned(): Promise<number> {
      let settled = 0;
      for (const row of await createPublicationsRepository(db).findAbandoned(clock().toISOString())) {
        let found: OwnThing | null;
        try {
          found = await findOnReddit(row);
        } catch (error) {
          if (await postpone(row, error instanceof Error ? error.message : 'an unexpected error')) settled += 1;
          continue;
        }
        if (await settle(row, found)) settled += 1;
      }
      return settled;
    },
  };
}
