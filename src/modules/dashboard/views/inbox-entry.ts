import type { InboxItem } from '../../monitors/inbox/inbox.usecases.ts';
import { html, safeHref, type Html } from './html.ts';
import { badge, csrfField, demoLabel, when, type Viewer } from './layout.ts';
import { excerpt, verdict } from './monitor-matches.ts';
import { isolated } from './monitor-parts.ts';
import { textBlock } from './written.ts';

/** What every form of an entry needs: the session's token and the inbox address to come back to. */
export interface EntryContext {
  viewer: Viewer;
  returnTo: string;
}

/** A refused action on one entry, with what was typed, shown in that entry. */
export interface EntryProblem {
  matchId: string;
  message: string;
  instructions?: string;
  body?: string;
}

type Draft = NonNullable<InboxItem['draft']>;

/** A Reddit user as Reddit writes one, never split after "u/" (names are at most 20 characters). */
export const redditor = (name: string) => html`<span class="redditor">u/${isolated(name)}</span>`;

const external = (href: string, text: Html | string) => html`<a href="${href}" target="_blank" rel="noopener noreferrer">${text}</a>`;

/** A comment is named by who wrote it and under which post, since its own text has no title. */
function heading(item: InboxItem): Html {
  const href = safeHref(item.permalink);
  const text = item.type === 'comment' ? html`Comment by ${redditor(item.author)} on “${isolated(item.title)}”` : isolated(item.title);
  return html`<h2 class="inbox-title" id="${item.id}-title">${demoLabel(item)}${badge(item.type)} ${href ? external(href, text) : text}</h2>`;
}

/** The first 300 characters, as on the monitor's page; a longer text opens in full below, no script. */
function text(item: InboxItem): Html | null {
  const short = excerpt(item.body);
  if (!short) return null;
  const cut = short.length < item.body.replace(/\s+/g, ' ').trim().length;
  return html`<p class="mon-body"><bdi>${short}</bdi></p>${cut ? html`<details class="inbox-more"><summary>All of the text</summary>${textBlock(item.body)}</details>` : null}`;
}

const STATUS_WORDS = { new: 'not answered yet', drafted: 'a draft is ready', published: 'answered on Reddit', dismissed: 'dismissed: no reply planned' };

function statusLine(item: InboxItem): Html {
  const since = item.status_at ? html` <span class="muted">since ${when(item.status_at)}</span>` : null;
  // A demo item's answer went to the demo, which reached no one (shared/demo.ts).
  const words = item.status === 'published' && item.source === 'demo' ? 'answered, simulated: not on Reddit' : STATUS_WORDS[item.status];
  return html`<p class="inbox-state">${badge(item.status)} ${words}${since}</p>`;
}

/** The hidden fields of every form: the CSRF token, and where to come back to. */
const hidden = (ctx: EntryContext) => html`${csrfField(ctx.viewer.csrfToken)}<input type="hidden" name="return_to" value="${ctx.returnTo}">`;

function draftForm(item: InboxItem, ctx: EntryContext, problem: EntryProblem | undefined, submit: string): Html {
  return html`<form method="post" action="/dashboard/inbox/${item.id}/draft" class="inbox-form">
  ${hidden(ctx)}
  <label>Instructions for this draft <span class="muted">(optional: what the reply should say; your voice applies too)</span>
    <textarea name="instructions" rows="2" maxlength="2000">${problem?.instructions ?? ''}</textarea></label>
  <button type="submit" aria-describedby="${item.id}-title">${submit}</button>
</form>`;
}

/** The draft, edited in place: Save keeps the text; Approve and publish saves it too, then opens the confirm step. */
function replyForm(item: InboxItem, draft: Draft, ctx: EntryContext, problem: EntryProblem | undefined): Html {
  const state = draft.edited_at ? html`edited ${when(draft.edited_at)}` : 'as drafted';
  return html`<form method="post" action="/dashboard/inbox/${item.id}/reply" class="inbox-form">
  ${hidden(ctx)}
  <label>Your reply <span class="muted">(${state}; edit it here before you publish)</span>
    <textarea name="body" rows="8" required maxlength="40000">${problem?.body ?? draft.body ?? ''}</textarea></label>
  <div class="actions wrap">
    <button type="submit" name="then" value="publish" aria-describedby="${item.id}-title">Approve and publish…</button>
    <button type="submit" name="then" value="save" class="secondary" aria-describedby="${item.id}-title">Save</button>
  </div>
</form>`;
}

function published(item: InboxItem): Html {
  const { publication, draft } = item;
  const href = publication?.permalink && item.source === 'reddit' ? safeHref(publication.permalink) : null;
  const as = publication?.author ? html` as ${redditor(publication.author)}` : null;
  const where = item.source === 'demo' ? demoLabel(item, 'simulated') : href ? external(href, 'the reply on Reddit') : html`<span class="muted">no link yet</span>`;
  return html`<p class="inbox-published">Published${as}: ${where}${publication
    ? html` · <a href="/dashboard/publications/${publication.id}">its publication</a>`
    : null}</p>
${draft?.body ? textBlock(draft.body) : null}`;
}

/** What can be done next: draft, edit and approve, or nothing but look (published) or restore (dismissed). */
function answer(item: InboxItem, ctx: EntryContext, problem: EntryProblem | undefined): Html | null {
  const { draft } = item;
  if (item.status === 'published') return published(item);
  if (item.status === 'dismissed') return null;
  if (!draft) return draftForm(item, ctx, problem, 'Draft reply');
  if (draft.status === 'running') return html`<p class="muted">A draft is being written; reload the page in a few seconds to see it.</p>`;
  if (draft.status === 'failed') {
    return html`<p class="alert alert-error">The draft failed: ${draft.error ?? 'no reason given'}. Its charge was refunded.</p>
${draftForm(item, ctx, problem, 'Draft reply again')}`;
  }
  return html`${replyForm(item, draft, ctx, problem)}
<details class="inbox-again"${problem?.instructions !== undefined ? html` open` : null}><summary>Draft a new reply instead (charged again)</summary>
${draftForm(item, ctx, problem, 'Draft a new reply')}</details>`;
}

function statusForm(item: InboxItem, ctx: EntryContext): Html | null {
  if (item.status === 'published') return null;
  const restore = item.status === 'dismissed';
  return html`<form method="post" action="/dashboard/inbox/${item.id}/status" class="inbox-dismiss">
  ${hidden(ctx)}<input type="hidden" name="status" value="${restore ? 'new' : 'dismissed'}">
  <button type="submit" class="secondary" aria-describedby="${item.id}-title">${restore ? 'Restore' : 'Dismiss'}</button>
</form>`;
}

/**
 * One match in the inbox: what was found and where (the comment's author and post), the judge's verdict
 * as on the monitor's page, where it stands, and what can be done with it. Its id is the entry's anchor,
 * which every form comes back to.
 */
export function inboxEntry(item: InboxItem, ctx: EntryContext, problem?: EntryProblem): Html {
  const mine = problem?.matchId === item.id ? problem : undefined;
  return html`<li class="inbox-entry" id="${item.id}">
  ${heading(item)}
  ${verdict(item)}
  ${text(item)}
  <p class="muted inbox-meta">${isolated(item.subreddit)} · ${redditor(item.author)} · ${when(item.created_at)} · <a href="/dashboard/monitors/${item.monitor_id}">${isolated(item.monitor_name)}</a></p>
  ${statusLine(item)}
  ${mine ? html`<p class="alert alert-error">${mine.message}</p>` : null}
  ${answer(item, ctx, mine)}
  ${statusForm(item, ctx)}
</li>`;
}
