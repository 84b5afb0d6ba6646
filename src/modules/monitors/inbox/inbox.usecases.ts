/**
 * The inbox: every delivered match of the account's monitors, with where it stands (`new`, `drafted`,
 * `published`, `dismissed`), its newest reply draft and the publication that answered it. A person
 * drafts a reply from a match (generate), edits it, approves it and publishes it (publish, which
 * marks the match), or dismisses it. Nothing here posts: publishing is always a person's explicit call.
 */
import type { Kysely } from 'kysely';
import type { Database, Tables } from '../../../shared/db/database.ts';
import type { Payer } from '../../../shared/via.ts';
import { decodeCursor, toPage } from '../../../shared/http/pagination.ts';
import { invalidFields, rules } from '../../../shared/http/validation-messages.ts';
import type { StoredItem } from '../../generate/generate.context.usecases.ts';
import { MAX_INSTRUCTIONS } from '../../generate/generate.limits.ts';
import type { GenerateUsecases } from '../../generate/generate.usecases.ts';
import type { IdempotencyClaim } from '../../idempotency/idempotency.usecases.ts';
import type { MatchStatus, MonitorMatchRow } from '../monitors.tables.ts';
import { toMatchView } from '../monitors.view.ts';
import { inboxErrors } from './inbox.errors.ts';
import { createInboxRepository, type InboxFilter, type InboxRow } from './inbox.repository.ts';

/**
 * The inbox's moves that other modules make inside their own transaction (as credits' `creditsIn`), so a
 * match's status commits or rolls back with the draft or publication that changes it.
 */
export function inboxIn(db: Kysely<Tables>) {
  const repo = createInboxRepository(db);
  return {
    /** A reply draft is being written for the match (charged, not yet written). */
    draftAttached: (matchId: string, draftId: string) => repo.attachDraft(matchId, draftId),
    /** The draft is written: the match is `drafted`. */
    draftWritten: (draftId: string, at: string) => repo.drafted(draftId, at),
    /** The draft went out on Reddit: its match (if it has one) is `published`. */
    published: (draftId: string, publicationId: string, at: string) => repo.published(draftId, publicationId, at),
  };
}


const asStored = (row: MonitorMatchRow): StoredItem => ({ ...row, match_id: row.id });

/** A match as the account holds it, by its id or (newest) by the fullname it matched: generate's context, without Reddit. */
export async function findMatchedItem(db: Database, accountId: string, ref: string): Promise<StoredItem | null> {
  const repo = createInboxRepository(db);
  const row = ref.startsWith('mat_') ? await repo.findById(accountId, ref) : await repo.findByRedditId(accountId, ref);
  return row ? asStored(row) : null;
}

/** One inbox entry: the match as the API shows it, its monitor's name, its draft and its publication in brief. */
function toInboxItem(row: InboxRow) {
  return {
    ...toMatchView(row),
    monitor_name: row.monitor_name,
    status_at: row.status_at,
    draft: row.draft_id
      ? { id: row.draft_id, status: row.draft_status ?? 'failed', body: row.draft_body ?? null, error: row.draft_error ?? null, edited_at: row.draft_edited_at ?? null }
      : null,
    publication: row.publication_id
      ? { id: row.publication_id, status: row.publication_status ?? 'unknown', permalink: row.publication_permalink ?? null, author: row.publication_author ?? null }
      : null,
  };
}

export type InboxItem = ReturnType<typeof toInboxItem>;

export function createInboxUsecases(deps: { db: Database; clock: () => Date; generate: GenerateUsecases }) {
  const { db, clock, generate } = deps;
  const repo = createInboxRepository(db);

  async function one(accountId: string, matchId: string): Promise<InboxItem> {
    const row = await repo.one(accountId, matchId);
    if (!row) throw inboxErrors.notFound(matchId);
    return toInboxItem(row);
  }

  return {
    /** Delivered matches, newest first, by monitor, status and relevance. */
    async list(accountId: string, filter: InboxFilter & { limit: number; cursor?: string }) {
      const before = decodeCursor(filter.cursor, /^\d{1,15}$/);
      const rows = await repo.page(accountId, filter, filter.limit, before === undefined ? undefined : Number(before));
      const page = toPage(rows, filter.limit, (row) => Number(row.seq));
      return { ...page, data: page.data.map(toInboxItem) };
    },

    get: one,

    /**
     * A person's call on a match: `dismissed`, or back to `new` (or `drafted` when it has a draft). A published
     * match stays published (409): it is on Reddit.
     */
    async setStatus(accountId: string, matchId: string, status: Extract<MatchStatus, 'new' | 'dismissed'>): Promise<InboxItem> {
      const match = await repo.findById(accountId, matchId);
      if (!match) throw inboxErrors.notFound(matchId);
      if (match.status === 'published') throw inboxErrors.published(matchId);
      const next: MatchStatus = status === 'new' && match.draft_id ? 'drafted' : status;
      if (!(await repo.setStatus(accountId, matchId, next, clock().toISOString()))) throw inboxErrors.published(matchId);
      return one(accountId, matchId);
    },

    /**
     * A reply draft from the match as stored (no Reddit request), charged PRICE_GENERATE like any draft. The
     * instructions come from a form or a tool, not the API's schema: their limit is checked here, before any charge.
     */
    draftReply(caller: Payer, matchId: string, instructions?: string, idempotency: IdempotencyClaim | null = null) {
      const text = instructions?.trim() ?? '';
      if ([...text].length > MAX_INSTRUCTIONS) {
        throw invalidFields('The draft', [{ path: '/instructions', message: rules.length(1, MAX_INSTRUCTIONS) }]);
      }
      return generate.generate(caller, { type: 'reply', reply_to: matchId, ...(text ? { instructions: text } : {}) }, idempotency);
    },
  };
}

export type InboxUsecases = ReturnType<typeof createInboxUsecases>;
