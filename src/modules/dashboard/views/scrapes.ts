import { filterText, withoutDirectionControls, type ScrapeUsecases } from '../../scrape/scrape.usecases.ts';
import { capText, plural, postsAndComments } from '../../../shared/text.ts';
import { html, safeHref, type Html } from './html.ts';
import { badge, cursorPager, demoLabel, page, when, type Viewer } from './layout.ts';

type ScrapeList = Awaited<ReturnType<ScrapeUsecases['list']>>;
type Scrape = Awaited<ReturnType<ScrapeUsecases['resultsPage']>>['scrape'];
interface Result {
  type: 'post' | 'comment';
  id: string;
  subreddit: string;
  /** A comment's is the title of the post it is under. */
  title: string;
  /** A post's text, a comment's text. */
  body: string;
  author: string;
  permalink: string;
  created_at: string;
  score: number;
  num_comments: number;
  matched_keywords: string[];
  truncated?: boolean;
  source: 'reddit' | 'demo';
}

const finished = (value: string) => value === 'completed' || value === 'failed';

/**
 * Text from Reddit or a caller, isolated so a bidirectional control in it (U+202E, say) cannot reorder
 * the page around it; the text itself is kept as Reddit sent it.
 */
const isolated = (text: string) => html`<bdi>${text}</bdi>`;
const isolatedList = (texts: string[]) => texts.map((text, i) => html`${i > 0 ? ', ' : ''}${isolated(text)}`);

/** `form`: the New scrape section (views/scrape-form.ts), above the list. */
export function scrapesPage(view: { viewer: Viewer; scrapes: ScrapeList; firstPage: boolean; form: Html }): Html {
  const { scrapes } = view;
  const table = scrapes.data.length
    ? // On a phone each scrape is a card (the cells' data-label name their values): seven columns do not fit 390 px.
      html`<div class="table-scroll table-cards"><table>
  <thead><tr><th>Started</th><th>Status</th><th>Subreddits</th><th>Keywords</th><th class="num">Results</th><th class="num">Charged</th><th>Actions</th></tr></thead>
  <tbody>
  ${scrapes.data.map(
    (s) => html`<tr>
    <td data-label="Started">${when(s.created_at)}</td><td data-label="Status">${badge(s.status)}</td>
    <td data-label="Subreddits">${isolatedList(s.subreddits)}</td><td data-label="Keywords">${isolatedList(s.keywords)}</td>
    <td class="num" data-label="Results">${finished(s.status) ? s.result_count : html`<span class="muted">—</span>`}</td>
    <td class="num" data-label="Charged">${s.credits.charged}</td><td data-label="Actions"><a href="/dashboard/scrapes/${s.id}">View results</a></td>
  </tr>`,
  )}
  </tbody>
</table></div>`
    : html`<p class="muted">No scrapes yet: start one above, or call <code>POST /api/v1/scrape</code> with one of your API keys.</p>`;
  return page({
    title: 'Scrapes',
    viewer: view.viewer,
    section: 'scrapes',
    body: html`${view.form}
<h2>Recent scrapes</h2>
${table}
${cursorPager('/dashboard/scrapes', view.firstPage, scrapes.next_cursor, 'Older scrapes →')}`,
  });
}

/** The author kept on one line: "u/" alone at a line's end reads as a name of its own. */
const by = (author: string) => html`<span class="result-by">u/${isolated(author)}</span>`;
const points = (score: number) => (score === 1 || score === -1 ? `${score} point` : `${score} points`);

const link = (href: string, text: Html) => html`<a href="${href}" target="_blank" rel="noopener noreferrer">${text}</a>`;

/** `marked`: the list mixes posts and comments, so a post says it is one too. */
function postItem(result: Result, marked: boolean): Html {
  const href = safeHref(result.permalink);
  const title = href ? link(href, isolated(result.title)) : isolated(result.title);
  return html`<li class="result">
  <p class="result-title">${demoLabel(result)}${marked ? html`${badge('post')} ` : null}${title}${result.truncated ? html` <span class="muted">(cut to Reddit's length limit)</span>` : null}</p>
  <p class="muted">${isolated(result.subreddit)} · ${by(result.author)} · ${when(result.created_at)} · ${points(result.score)} ·
    ${result.num_comments} comments · matched: ${isolatedList(result.matched_keywords)}</p>
</li>`;
}

/** A comment's text is shown up to this many characters; its link leads to all of it. */
const EXCERPT = 300;
const excerpt = (text: string) => {
  const line = text.replace(/\s+/g, ' ').trim();
  const { text: kept, cut } = capText(line, EXCERPT - 1);
  return cut ? `${kept}…` : line;
};

/**
 * The page of the post a comment is under: the comment's permalink without its own id, so the post's
 * slug (and its letters) stay as Reddit sent them. Both forms Reddit and we use end in the id:
 * `…/comments/<post>/<slug>/<id>/` and `…/comments/<post>/comment/<id>/`.
 */
function postPageOf(comment: Result): string | null {
  const id36 = comment.id.replace(/^t1_/, '');
  const match = /^(https:\/\/www\.reddit\.com\/r\/[^/]+\/comments\/[^/]+\/(?:[^/]+\/)?)(?:comment\/)?([^/]+)\/?$/.exec(comment.permalink);
  if (!match || match[2] !== id36) return null;
  return match[1]!.endsWith('/comment/') ? match[1]!.slice(0, -'comment/'.length) : match[1]!;
}

/** A comment: its own text first (it is what matched), then the post it is under, and a link to the comment itself. */
function commentItem(result: Result): Html {
  const href = safeHref(result.permalink);
  const post = postPageOf(result);
  const text = excerpt(result.body);
  return html`<li class="result result-comment">
  <p class="result-text">${demoLabel(result)}${badge('comment')} ${text ? isolated(text) : html`<span class="muted">(no text)</span>`}</p>
  <p class="muted">on ${post ? link(post, isolated(result.title)) : html`“${isolated(result.title)}”`} · ${isolated(result.subreddit)} ·
    ${by(result.author)} · ${when(result.created_at)} · ${points(result.score)} · matched: ${isolatedList(result.matched_keywords)}${
      href ? html` · ${link(href, html`View comment`)}` : null
    }</p>
</li>`;
}

const resultItem = (marked: boolean) => (result: Result) => (result.type === 'comment' ? commentItem(result) : postItem(result, marked));

const skippedNote = (n: number, readComments: boolean) => {
  const what = readComments ? (n === 1 ? 'post or comment' : 'posts or comments') : n === 1 ? 'post' : 'posts';
  return n === 1 ? `1 ${what} Reddit sent could not be read and was left out.` : `${n} ${what} Reddit sent could not be read and were left out.`;
};

/** The results a filter leaves, one page of them, and the filter itself (for the form and the page links). */
export interface ScrapePage {
  viewer: Viewer;
  scrape: Scrape;
  results: Result[];
  matching: number;
  /** How many of the matching results are comments. */
  matchingComments: number;
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

/**
 * "30 of 60 posts" when the scrape holds one kind; "2 of 4 results: 1 post and 1 comment" when it
 * holds both, so the two counts never have to be read against each other kind by kind.
 */
function filteredHeading(view: ScrapePage, total: number, comments: number): string {
  const sources = view.scrape.sources as string[];
  const oneKind = (comments === 0 && !sources.includes('comments')) || (comments === total && !sources.includes('posts'));
  if (oneKind) return `${view.matching} of ${postsAndComments({ posts: total - comments, comments }, sources)}`;
  const matching = postsAndComments({ posts: view.matching - view.matchingComments, comments: view.matchingComments }, sources);
  return `${view.matching} of ${total} results: ${matching}`;
}

function resultsSection(view: ScrapePage): Html {
  const all = view.scrape.results as Result[];
  const sources = view.scrape.sources as string[];
  if (!finished(view.scrape.status)) {
    return html`<p class="muted" role="status">This scrape is ${view.scrape.status}; this page reloads itself until it has finished.</p>`;
  }
  const comments = all.filter((r) => r.type === 'comment').length;
  const total = postsAndComments({ posts: all.length - comments, comments }, sources);
  const mixed = sources.includes('comments');
  return html`<h2>${view.filters.keyword || view.filters.subreddit ? filteredHeading(view, all.length, comments) : total}</h2>
${all.length > 0 ? filterForm(view) : null}
${
  view.results.length
    ? html`<ol class="results" start="${view.offset + 1}">${view.results.map(resultItem(mixed))}</ol>`
    : html`<p class="muted">${mixed ? 'No matching posts or comments.' : 'No matching posts.'}</p>`
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
  <dt>Charged</dt><dd>${plural(scrape.credits.charged, 'credit')}</dd>
  <dt>Started</dt><dd>${when(scrape.created_at)}</dd>
</dl>
${scrape.error ? html`<p class="alert alert-error">${scrape.error}</p>` : null}
${(scrape.unavailable as { subreddit: string; reason: string }[]).map(
  (u) => html`<p class="alert">${u.subreddit} was unavailable (${u.reason}); its share was refunded.</p>`,
)}
${scrape.skipped > 0 ? html`<p class="alert">${skippedNote(scrape.skipped, scrape.sources.includes('comments'))}</p>` : null}
${resultsSection(view)}
<p><a href="/dashboard/scrapes">← All scrapes</a></p>`,
  });
}
