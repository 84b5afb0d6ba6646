/**
 * The site-wide stream's rows (stream.tables.ts): its position per kind, the ids waiting for their
 * second asking, the coverage per hour and kind, the skipped ranges, and its lease (a `poller_leases`
 * row named 'stream', leases.repository.ts). The coverage route reads the same rows.
 */
import type { Kysely } from 'kysely';
import type { Tables } from '../../../shared/db/database.ts';
import { createLeaseRepository } from '../leases.repository.ts';
import { parseId, type CoverageRow, type Jump, type PendingId, type Position } from './stream.cycle.ts';
import type { StreamKind } from './stream.tables.ts';

const LEASE = 'stream';
const id36 = (id: number) => id.toString(36);

export const createStreamRepository = (db: Kysely<Tables>) => ({
  ...createLeaseRepository(db, LEASE),

  activeMonitors: () => db.selectFrom('monitors').selectAll().where('status', '=', 'active').orderBy('id').execute(),

  async positions(): Promise<Map<StreamKind, Position>> {
    const rows = await db.selectFrom('stream_positions').selectAll().execute();
    return new Map(rows.map((row) => [row.kind, { readTo: parseId(row.read_to), readToAt: row.read_to_at }]));
  },

  async savePositions(positions: Map<StreamKind, Position>, now: string): Promise<void> {
    for (const [kind, position] of positions) {
      const values = { read_to: id36(position.readTo), read_to_at: position.readToAt, updated_at: now };
      await db
        .insertInto('stream_positions')
        .values({ kind, ...values })
        .onConflict((oc) => oc.column('kind').doUpdateSet(values))
        .execute();
    }
  },

  /** The stream started walking a kind afresh (its first start, or a jump ahead) from the head of that time. */
  async walkedSince(restarts: Map<StreamKind, string>): Promise<void> {
    for (const [kind, at] of restarts) await db.updateTable('stream_positions').set({ walked_since: at }).where('kind', '=', kind).execute();
  },

  /** What the poller needs to know whether the stream serves subreddit monitors (stream.serving.ts). */
  serving: () => db.selectFrom('stream_positions').select(['kind', 'read_to_at', 'updated_at', 'walked_since']).execute(),

  /** The ids due their second asking at `now`, oldest due first. */
  async due(now: string, limit: number): Promise<PendingId[]> {
    const rows = await db.selectFrom('stream_pending').selectAll().where('due_at', '<=', now).orderBy('due_at').orderBy('kind').limit(limit).execute();
    return rows.map((row) => ({ kind: row.kind, id: parseId(row.id), hour: row.hour }));
  },

  async addPending(pending: (PendingId & { dueAt: string })[]): Promise<void> {
    for (let i = 0; i < pending.length; i += 100) {
      const rows = pending.slice(i, i + 100).map((p) => ({ kind: p.kind, id: id36(p.id), due_at: p.dueAt, hour: p.hour }));
      await db.insertInto('stream_pending').values(rows).onConflict((oc) => oc.columns(['kind', 'id']).doNothing()).execute();
    }
  },

  async resolvePending(resolved: PendingId[]): Promise<void> {
    for (const kind of ['t3', 't1'] as const) {
      const ids = resolved.filter((p) => p.kind === kind).map((p) => id36(p.id));
      for (let i = 0; i < ids.length; i += 500) {
        await db.deleteFrom('stream_pending').where('kind', '=', kind).where('id', 'in', ids.slice(i, i + 500)).execute();
      }
    }
  },

  /** Adds a cycle's counts to each hour and kind, widening the hour's id range by what was walked. */
  async addCoverage(rows: CoverageRow[]): Promise<void> {
    for (const row of rows) {
      const walked = row.asked + row.skipped > 0;
      const old = await db.selectFrom('stream_coverage').selectAll().where('hour', '=', row.hour).where('kind', '=', row.kind).executeTakeFirst();
      if (!old) {
        const { first, last, hour, kind, asked, returned, unavailable, skipped } = row;
        await db
          .insertInto('stream_coverage')
          .values({ hour, kind, first_id: id36(walked ? first : 0), last_id: id36(walked ? last : 0), asked, returned, unavailable, skipped })
          .execute();
        continue;
      }
      const first = walked ? Math.min(parseId(old.first_id), row.first) : parseId(old.first_id);
      const last = walked ? Math.max(parseId(old.last_id), row.last) : parseId(old.last_id);
      await db
        .updateTable('stream_coverage')
        .set({
          first_id: id36(first),
          last_id: id36(last),
          asked: Number(old.asked) + row.asked,
          returned: Number(old.returned) + row.returned,
          unavailable: Number(old.unavailable) + row.unavailable,
          skipped: Number(old.skipped) + row.skipped,
        })
        .where('hour', '=', row.hour)
        .where('kind', '=', row.kind)
        .execute();
    }
  },

  async addGaps(jumps: Jump[], now: string): Promise<void> {
    for (const jump of jumps) {
      await db.insertInto('stream_gaps').values({ kind: jump.kind, from_id: id36(jump.from), to_id: id36(jump.to), recorded_at: now }).execute();
    }
  },

  /** The coverage of the hours from `since` on, newest first, with the ranges skipped in each. */
  async coverage(since: string) {
    const rows = await db.selectFrom('stream_coverage').selectAll().where('hour', '>=', since).orderBy('hour', 'desc').orderBy('kind', 'desc').execute();
    const gaps = await db.selectFrom('stream_gaps').selectAll().where('recorded_at', '>=', since).orderBy('recorded_at').execute();
    const pending = await db
      .selectFrom('stream_pending')
      .select(['hour', 'kind', (eb) => eb.fn.countAll<number>().as('n')])
      .where('hour', '>=', since)
      .groupBy(['hour', 'kind'])
      .execute();
    return { rows, gaps, pending: pending.map((p) => ({ hour: p.hour, kind: p.kind, n: Number(p.n) })) };
  },
});

export type StreamRepository = ReturnType<typeof createStreamRepository>;
