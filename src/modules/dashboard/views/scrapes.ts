import type { ScrapeUsecases } from '../../scrape/scrape.usecases.ts';
import { html, safeHref, type Html } from '../html.ts';
import { page, when, type Viewer } from './layout.ts';

type ScrapeList = Awaited<ReturnType<ScrapeUsecases['list']>>;
type Scrape = Awaited<ReturnType<ScrapeUsecases['get']>>;
interface Result {
  subreddit: string;
  title: string;
  author: string;
  permalink: string;
  created_at: string;
  score: number;
  num_comments: number;
  matched_keywords: string[];
  truncated?: boolean;
}

const status = (value: string) => html`<span class="badge badge-${value}">${value}</span>`;

/**
 * Text from Reddit or a caller, isolated so a bidirectional control in it (U+202E, say) cannot reorder
 * the page around it; the text itself is kept as Reddit sent it.
 */
const isolated = (text: string) => html`<bdi>${text}</bdi>`;
const isolatedList = (texts: string[]) => texts.map((text, i) => html`${i > 0 ? ', ' : ''}${isolated(text)}`);

export function scrapesPage(view: { viewer: Viewer; scrapes: ScrapeList; firstPage: boolean }): Html {
  const { scrapes } = view;
  const table = scrapes.data.length
    ? html`<table>
  <thead><tr><th>Started</th><th>Status</th><th>Subreddits</th><th>Keywords</th><th class="num">Charged</th><th></th></tr></thead>
  <tbody>
  ${scrapes.data.map(
    (s) => html`<tr>
    <td>${when(s.created_at)}</td><td>${status(s.status)}</td>
    <td>${isolatedList(s.subreddits)}</td><td>${isolatedList(s.keywords)}</td>
    <td class="num">${s.credits.charged}</td><td><a href="/dashboard/scrapes/${s.id}">Results</a></td>
  </tr>`,
  )}
  </tbody>
</table>`
    : html`<p class="muted">No scrapes yet. Call <code>POST /api/v1/scrape</code> with one of your API keys.</p>`;
  return page({
    title: 'Scrapes',
    viewer: view.viewer,
    section: 'scrapes',
    body: html`${table}
<nav class="pager" aria-label="Pages">
  ${view.firstPage ? null : html`<a href="/dashboard/scrapes">Newest</a>`}
  ${scrapes.next_cursor ? html`<a href="/dashboard/scrapes?cursor=${scrapes.next_cursor}">Older scrapes →</a>` : null}
</nav>`,
  });
}

function resultItem(result: Result): Html {
  const href = safeHref(result.permalink);
  const title = href
    ? html`<a href="${href}" target="_blank" rel="noopener noreferrer">${isolated(result.title)}</a>`
    : isolated(result.title);
  return html`<li class="result">
  <p class="result-title">${title}${result.truncated ? html` <span class="muted">(cut to Reddit's length limit)</span>` : null}</p>
  <p class="muted">${isolated(result.subreddit)} · u/${isolated(result.author)} · ${when(result.created_at)} · ${result.score} points ·
    ${result.num_comments} comments · matched: ${isolatedList(result.matched_keywords)}</p>
</li>`;
}

const skippedNote = (n: number) =>
  n === 1 ? '1 post Reddit sent could not be read and was left out.' : `${n} posts Reddit sent could not be read and were left out.`;

export function scrapePage(viewer: Viewer, scrape: Scrape): Html {
  const results = scrape.results as Result[];
  return page({
    title: 'Scrape results',
    viewer,
    section: 'scrapes',
    body: html`<dl class="facts">
  <dt>Scrape</dt><dd><code>${scrape.id}</code> ${status(scrape.status)}</dd>
  <dt>Subreddits</dt><dd>${isolatedList(scrape.subreddits)}</dd>
  <dt>Keywords</dt><dd>${isolatedList(scrape.keywords)}</dd>
  <dt>Sort and time</dt><dd>${scrape.sort}, ${scrape.time}, up to ${scrape.limit} results</dd>
  <dt>Charged</dt><dd>${scrape.credits.charged} credits</dd>
  <dt>Started</dt><dd>${when(scrape.created_at)}</dd>
</dl>
${scrape.error ? html`<p class="alert alert-error">${scrape.error}</p>` : null}
${(scrape.unavailable as { subreddit: string; reason: string }[]).map(
  (u) => html`<p class="alert">${u.subreddit} was unavailable (${u.reason}); its share was refunded.</p>`,
)}
${scrape.skipped > 0 ? html`<p class="alert">${skippedNote(scrape.skipped)}</p>` : null}
<h2>${results.length} ${results.length === 1 ? 'post' : 'posts'}</h2>
${results.length ? html`<ol class="results">${results.map(resultItem)}</ol>` : html`<p class="muted">No matching posts.</p>`}
<p><a href="/dashboard/scrapes">← All scrapes</a></p>`,
  });
}
