import { filterText, withoutDirectionControls, type ScrapeUsecases } from '../../scrape/scrape.usecases.ts';
import { html, safeHref, type Html } from '../html.ts';
import { badge, cursorPager, page, when, type Viewer } from './layout.ts';

type ScrapeList = Awaited<ReturnType<ScrapeUsecases['list']>>;
type Scrape = Awaited<ReturnType<ScrapeUsecases['resultsPage']>>['scrape'];
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

const finished = (value: string) => value === 'completed' || value === 'failed';

/**
 * Text from Reddit or a caller, isolated so a bidirectional control in it (U+202E, say) cannot reorder
 * the page around it; the text itself is kept as Reddit sent it.
 */
const isolated = (text: string) => html`<bdi>${text}</bdi>`;
const isolatedList = (texts: string[]) => texts.map((text, i) => html`${i > 0 ? ', ' : ''}${isolated(text)}`);

export function scrapesPage(view: { viewer: Viewer; scrapes: ScrapeList; firstPage: boolean }): Html {
  const { scrapes } = view;
  const table = scrapes.data.length
    ? html`<div class="table-scroll"><table>
  <thead><tr><th>Started</th><th>Status</th><th>Subreddits</th><th>Keywords</th><th class="num">Results</th><th class="num">Charged</th><th></th></tr></thead>
  <tbody>
  ${scrapes.data.map(
    (s) => html`<tr>
    <td>${when(s.created_at)}</td><td>${badge(s.status)}</td>
    <td>${isolatedList(s.subreddits)}</td><td>${isolatedList(s.keywords)}</td>
    <td class="num">${finished(s.status) ? s.result_count : html`<span class="muted">—</span>`}</td>
    <td class="num">${s.credits.charged}</td><td><a href="/dashboard/scrapes/${s.id}">View results</a></td>
  </tr>`,
  )}
  </tbody>
</table></div>`
    : html`<p class="muted">No scrapes yet. Call <code>POST /api/v1/scrape</code> with one of your API keys.</p>`;
  return page({
    title: 'Scrapes',
    viewer: view.viewer,
    section: 'scrapes',
    body: html`${table}
${cursorPager('/dashboard/scrapes', view.firstPage, scrapes.next_cursor, 'Older scrapes →')}`,
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

/** The results a filter leaves, one page of them, and the filter itself (for the form and the page links). */
export interface ScrapePage {
  viewer: Viewer;
  scrape: Scrape;
  results: Result[];
  matching: number;
  /** How many matching results come before this page. */
  offset: number;
  page: number;
  pages: number;
  filters: { keyword?: string; subreddit?: string };
}

/** How often a queued or running scrape's page reloads itself until the scrape has finished. */
const REFRESH_SECONDS = 2;

function pageHref(view: ScrapePage, page: number): string {
  const query = new URLSearchParams();
  if (view.filters.keyword) query.set('keyword', view.filters.keyword);
  if (view.filters.subreddit) query.set('subreddit', view.filters.subreddit);
  if (page > 1) query.set('page', String(page));
  const text = query.toString();
  return `/dashboard/scrapes/${view.scrape.id}${text ? `?${text}` : ''}`;
}

/** Case kept for reading; direction controls dropped, since an option cannot hold a <bdi> (see filterText). */
function option(text: string, chosen: string | undefined): Html {
  const shown = withoutDirectionControls(text);
  const selected = chosen !== undefined && filterText(chosen) === filterText(text);
  return html`<option value="${shown}"${selected ? html` selected` : null}>${shown}</option>`;
}

/** A GET form, so a filtered page is a link like any other; "any" is the empty value. */
function filterForm(view: ScrapePage): Html {
  const { scrape, filters } = view;
  return html`<form method="get" action="/dashboard/scrapes/${scrape.id}" class="inline filters" aria-label="Filter results">
  <label>Keyword <select name="keyword"><option value="">any</option>${scrape.keywords.map((k) => option(k, filters.keyword))}</select></label>
  <label>Subreddit <select name="subreddit"><option value="">any</option>${scrape.subreddits.map((r) => option(r, filters.subreddit))}</select></label>
  <button type="submit">Filter</button>
  ${filters.keyword || filters.subreddit ? html`<a href="${pageHref({ ...view, filters: {} }, 1)}">Clear</a>` : null}
</form>`;
}

function pager(view: ScrapePage): Html | null {
  if (view.pages <= 1) return null;
  return html`<nav class="pager" aria-label="Result pages">
  ${view.page > 1 ? html`<a href="${pageHref(view, view.page - 1)}" rel="prev">← Previous</a>` : null}
  <span>Page ${view.page} of ${view.pages}</span>
  ${view.page < view.pages ? html`<a href="${pageHref(view, view.page + 1)}" rel="next">Next →</a>` : null}
</nav>`;
}

function resultsSection(view: ScrapePage): Html {
  const total = (view.scrape.results as Result[]).length;
  if (!finished(view.scrape.status)) {
    return html`<p class="muted" role="status">This scrape is ${view.scrape.status}; this page reloads itself until it has finished.</p>`;
  }
  const filtered = view.filters.keyword || view.filters.subreddit;
  const heading = filtered ? `${view.matching} of ${total} posts` : `${total} ${total === 1 ? 'post' : 'posts'}`;
  return html`<h2>${heading}</h2>
${total > 0 ? filterForm(view) : null}
${
  view.results.length
    ? html`<ol class="results" start="${view.offset + 1}">${view.results.map(resultItem)}</ol>`
    : html`<p class="muted">No matching posts.</p>`
}
${pager(view)}`;
}

export function scrapePage(view: ScrapePage): Html {
  const { scrape } = view;
  return page({
    title: 'Scrape results',
    viewer: view.viewer,
    section: 'scrapes',
    // A meta refresh rather than script: it works without JavaScript, the CSP allows it, and it stops by
    // itself because a finished scrape's page is rendered without it.
    refreshSeconds: finished(scrape.status) ? undefined : REFRESH_SECONDS,
    body: html`<dl class="facts">
  <dt>Scrape</dt><dd><code>${scrape.id}</code> ${badge(scrape.status)}</dd>
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
${resultsSection(view)}
<p><a href="/dashboard/scrapes">← All scrapes</a></p>`,
  });
}
