import { plural } from '../../../shared/text.ts';
import type { GenerateUsecases } from '../../generate/generate.usecases.ts';
import { html, type Html } from './html.ts';
import { badge, cursorPager, page, when, type Viewer } from './layout.ts';
import { snippet, textBlock } from './written.ts';

type DraftList = Awaited<ReturnType<GenerateUsecases['list']>>;
type Draft = Awaited<ReturnType<GenerateUsecases['show']>>;

const kindOf = (draft: { type: 'reply' | 'post'; subreddit: string }) =>
  draft.type === 'reply' ? html`Reply in <bdi>${draft.subreddit}</bdi>` : html`Post for <bdi>${draft.subreddit}</bdi>`;

export function draftsPage(view: { viewer: Viewer; drafts: DraftList; firstPage: boolean }): Html {
  const { drafts } = view;
  const table = drafts.data.length
    ? // On a phone each draft is a card (the cells' data-label name their values), its text across the card's width.
      html`<div class="table-scroll table-cards"><table>
  <thead><tr><th>Created</th><th>Draft</th><th>Status</th><th>Kind</th><th class="num">Charged</th></tr></thead>
  <tbody>
  ${drafts.data.map(
    (d) => html`<tr>
    <td data-label="Created">${when(d.created_at)}</td>
    <td class="card-text" data-label="Draft"><a href="/dashboard/drafts/${d.id}">${snippet(d.title ?? d.body, d.error)}</a></td>
    <td data-label="Status">${badge(d.status)}</td><td data-label="Kind">${kindOf(d)}</td><td class="num" data-label="Charged">${d.credits.charged}</td>
  </tr>`,
  )}
  </tbody>
</table></div>`
    : html`<p class="muted">No drafts yet. Call <code>POST /api/v1/generate</code> with one of your API keys.</p>`;
  return page({
    title: 'Drafts',
    viewer: view.viewer,
    section: 'drafts',
    body: html`${table}${cursorPager('/dashboard/drafts', view.firstPage, drafts.next_cursor, 'Older drafts →')}`,
  });
}

const redditPost = (postId: string) => html`<a href="https://www.reddit.com/comments/${postId.slice(3)}" target="_blank" rel="noopener noreferrer"><code>${postId}</code></a>`;

export function draftPage(viewer: Viewer, draft: Draft): Html {
  const usage = draft.usage as { total_tokens: number } | null;
  return page({
    title: 'Draft',
    viewer,
    section: 'drafts',
    body: html`<dl class="facts">
  <dt>Draft</dt><dd><code>${draft.id}</code> ${badge(draft.status)}</dd>
  <dt>Kind</dt><dd>${kindOf(draft)}${draft.post_id ? html`, replying to ${redditPost(draft.post_id)}` : null}</dd>
  <dt>Instructions</dt><dd><bdi>${draft.instructions}</bdi>${draft.tone ? html` <span class="muted">(tone: <bdi>${draft.tone}</bdi>)</span>` : null}</dd>
  <dt>Model</dt><dd>${draft.model ?? html`<span class="muted">—</span>`}${usage ? html` <span class="muted">(${usage.total_tokens} tokens)</span>` : null}</dd>
  <dt>Charged</dt><dd>${plural(draft.credits.charged, 'credit')}</dd>
  <dt>Created</dt><dd>${when(draft.created_at)}</dd>
</dl>
${draft.error ? html`<p class="alert alert-error">${draft.error}</p>` : null}
${draft.title !== null ? html`<h2><bdi>${draft.title}</bdi></h2>` : null}
${draft.body !== null ? textBlock(draft.body) : html`<p class="muted">No text: the draft failed and its charge was refunded.</p>`}
${draft.status === 'completed'
  ? html`<p><a href="/dashboard/drafts/${draft.id}/publish">Review and publish…</a> <span class="muted">(a confirm step first; or call
  <code>POST /api/v1/publish</code> with <code>{"generation_id": "${draft.id}"}</code>)</span></p>`
  : null}
<p><a href="/dashboard/drafts">← All drafts</a></p>`,
  });
}
