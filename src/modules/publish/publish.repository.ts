import { sql, type Kysely } from 'kysely';
import { isSqlite, type Database, type Tables } from '../../shared/db/database.ts';
import type { Earlier, RailsReader } from './publish.rails.ts';
import type { PublicationsTable } from './publish.tables.ts';

export type PublicationRow = PublicationsTable;

/** The state a settlement expects to find; with the recovery round, two recoverers cannot both act. */
export interface SettleFrom {
  status: PublicationRow['status'];
  recoveryChecks?: number;
}

/** What the rails count: publications that did or may have gone out (a failed one never did). */
const OUT_OR_MAYBE = ['running', 'published', 'unknown'] as const;

/** The rails' questions (publish.rails.ts), on the (account_id, created_at) index of migration 0020. */
function railsReader(db: Kysely<Tables>): RailsReader {
  const counted = (accountId: string) =>
    db.selectFrom('publications').select(['id', 'created_at']).where('account_id', '=', accountId).where('status', 'in', OUT_OR_MAYBE);
  return {
    sameText: (accountId, textHash, since) =>
      counted(accountId).where('text_hash', '=', textHash).where('created_at', '>', since).orderBy('created_at', 'desc').executeTakeFirst(),
    inThread: (accountId, thread) => counted(accountId).where('thread_id', '=', thread).orderBy('created_at').orderBy('id').execute(),
    async createdAfter(accountId, since, subreddit): Promise<Earlier[]> {
      let query = counted(accountId).where('created_at', '>', since);
      if (subreddit !== undefined) query = query.where(sql<string>`lower(subreddit)`, '=', subreddit.toLowerCase());
      return query.orderBy('created_at').orderBy('id').execute();
    },
  };
}

export function createPublicationsRepository(db: Kysely<Tables>) {
  async function guarded(id: string, from: SettleFrom, set: Partial<PublicationRow>): Promise<boolean> {
    let query = db.updateTable('publications').set(set).where('id', '=', id).where('status', '=', from.status);
    if (from.recoveryChecks !== undefined) query = query.where('recovery_checks', '=', from.recoveryChecks);
    const result = await query.executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  return {
    async insert(row: PublicationRow): Promise<void> {
      await db.insertInto('publications').values(row).execute();
    },

    /**
     * Serialises an account's publishes inside a transaction, so the rails and the key check cannot
     * both pass for two concurrent requests. SQLite's BEGIN IMMEDIATE already does this.
     */
    async lockAccount(accountId: string): Promise<void> {
      if (isSqlite(db as Database)) return;
      await sql`select id from accounts where id = ${accountId} for update`.execute(db);
    },

    findByKey: (accountId: string, key: string) =>
      db
        .selectFrom('publications')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('idempotency_key', '=', key)
        .executeTakeFirst(),

    ...railsReader(db),

    /** Guarded on the state it expects, so a publication is settled (and its hold charged or released) once. */
    async settle(
      id: string,
      change: Pick<PublicationRow, 'status' | 'reddit_id' | 'permalink' | 'charged' | 'error' | 'completed_at'> & {
        freeKey: boolean;
      },
      from: SettleFrom = { status: 'running' },
    ): Promise<boolean> {
      const { freeKey, ...rest } = change;
      return guarded(id, from, { ...rest, lease_expires_at: null, ...(freeKey ? { idempotency_key: null } : {}) });
    },

    /** Leaves it unsettled (`unknown`, still holding its price) for recovery to act on after `lease_expires_at`. */
    postpone: (id: string, from: SettleFrom, change: Pick<PublicationRow, 'error' | 'lease_expires_at' | 'recovery_checks'>) =>
      guarded(id, from, { ...change, status: 'unknown' }),

    /** Which of these Reddit things some publication of the account already stands for. */
    async claimed(accountId: string, names: string[]): Promise<Set<string>> {
      if (names.length === 0) return new Set();
      const rows = await db.selectFrom('publications').select('reddit_id').where('account_id', '=', accountId).where('reddit_id', 'in', names).execute();
      return new Set(rows.map((row) => row.reddit_id!));
    },

    findForAccount: (accountId: string, id: string) =>
      db.selectFrom('publications').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst(),

    /** The account's publications, newest first: `limit` + 1 rows, the extra one saying whether more follow. */
    async page(accountId: string, limit: number, beforeId?: string) {
      let query = db.selectFrom('publications').selectAll().where('account_id', '=', accountId).orderBy('id', 'desc').limit(limit + 1);
      if (beforeId !== undefined) query = query.where('id', '<', beforeId);
      return query.execute();
    },

    /** `running` past its lease (its process died), or `unknown` and due for a check with Reddit. */
    findAbandoned: (now: string) =>
      db
        .selectFrom('publications')
        .selectAll()
        .where('status', 'in', ['running', 'unknown'])
        .where('lease_expires_at', '<', now)
        .orderBy('id')
        .execute(),
  };
}

export const isUniqueViolation = (error: unknown): boolean => {
  const e = error as { code?: unknown; message?: unknown };
  return e?.code === '23505' || (typeof e?.message === 'string' && e.message.includes('UNIQUE constraint failed'));
};
