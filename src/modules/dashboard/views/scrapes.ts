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
}

const status = (value: string) => html`<span class="badge badge-${value}">${value}</span>`;

export function scrapesPage(view: { viewer: Viewer; scrapes: ScrapeList; firstPage: boolean }): Html {
  const { scrapes } = view;
  const table = scrapes.data.length
    ? html`<table>
  <thead><tr><th>Started</th><th>Status</th><th>Subreddits</th><th>Keywords</th><th class="num">Charged</th><th></th></tr></thead>
  <tbody>
  ${scrapes.data.map(
    (s) => html`<tr>
    <td>${when(s.created_at)}</td><td>${status(s.status)}</td>
    <td>${s.subreddits.join(', ')}</td><td>${s.keywords.join(', ')}</td>
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
  const title = href ? html`<a href="${href}" target="_blank" rel="noopener noreferrer">${result.title}</a>` : result.title;
  return html`<li class="result">
  <p class="result-title">${title}</p>
  <p class="muted">${result.subreddit} · u/${result.author} · ${when(result.created_at)} · ${result.score} points ·
    ${result.num_comments} comments · matched: ${result.matched_keywords.join(', ')}</p>
</li>`;
}

export function scrapePage(viewer: Viewer, scrape: Scrape): Html {
  const results = scrape.results as Result[];
  return page({
    title: 'Scrape results',
    viewer,
    section: 'scrapes',
    body: html`<dl class="facts">
  <dt>Scrape</dt><dd><code>${scrape.id}</code> ${status(scrape.status)}</dd>
  <dt>Subreddits</dt><dd>${scrape.subreddits.join(', ')}</dd>
  <dt>Keywords</dt><dd>${scrape.keywords.join(', ')}</dd>
  <dt>Sort and time</dt><dd>${scrape.sort}, ${scrape.time}, up to ${scrape.limit} results</dd>
  <dt>Charged</dt><dd>${scrape.credits.charged} credits</dd>
  <dt>Started</dt><dd>${when(scrape.created_at)}</dd>
</dl>
${scrape.error ? html`<p class="alert alert-error">${scrape.error}</p>` : null}
${(scrape.unavailable as { subreddit: string; reason: string }[]).map(
  (u) => html`<p class="alert">${u.subreddit} was unavailable (${u.reason}); its share was refunded.</p>`,
)}
<h2>${results.length} ${results.length === 1 ? 'post' : 'posts'}</h2>
${results.length ? html`<ol class="results">${results.map(resultItem)}</ol>` : html`<p class="muted">No matching posts.</p>`}
<p><a href="/dashboard/scrapes">← All scrapes</a></p>`,
  });
}
