import { plural } from '../../../shared/text.ts';
import type { PublishUsecases } from '../../publish/publish.usecases.ts';
import { html, safeHref, type Html } from './html.ts';
import { badge, cursorPager, demoLabel, page, when, type Viewer } from './layout.ts';
import { snippet, textBlock } from './written.ts';

type PublicationList = Awaited<ReturnType<PublishUsecases['list']>>;
type Publication = Awaited<ReturnType<PublishUsecases['show']>>;

const where = (p: { type: 'comment' | 'post'; target: string }) =>
  p.type === 'post' ? html`Post to <bdi>${p.target}</bdi>` : html`Comment on <code>${p.target}</code>`;

/** Reddit's address for it, when Reddit took it; only an http(s) link becomes one. The demo's answer is marked simulated, and no link. */
function onReddit(p: Publication): Html {
  if (p.source === 'demo') return html`${demoLabel(p, 'simulated')}<span class="muted">${p.reddit?.id ?? '—'}</span>`;
  const href = p.reddit ? safeHref(p.reddit.permalink) : null;
  if (!p.reddit) return html`<span class="muted">—</span>`;
  return href ? html`<a href="${href}" target="_blank" rel="noopener noreferrer">${p.reddit.id}</a>` : html`${p.reddit.id}`;
}

export function publicationsPage(view: { viewer: Viewer; publications: PublicationList; firstPage: boolean }): Html {
  const { publications } = view;
  const table = publications.data.length
    ? // On a phone each publication is a card (the cells' data-label name their values), its text across the card's width.
      html`<div class="table-scroll table-cards"><table>
  <thead><tr><th>Created</th><th>Text</th><th>Status</th><th>Where</th><th>On Reddit</th><th class="num">Charged</th></tr></thead>
  <tbody>
  ${publications.data.map(
    (p) => html`<tr>
    <td data-label="Created">${when(p.created_at)}</td>
    <td class="card-text" data-label="Text"><a href="/dashboard/publications/${p.id}">${snippet(p.title ?? p.body, null)}</a></td>
    <td data-label="Status">${badge(p.status)}</td><td data-label="Where">${where(p)}</td><td data-label="On Reddit">${onReddit(p)}</td>
    <td class="num" data-label="Charged">${p.credits.charged}</td>
  </tr>`,
  )}
  </tbody>
</table></div>`
    : html`<p class="muted">No publications yet. Call <code>POST /api/v1/publish</code> with one of your API keys.</p>`;
  return page({
    title: 'Publications',
    viewer: view.viewer,
    section: 'publications',
    body: html`${table}${cursorPager('/dashboard/publications', view.firstPage, publications.next_cursor, 'Older publications →')}`,
  });
}

export function publicationPage(viewer: Viewer, p: Publication): Html {
  return page({
    title: 'Publication',
    viewer,
    section: 'publications',
    body: html`<dl class="facts">
  <dt>Publication</dt><dd><code>${p.id}</code> ${badge(p.status)}</dd>
  <dt>Where</dt><dd>${where(p)}${p.author ? html` as u/<bdi>${p.author}</bdi>` : null}</dd>
  <dt>On Reddit</dt><dd>${onReddit(p)}</dd>
  <dt>From draft</dt><dd>${p.generation_id ? html`<a href="/dashboard/drafts/${p.generation_id}">${p.generation_id}</a>` : html`<span class="muted">— (text sent with the request)</span>`}</dd>
  <dt>Charged</dt><dd>${plural(p.credits.charged, 'credit')}</dd>
  <dt>Created</dt><dd>${when(p.created_at)}</dd>
  <dt>Settled</dt><dd>${when(p.completed_at, 'not yet')}</dd>
</dl>
${p.error ? html`<p class="alert${p.status === 'failed' ? ' alert-error' : ''}">${p.error}</p>` : null}
${p.title !== null ? html`<h2><bdi>${p.title}</bdi></h2>` : null}
${textBlock(p.body)}
<p><a href="/dashboard/publications">← All publications</a></p>`,
  });
}
