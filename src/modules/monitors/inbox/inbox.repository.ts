import type { Kysely } from 'kysely';
import type { Tables } from '../../../shared/db/database.ts';
import type { MatchStatus } from '../monitors.tables.ts';

export interface InboxFilter {
  monitorId?: string;
  statuses?: MatchStatus[];
  minRelevance?: number;
}

/**
 * The inbox's reads and writes of `monitor_matches`: a match's status and the draft and publication
 * that answer it. The list reads its draft and publication beside it (one query, not one per row).
 */
export function createInboxRepository(db: Kysely<Tables>) {
  /** The account's matches with their monitor's name and, beside each, its draft and publication. */
  const withAnswers = (accountId: string) =>
    db
      .selectFrom('monitor_matches as m')
      .innerJoin('monitors as o', 'o.id', 'm.monitor_id')
      .leftJoin('generations as g', 'g.id', 'm.draft_id')
      .leftJoin('publications as p', 'p.id', 'm.publication_id')
      .selectAll('m')
      .select(['o.name as monitor_name', 'g.status as draft_status', 'g.body as draft_body', 'g.error as draft_error', 'g.edited_at as draft_edited_at'])
      .select(['p.status as publication_status', 'p.permalink as publication_permalink', 'p.author as publication_author'])
      .where('m.account_id', '=', accountId);

  return {
    /** The draft being written for the match: named on it at once, so its webhook and the inbox show it. */
    async attachDraft(matchId: string, draftId: string): Promise<void> {
      await db.updateTable('monitor_matches').set({ draft_id: draftId }).where('id', '=', matchId).execute();
    },

    /** The draft is written: its match is `drafted`, unless already published (a later draft does not undo that). */
    async drafted(draftId: string, at: string): Promise<void> {
      await db
        .updateTable('monitor_matches')
        .set({ status: 'drafted', status_at: at })
        .where('draft_id', '=', draftId)
        .where('status', '!=', 'published')
        .execute();
    },

    /**
     * The match a draft was made for, once that draft went out: `published`, with the publication and
     * that draft. Found by the draft's own `match_id`, not by the match's newest draft: an earlier
     * draft published after a later one was made answers the match just the same.
     */
    async published(draftId: string, publicationId: string, at: string): Promise<void> {
      await db
        .updateTable('monitor_matches')
        .set({ publication_id: publicationId, draft_id: draftId, status: 'published', status_at: at })
        .where((eb) => eb.or([
          eb('id', '=', eb.selectFrom('generations').select('generations.match_id').where('generations.id', '=', draftId)),
          eb('draft_id', '=', draftId),
        ]))
        .execute();
    },

    /** A person's choice; false when the account has no such match (or it is published: that stands). */
    async setStatus(accountId: string, matchId: string, status: MatchStatus, at: string): Promise<boolean> {
      const result = await db
        .updateTable('monitor_matches')
        .set({ status, status_at: at })
        .where('id', '=', matchId)
        .where('account_id', '=', accountId)
        .where('status', '!=', 'published')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    findById: (accountId: string, matchId: string) =>
      db.selectFrom('monitor_matches').selectAll().where('id', '=', matchId).where('account_id', '=', accountId).executeTakeFirst(),

    /** The account's newest match of a post or comment. */
    findByRedditId: (accountId: string, redditId: string) =>
      db
        .selectFrom('monitor_matches')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('reddit_id', '=', redditId)
        .orderBy('seq', 'desc')
        .limit(1)
        .executeTakeFirst(),

    /** Delivered matches, newest first, with their monitor's name, draft and publication: `limit` + 1 rows. */
    async page(accountId: string, filter: InboxFilter, limit: number, beforeSeq?: number) {
      let query = withAnswers(accountId).where('m.filtered', '=', 0).orderBy('m.seq', 'desc').limit(limit + 1);
      if (filter.monitorId) query = query.where('m.monitor_id', '=', filter.monitorId);
      if (filter.statuses?.length) query = query.where('m.status', 'in', filter.statuses);
      if (filter.minRelevance !== undefined) query = query.where('m.relevance', '>=', filter.minRelevance);
      if (beforeSeq !== undefined) query = query.where('m.seq', '<', beforeSeq);
      return query.execute();
    },

    /** One match of the account, filtered or not, as the list shows it. */
    one: (accountId: string, matchId: string) => withAnswers(accountId).where('m.id', '=', matchId).executeTakeFirst(),
  };
}

export type InboxRow = Awaited<ReturnType<ReturnType<typeof createInboxRepository>['page']>>[number];
