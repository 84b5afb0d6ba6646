/**
 * The poller's own rows: which monitors are active, how far each subreddit was read (the marks,
 * with the last good read and the last Reddit error), the gaps, and the lease that lets one instance
 * poll at a time. The API's reads of the same tables live in monitors.repository.ts.
 */
import { sql, type Kysely } from 'kysely';
import { createLeaseRepository } from '../leases.repository.ts';
import { locked, type Tables } from '../../../shared/db/database.ts';
import { nextMark, type GroupRead, type Mark } from './poller.reading.ts';
import type { LastReads } from './poller.schedule.ts';
import type { MonitorSource, PausedReason } from '../monitors.tables.ts';

const LEASE = 'monitors';

export const createPollerRepository = (db: Kysely<Tables>) => ({
  /** Ends the daily-cap pauses whose UTC day is over; they watch again from that midnight. */
  async resumeDueDailyCaps(now: string): Promise<void> {
    await db
      .updateTable('monitors')
      .set({ status: 'active', paused_reason: null, paused_until: null, watch_from: sql`paused_until`, updated_at: now })
      .where('status', '=', 'paused')
      .where('paused_reason', '=', 'daily_cap')
      .where('paused_until', '<=', now)
      .execute();
  },

  /** The monitors paused because their account could not pay: each cycle checks whether it can now. */
  creditPaused: () =>
    db
      .selectFrom('monitors')
      .selectAll()
      .where('status', '=', 'paused')
      .where('paused_reason', '=', 'insufficient_credits')
      .orderBy('id')
      .execute(),

  /**
   * Resumes a monitor paused for credits, watching again from where it stopped (from `now` when it
   * stopped before that was remembered); false when it is no longer paused for credits (its owner
   * resumed, paused or deleted it meanwhile: the owner's change stands).
   */
  async resumeForCredits(id: string, now: string): Promise<boolean> {
    const result = await db
      .updateTable('monitors')
      .set({ status: 'active', paused_reason: null, paused_until: null, watch_from: sql`coalesce(resume_from, ${now})`, updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'paused')
      .where('paused_reason', '=', 'insufficient_credits')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  /** A catch-up back to `from` committed: nothing is owed any more, unless the monitor paused or was given a new point meanwhile. */
  async caughtUp(id: string, from: string): Promise<void> {
    await db
      .updateTable('monitors')
      .set({ resume_from: null })
      .where('id', '=', id)
      .where('status', '=', 'active')
      .where('resume_from', '=', from)
      .execute();
  },

  activeMonitors: () => db.selectFrom('monitors').selectAll().where('status', '=', 'active').orderBy('id').execute(),

  /** A monitor's status as it is now (it may have been paused, edited or deleted since the cycle began). */
  monitor: (id: string) => db.selectFrom('monitors').selectAll().where('id', '=', id).executeTakeFirst(),

  /**
   * Pauses an active monitor; false when it was no longer active (paused by its owner, deleted).
   * `resumeFrom` is where a pause for credits stopped; any other pause owes nothing (a daily cap hit
   * while catching up ends the catch-up: the cap watches again from midnight).
   */
  async pause(id: string, reason: PausedReason, until: string | null, now: string, resumeFrom: string | null = null): Promise<boolean> {
    const result = await db
      .updateTable('monitors')
      .set({ status: 'paused', paused_reason: reason, paused_until: until, resume_from: resumeFrom, updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'active')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  /** Delivered matches stored since `since` (the daily cap's count; filtered ones are not delivered). */
  async matchesSince(monitorId: string, since: string): Promise<number> {
    const row = await db
      .selectFrom('monitor_matches')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('monitor_id', '=', monitorId)
      .where('found_at', '>=', since)
      .where('filtered', '=', 0)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  },

  async marks(names: string[], source: MonitorSource): Promise<Map<string, Mark>> {
    if (names.length === 0) return new Map();
    const rows = await db
      .selectFrom('monitor_cursors')
      .select(['subreddit', 'mark_at', 'seen'])
      .where('source', '=', source)
      .where('subreddit', 'in', names)
      .execute();
    return new Map(
      rows.flatMap((row) => (row.mark_at ? [[row.subreddit, { at: row.mark_at, seen: JSON.parse(row.seen ?? '{}') as Mark['seen'] }]] : [])),
    );
  },

  /** When each subreddit was last read well, per source: the least recently read are read first when the budget is short. */
  async lastReads(): Promise<LastReads> {
    const rows = await db.selectFrom('monitor_cursors').select(['subreddit', 'source', 'read_at']).where('read_at', 'is not', null).execute();
    const last: LastReads = { posts: new Map(), comments: new Map() };
    for (const row of rows) last[row.source].set(row.subreddit, row.read_at!);
    return last;
  },

  /** After a good read: every name of the group has been read up to the read's newest time (a mark never goes back). */
  async advance(names: string[], source: MonitorSource, read: Pick<GroupRead, 'top' | 'read'>, now: string): Promise<void> {
    const current = await createPollerRepository(db).marks(names, source);
    for (const subreddit of names) {
      const mark = nextMark(current.get(subreddit), subreddit, read);
      const newest = mark && Object.entries(mark.seen).reduce<string | null>((best, [id, at]) => (at === mark.at ? id : best), null);
      const values = { mark: newest ?? null, mark_at: mark?.at ?? null, seen: mark ? JSON.stringify(mark.seen) : null, read_at: now, error: null, error_at: null };
      await db
        .insertInto('monitor_cursors')
        .values({ subreddit, source, ...values })
        .onConflict((oc) => oc.columns(['subreddit', 'source']).doUpdateSet(values))
        .execute();
    }
  },

  /**
   * The site-wide stream read these names up to `markAt` (poller.serving.ts): each mark moves there
   * unless it is already later (a mark never goes back), forgetting the overlap's fullnames (things read
   * twice are skipped by the unique (monitor, thing) row), and `read_at` says they were read well now.
   */
  async coverByStream(names: string[], source: MonitorSource, markAt: string, now: string): Promise<void> {
    for (let i = 0; i < names.length; i += 500) {
      const chunk = names.slice(i, i + 500);
      const fresh = { mark: null, mark_at: markAt, seen: '{}', read_at: now, error: null, error_at: null };
      await db.insertInto('monitor_cursors').values(chunk.map((subreddit) => ({ subreddit, source, ...fresh }))).onConflict((oc) => oc.columns(['subreddit', 'source']).doNothing()).execute();
      await db
        .updateTable('monitor_cursors')
        .set({ mark: null, mark_at: markAt, seen: '{}' })
        .where('source', '=', source)
        .where('subreddit', 'in', chunk)
        .where((eb) => eb.or([eb('mark_at', 'is', null), eb('mark_at', '<', markAt)]))
        .execute();
      await db.updateTable('monitor_cursors').set({ read_at: now, error: null, error_at: null }).where('source', '=', source).where('subreddit', 'in', chunk).execute();
    }
  },

  /** Reddit failed on these names: the marks stay, so the next good read catches up from them. */
  async recordError(names: string[], source: MonitorSource, error: string, now: string): Promise<void> {
    for (const subreddit of names) {
      await db
        .insertInto('monitor_cursors')
        .values({ subreddit, source, mark: null, mark_at: null, seen: null, read_at: null, error, error_at: now })
        .onConflict((oc) => oc.columns(['subreddit', 'source']).doUpdateSet({ error, error_at: now }))
        .execute();
    }
  },

  /**
   * Records a stretch the monitor may have missed. A monitor its owner deleted after the cycle read it
   * gets none: its row is locked first (on PostgreSQL, waiting for a delete in flight), so a gone
   * monitor is seen as gone instead of failing the cycle's commit on the foreign key.
   */
  async insertGap(gap: { monitorId: string; source: MonitorSource; subreddits: string[]; from: string; to: string; now: string }) {
    const monitor = db.selectFrom('monitors').select('id').where('id', '=', gap.monitorId);
    if (!(await locked(db, monitor, 'share').executeTakeFirst())) return;
    await db
      .insertInto('monitor_gaps')
      .values({
        monitor_id: gap.monitorId,
        source: gap.source,
        subreddits: JSON.stringify(gap.subreddits),
        from_at: gap.from,
        to_at: gap.to,
        recorded_at: gap.now,
      })
      .execute();
  },

  /** The poller's lease (leases.repository.ts), named 'monitors'. */
  ...createLeaseRepository(db, LEASE),
});

export type PollerRepository = ReturnType<typeof createPollerRepository>;
