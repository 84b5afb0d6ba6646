/**
 * The named leases that let one instance at a time run a background reader (`poller_leases`): the
 * monitors' poller ('monitors') and the site-wide stream ('stream'). Each cycle takes the lease (or
 * renews its own) and counts one more cycle; whatever a cycle commits is fenced by `renew` on that
 * cycle's number, so an instance that lost its lease commits nothing more. How long a lease runs is
 * the caller's: its cycle's outside calls plus a margin (src/shared/jobs/leases.ts).
 */
import { sql, type Kysely } from 'kysely';
import type { Tables } from '../../shared/db/database.ts';

export const createLeaseRepository = (db: Kysely<Tables>, name: string) => ({
  /**
   * Takes the lease (or renews this holder's), counting one more cycle; null while another holder's
   * lease runs. One guarded statement, so two instances can never both get the same cycle.
   */
  async acquire(holder: string, nowMs: number, leaseMs: number): Promise<number | null> {
    const expires = nowMs + leaseMs;
    const inserted = await db
      .insertInto('poller_leases')
      .values({ name, holder, expires_at: expires, cycle: 1 })
      .onConflict((oc) => oc.column('name').doNothing())
      .returning('cycle')
      .executeTakeFirst();
    if (inserted) return Number(inserted.cycle);
    const updated = await db
      .updateTable('poller_leases')
      .set({ holder, expires_at: expires, cycle: sql`cycle + 1` })
      .where('name', '=', name)
      .where((eb) => eb.or([eb('holder', '=', holder), eb('expires_at', '<=', nowMs)]))
      .returning('cycle')
      .executeTakeFirst();
    return updated ? Number(updated.cycle) : null;
  },

  /** Extends the lease of this holder's cycle; false when it was lost (then nothing of the cycle may commit). */
  async renew(holder: string, cycle: number, nowMs: number, leaseMs: number): Promise<boolean> {
    const result = await db
      .updateTable('poller_leases')
      .set({ expires_at: nowMs + leaseMs })
      .where('name', '=', name)
      .where('holder', '=', holder)
      .where('cycle', '=', cycle)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  /** Lets another instance take over at once (a clean shutdown). */
  release: (holder: string) => db.deleteFrom('poller_leases').where('name', '=', name).where('holder', '=', holder).execute(),
});
