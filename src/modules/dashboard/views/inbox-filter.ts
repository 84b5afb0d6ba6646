import type { MatchStatus } from '../../monitors/monitors.tables.ts';

/*
 * Which part of the inbox a person is looking at (a status tab, a monitor, a relevance floor, a page),
 * as the inbox's address. Every form on the inbox, and the publish confirmation opened from it, carries
 * that address as `return_to`, so the person lands back where they were; it is read back field by field
 * and rebuilt here, never followed as given, so no form can send the browser anywhere but the inbox.
 */

export const MATCH_STATUSES: readonly MatchStatus[] = ['new', 'drafted', 'published', 'dismissed'];

export interface InboxFilter {
  status?: MatchStatus;
  monitor?: string;
  /** Only matches the judge scored at least this. */
  min?: number;
  cursor?: string;
}

const MONITOR_ID = /^mon_[0-9a-f]{28}$/;
const CURSOR = /^[A-Za-z0-9_-]{1,200}$/;
const SCORE = /^\d{1,3}$/;

/** The known fields of a query, each kept only when it is well formed (the "All" choices post them empty). */
export function filterOf(params: Partial<Record<keyof InboxFilter, string>>): InboxFilter {
  const { status, monitor = '', min = '', cursor = '' } = params;
  return {
    status: MATCH_STATUSES.find((known) => known === status),
    monitor: MONITOR_ID.test(monitor) ? monitor : undefined,
    min: SCORE.test(min) && Number(min) <= 100 ? Number(min) : undefined,
    cursor: CURSOR.test(cursor) ? cursor : undefined,
  };
}

/** A `return_to` as the filter it names; anything that is not an inbox address is the whole inbox. */
export function filterOfPath(returnTo: string | undefined): InboxFilter {
  if (!returnTo?.startsWith('/dashboard/inbox')) return {};
  const url = new URL(returnTo, 'http://inbox.invalid');
  if (url.pathname !== '/dashboard/inbox') return {};
  return filterOf(Object.fromEntries(url.searchParams));
}

/** The inbox's address for a filter; `extra` adds what to say (`done`) and about which match, both for one page load. */
export function inboxPath(filter: InboxFilter, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...filter, ...extra })) if (value !== undefined) query.set(name, String(value));
  const text = query.toString();
  return text ? `/dashboard/inbox?${text}` : '/dashboard/inbox';
}

/** Back on the inbox after acting on a match: the same filter and page, the notice, and the match's entry in view. */
export const backToEntry = (filter: InboxFilter, done: string, matchId: string) => `${inboxPath(filter, { done, match: matchId })}#${matchId}`;
