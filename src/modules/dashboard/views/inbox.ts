import type { InboxItem } from '../../monitors/inbox/inbox.usecases.ts';
import type { MatchStatus } from '../../monitors/monitors.tables.ts';
import type { Page } from '../../../shared/http/pagination.ts';
import { inboxPath, type InboxFilter } from './inbox-filter.ts';
import { html, type Html } from './html.ts';
import { inboxEntry, type EntryContext, type EntryProblem } from './inbox-entry.ts';
import { csrfField, cursorPager, errorBox, noticeBox, page, type Viewer } from './layout.ts';
import { snippet } from './written.ts';

export interface InboxPage {
  viewer: Viewer;
  items: Page<InboxItem>;
  filter: InboxFilter;
  /** The account's monitors, for the monitor filter. */
  monitors: { id: string; name: string }[];
  /** The saved voice for drafts; null: none. */
  voice: string | null;
  notice?: string;
  /** The match the last action was about, when this list (its tab, its page) does not show it any more. */
  pinned?: InboxItem | null;
  problem?: EntryProblem;
  /** A refused voice, shown in its form, which `voiceInput` refills. */
  voiceError?: string;
  voiceInput?: string;
}

const TABS: [MatchStatus | undefined, string][] = [
  [undefined, 'All'],
  ['new', 'New'],
  ['drafted', 'Drafted'],
  ['published', 'Published'],
  ['dismissed', 'Dismissed'],
];

/** The statuses as links (no script), each keeping the monitor and relevance chosen and starting at the newest. */
function tabs(filter: InboxFilter): Html {
  return html`<nav class="mon-tabs" aria-label="Which matches">
  ${TABS.map(([status, label]) => {
    const current = status === filter.status ? html` aria-current="page"` : null;
    return html`<a href="${inboxPath({ ...filter, status, cursor: undefined })}"${current}>${label}</a>`;
  })}
</nav>`;
}

/** A plain GET form, so a filtered inbox is a link; the tab it was chosen on stays. */
function filters(view: InboxPage): Html {
  const { filter } = view;
  return html`<form method="get" action="/dashboard/inbox" class="inline filters inbox-filters">
  ${filter.status ? html`<input type="hidden" name="status" value="${filter.status}">` : null}
  <label>Monitor <select name="monitor">
    <option value="">All monitors</option>
    ${view.monitors.map((m) => html`<option value="${m.id}"${m.id === filter.monitor ? html` selected` : null}>${m.name}</option>`)}
  </select></label>
  <label>Relevance at least <input type="number" name="min" value="${filter.min ?? ''}" min="0" max="100" step="1" inputmode="numeric"></label>
  <button type="submit" class="secondary">Filter</button>
</form>`;
}

/** The account's voice, folded away once set: it shapes every draft, but is rarely changed. */
function voiceForm(view: InboxPage): Html {
  const summary = view.voice ? html`<span class="muted">“${snippet(view.voice, null)}”</span>` : html`<span class="muted">none set</span>`;
  return html`<details class="card inbox-voice" id="voice"${view.voiceError ? html` open` : null}>
  <summary>Voice for drafts: ${summary}</summary>
  <p class="muted">How your replies should sound, in your words. It is given to the model with every reply draft, the ones
  made here and the ones monitors make. Leave it empty for none.</p>
  ${errorBox(view.voiceError)}
  <form method="post" action="/dashboard/inbox/voice" class="inbox-form">
    ${csrfField(view.viewer.csrfToken)}<input type="hidden" name="return_to" value="${inboxPath(view.filter)}">
    <label>Voice for drafts <span class="muted">(up to 1,000 characters)</span>
      <textarea name="voice" rows="4" maxlength="1000" placeholder="Friendly and brief; I build subpilot, and say so when I mention it.">${view.voiceInput ?? view.voice ?? ''}</textarea></label>
    <button type="submit">Save voice</button>
  </form>
</details>`;
}

function emptyText(view: InboxPage): string {
  const { filter } = view;
  if (filter.cursor) return 'No older matches.';
  if (filter.status || filter.monitor || filter.min !== undefined) return 'No matches here: try another tab or filter.';
  return 'No matches yet. When one of your monitors finds a post or comment, it appears here.';
}

/**
 * The Inbox: every delivered match of the account's monitors, newest first, by status, monitor and
 * relevance, 25 a page; each with its draft and what can be done with it (dashboard.inbox-routes.ts).
 */
export function inboxPage(view: InboxPage): Html {
  const { items, filter, problem } = view;
  const ctx: EntryContext = { viewer: view.viewer, returnTo: inboxPath(filter) };
  const list = items.data.length
    ? html`<ol class="inbox">${items.data.map((item) => inboxEntry(item, ctx, problem))}</ol>`
    : html`<p class="muted">${emptyText(view)}</p>`;
  const pinned = view.pinned
    ? html`<section class="inbox-pinned" aria-label="The match you just acted on">
  <p class="muted">No longer in this list:</p>
  <ol class="inbox">${inboxEntry(view.pinned, ctx, problem)}</ol>
</section>`
    : null;
  return page({
    title: 'Inbox',
    viewer: view.viewer,
    section: 'inbox',
    body: html`${noticeBox(view.notice)}
${problem ? html`<p class="alert alert-error" role="alert">${problem.message} <a href="#${problem.matchId}">Go to the match</a></p>` : null}
<p class="muted">What your <a href="/dashboard/monitors">monitors</a> found, newest first. Draft a reply (charged like any draft),
edit it, then approve it: a confirm step shows what will be posted, where and as whom before anything goes to Reddit.</p>
${voiceForm(view)}
${pinned}
${tabs(filter)}
${filters(view)}
${list}
${cursorPager(inboxPath({ ...filter, cursor: undefined }), !filter.cursor, items.next_cursor, 'Older matches →')}`,
  });
}
