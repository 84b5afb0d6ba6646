/**
 * How a publication ends, and with it its money; and the recovery of publications whose outcome was
 * lost: `running` past the lease (the process died while Reddit was asked) or `unknown` (Reddit did
 * not answer in time). Each still holds its price. Recovery asks Reddit whether it went out, in the
 * author's own newest comments or posts, and settles it once: found → `published` (the hold is
 * charged, the Reddit id recorded); not there → `failed`, the hold released. When Reddit cannot be
 * asked, the question waits for a later round; after MAX_RECOVERY_CHECKS rounds the publication ends
 * `unknown` and its hold is released (the doubt goes to the customer).
 */
import type { Kysely } from 'kysely';
import { transaction, type Database, type Tables } from '../../shared/db/database.ts';
import type { OwnThing, RedditUserClient } from '../../integrations/reddit/reddit.user.ts';
import type { ConnectionsUsecases } from '../connections/connections.usecases.ts';
import { refundOf } from '../credits/credits.prices.ts';
import { creditsIn } from '../credits/credits.usecases.ts';
import { inboxIn } from '../monitors/inbox/inbox.usecases.ts';
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

/** How a publication ends: on Reddit with its id, or not (`failed`: it did not go out; `unknown`: that can no longer be found out). */
export type Ending =
  | { status: 'published'; reddit_id: string; permalink: string; at: string }
  | { status: 'failed' | 'unknown'; error: string; at: string };

/**
 * Its money, in the settlement's transaction. A publication holds its price from the moment it is
 * recorded: it goes out → the hold is captured as one ledger `charge`; it does not → the hold is
 * released and the ledger gets no row. Publications recorded before migration 0020 (which filled
 * `text_hash` from then on) were charged when recorded instead: that charge stands, or is refunded.
 */
async function pay(trx: Kysely<Tables>, row: PublicationRow, ending: Ending): Promise<void> {
  const credits = creditsIn(trx);
  const context = { accountId: row.account_id, keyId: row.key_id, purchase: { kind: 'publication', id: row.id } as const, at: ending.at };
  const charge = ending.status === 'published' ? row.price : 0;
  if (row.text_hash !== null) return credits.settleHold({ ...context, held: row.price, charge, heldAt: row.created_at });
  if (ending.status !== 'published') await credits.refund({ ...context, amount: refundOf(row), chargedAt: row.created_at, reason: ending.error });
}

/**
 * Settles a publication and its money in one transaction, guarded on the state it expects: false
 * when someone else settled it first. One made from a draft that went out marks the draft's match
 * `published` in the inbox, in the same transaction.
 */
export function settlePublication(db: Database, row: PublicationRow, ending: Ending, from: SettleFrom = { status: 'running' }): Promise<boolean> {
  const { status, at } = ending;
  const change =
    ending.status === 'published'
      ? { status, reddit_id: ending.reddit_id, permalink: ending.permalink, charged: row.price, error: null, completed_at: at, freeKey: false }
      : // A refusal Reddit confirmed frees the Idempotency-Key, so a retry with it really retries.
        { status, reddit_id: null, permalink: null, charged: 0, error: ending.error, completed_at: at, freeKey: status === 'failed' };
  return transaction(db, async (trx) => {
    if (!(await createPublicationsRepository(trx).settle(row.id, change, from))) return false;
    await pay(trx, row, ending);
    if (status === 'published' && row.generation_id) await inboxIn(trx).published(row.generation_id, row.id, at);
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

  /** Settles from what Reddit shows, or, with `finalError`, as unknown; false when another recoverer got there first. */
  function settle(row: PublicationRow, found: OwnThing | null, finalError?: string): Promise<boolean> {
    const from: SettleFrom = { status: row.status, recoveryChecks: row.recovery_checks };
    const at = clock().toISOString();
    if (found) return settlePublication(db, row, { status: 'published', reddit_id: found.name, permalink: found.permalink, at }, from);
    const where = row.kind === 'comment' ? 'comments' : 'posts';
    const error = finalError ?? `the answer from Reddit was lost, and u/${row.author}'s recent ${where} do not show it; nothing was charged`;
    return settlePublication(db, row, { status: finalError ? 'unknown' : 'failed', error, at }, from);
  }

  /** Reddit could not be asked: again later, or, after the last round, settled unknown (its hold released). */
  async function postpone(row: PublicationRow, reason: string): Promise<boolean> {
    const checks = row.recovery_checks + 1;
    if (checks >= MAX_RECOVERY_CHECKS) {
      const error = `Reddit could not be asked whether it went out (${reason}), ${checks} times; nothing was charged`;
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
