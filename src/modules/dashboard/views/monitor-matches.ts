import type { MatchView, MonitorView } from '../../monitors/monitors.usecases.ts';
import type { Page } from '../../../shared/http/pagination.ts';
import { html, safeHref, type Html } from './html.ts';
import { badge, cursorPager, demoLabel, when } from './layout.ts';
import { isolated, isolatedList } from './monitor-parts.ts';

/** Which of a monitor's matches its page lists: the delivered ones, or those judged below its bar. */
export type MatchesView = 'delivered' | 'filtered';

export interface MatchesSection {
  monitor: MonitorView;
  matches: Page<MatchView>;
  view: MatchesView;
  firstPage: boolean;
}

/** A match's text is shown up to this many characters; the link leads to all of it. */
const EXCERPT = 300;
export const excerpt = (text: string) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > EXCERPT ? `${line.slice(0, EXCERPT - 1)}…` : line;
};

/**
 * The judge's word on a match: its score and reason, or why it went out unjudged; nothing for a match
 * of a monitor that judges nothing. The score is a badge with its meaning as its accessible name, since
 * "87" alone says nothing to a screen reader. The reason quotes the post: isolated like Reddit's text.
 * The Inbox shows it the same way.
 */
export function verdict(match: MatchView): Html | null {
  if (match.relevance !== null) {
    const label = `relevance ${match.relevance} of 100`;
    const model = match.judge_model ? `, judged by ${match.judge_model}` : '';
    return html`<p class="mon-verdict"><span class="mon-score${match.filtered ? ' mon-score-low' : ''}" role="img" aria-label="${label}" title="${label}${model}">${match.relevance}</span>
  <bdi>${match.relevance_reason ?? ''}</bdi></p>`;
  }
  if (match.judge_error) return html`<p class="mon-verdict mon-unjudged">not judged: <bdi>${match.judge_error.message}</bdi></p>`;
  return null;
}

function matchItem(match: MatchView): Html {
  const href = safeHref(match.permalink);
  const title = href
    ? html`<a href="${href}" target="_blank" rel="noopener noreferrer">${isolated(match.title)}</a>`
    : isolated(match.title);
  const body = excerpt(match.body);
  return html`<li class="mon-match">
  <p class="result-title">${demoLabel(match)}${badge(match.type)} ${title}</p>
  ${verdict(match)}
  ${body ? html`<p class="mon-body"><bdi>${body}</bdi></p>` : null}
  <p class="muted">${isolated(match.subreddit)} · u/${isolated(match.author)} · ${when(match.created_at)} · matched: ${isolatedList(match.matched_keywords)}</p>
</li>`;
}

/** The two lists as links (no script), each landing on the list; the current one marked as the page's. */
function tabs(monitor: MonitorView, view: MatchesView): Html {
  const base = `/dashboard/monitors/${monitor.id}`;
  const tab = (which: MatchesView, href: string, label: string) =>
    html`<a href="${href}#matches"${which === view ? html` aria-current="page"` : null}>${label}</a>`;
  return html`<nav class="mon-tabs" aria-label="Which matches">
  ${tab('delivered', base, 'Delivered')}
  ${tab('filtered', `${base}?view=filtered`, `Filtered (below ${monitor.min_relevance})`)}
</nav>`;
}

function emptyText(section: MatchesSection): string {
  if (section.view === 'filtered') return section.firstPage ? `No matches judged below ${section.monitor.min_relevance}.` : 'No older filtered matches.';
  return section.firstPage ? 'No matches yet. New posts and comments that match appear here within a minute or two.' : 'No older matches.';
}

/**
 * The monitor's matches, newest first, 25 a page. A monitor with an intent has two tabs: what was
 * delivered, and what was judged below its bar; the tabs stay for a monitor whose intent was removed
 * while its filtered list is open, so the way back is there.
 */
export function matchesSection(section: MatchesSection): Html {
  const { matches, monitor, view } = section;
  const filtered = view === 'filtered';
  const list = matches.data.length ? html`<ol class="mon-matches">${matches.data.map(matchItem)}</ol>` : html`<p class="muted">${emptyText(section)}</p>`;
  const base = `/dashboard/monitors/${monitor.id}${filtered ? '?view=filtered' : ''}`;
  return html`<section aria-labelledby="matches">
  <h2 id="matches">${filtered ? 'Filtered matches' : 'Matches'}, newest first</h2>
  ${monitor.intent !== null || filtered ? tabs(monitor, view) : null}
  ${filtered
    ? html`<p class="muted">Judged below ${monitor.min_relevance}: kept here, not delivered and not sent to the webhook. Changing
  Minimum relevance in Settings sorts them again, without judging again.</p>`
    : null}
  ${list}
  ${cursorPager(base, section.firstPage, matches.next_cursor, 'Older matches →')}
</section>`;
}
