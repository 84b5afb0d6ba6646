import type { MatchView, MonitorHealth, MonitorView } from '../../monitors/monitors.usecases.ts';
import type { Page } from '../../../shared/http/pagination.ts';
import { html, safeHref, type Html } from '../html.ts';
import { badge, csrfField, cursorPager, errorBox, noticeBox, page, when, type Viewer } from './layout.ts';
import { formOf, isolated, isolatedList, monitorFormFields, sourcesText, statusOf, type MonitorForm } from './monitor-parts.ts';
import { redditBanner } from './reddit-banner.ts';

export interface MonitorPage {
  viewer: Viewer;
  monitor: MonitorView;
  matches: Page<MatchView>;
  firstPage: boolean;
  notice?: string;
  /** A refused pause or resume, shown with the status. */
  error?: string;
  /** A refused edit, shown beside the settings form, which `form` refills. */
  formError?: string;
  form?: MonitorForm;
}

/** A match's text is shown up to this many characters; the link leads to all of it. */
const EXCERPT = 300;
const excerpt = (text: string) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > EXCERPT ? `${line.slice(0, EXCERPT - 1)}…` : line;
};

const ERROR_WORDS: Record<string, string> = {
  rate_limited: 'Reddit asked us to slow down',
  blocked: 'Reddit refused the request',
  unavailable: 'Reddit did not answer',
};

function statusCard(view: MonitorPage): Html {
  const { monitor, viewer } = view;
  const action = monitor.status === 'active' ? 'pause' : 'resume';
  return html`<section class="card mon-status" aria-label="Status">
  ${errorBox(view.error)}
  <form method="post" action="/dashboard/monitors/${monitor.id}/${action}" class="mon-state">
    ${csrfField(viewer.csrfToken)}
    <p>${statusOf(monitor)}</p>
    <button type="submit">${action === 'pause' ? 'Pause monitor' : 'Resume monitor'}</button>
  </form>
  <dl class="facts">
    <dt>Subreddits</dt><dd>${isolatedList(monitor.subreddits)}</dd>
    <dt>Keywords</dt><dd>${isolatedList(monitor.keywords)}</dd>
    ${monitor.exclude_keywords.length ? html`<dt>Excluding</dt><dd>${isolatedList(monitor.exclude_keywords)}</dd>` : null}
    <dt>Match</dt><dd>${monitor.match === 'word' ? 'whole words' : 'phrase'}, ${sourcesText(monitor.sources).toLowerCase()}${monitor.include_nsfw ? ', NSFW included' : ''}</dd>
    <dt>Webhook</dt><dd>${monitor.webhook_url ? html`<code class="wrap-anywhere">${monitor.webhook_url}</code>` : html`<span class="muted">none</span>`}</dd>
    <dt>Daily cap</dt><dd>${monitor.max_matches_per_day ?? html`<span class="muted">none</span>`}</dd>
    <dt>Created</dt><dd>${when(monitor.created_at)}</dd>
  </dl>
</section>`;
}

function lastError(error: MonitorHealth['subreddits'][number]['last_error']): Html {
  if (!error) return html`<span class="muted">none</span>`;
  return html`<code>${error.code}</code> <span class="muted">${ERROR_WORDS[error.code] ?? ''}</span> ${when(error.at)}`;
}

function gapsList(health: MonitorHealth): Html {
  const { gaps } = health;
  // While a subreddit goes unread, "everything was read" would be false: its gap is only known once reading resumes.
  if (gaps.length === 0) return html`<p class="muted">${health.status === 'stale' ? 'No gaps recorded so far.' : 'No gaps: everything new was read.'}</p>`;
  return html`<p>More new items appeared than could be read in time: things created in these stretches may be missing.</p>
<ul class="mon-gaps">${gaps.map(
    (g) => html`<li>${g.source} in ${isolatedList(g.subreddits)}: ${when(g.from)} to ${when(g.to)} <span class="muted">(recorded ${when(g.recorded_at)})</span></li>`,
  )}</ul>`;
}

/** What health.status means for the person, said only when something is wrong. */
const HEALTH_WORDS: Record<MonitorHealth['status'], string | null> = {
  ok: null,
  stale: 'Some subreddits have not been read for over two rounds of reading: their matches arrive late, and what can no longer be read once reading resumes is recorded as a gap.',
  unavailable: 'Reddit refuses some of these subreddits (private, banned, missing or quarantined): nothing is read from them.',
};

/** A list rather than a table: on a phone a table would scroll the last error, the part that matters, out of sight. */
function healthSection(health: MonitorHealth): Html {
  const words = HEALTH_WORDS[health.status];
  return html`<section aria-labelledby="health">
  <h2 id="health">Health</h2>
  ${words ? html`<p class="mon-health-status">${badge(health.status)} ${words}</p>` : null}
  <ul class="mon-health">${health.subreddits.map(
    (s) => html`<li><strong>${isolated(s.subreddit)}</strong> ${badge(s.state)}${s.stale ? html` ${badge('stale')}` : null}
    <span>last read ${when(s.last_read_at, 'not yet')}</span> <span>last Reddit error: ${lastError(s.last_error)}</span></li>`,
  )}</ul>
  <h3>Gaps</h3>
  ${gapsList(health)}
</section>`;
}

function matchItem(match: MatchView): Html {
  const href = safeHref(match.permalink);
  const title = href
    ? html`<a href="${href}" target="_blank" rel="noopener noreferrer">${isolated(match.title)}</a>`
    : isolated(match.title);
  const body = excerpt(match.body);
  return html`<li class="mon-match">
  <p class="result-title">${badge(match.type)} ${title}</p>
  ${body ? html`<p class="mon-body"><bdi>${body}</bdi></p>` : null}
  <p class="muted">${isolated(match.subreddit)} · u/${isolated(match.author)} · ${when(match.created_at)} · matched: ${isolatedList(match.matched_keywords)}</p>
</li>`;
}

function matchesSection(view: MonitorPage): Html {
  const { matches, monitor } = view;
  const list = matches.data.length
    ? html`<ol class="mon-matches">${matches.data.map(matchItem)}</ol>`
    : html`<p class="muted">${view.firstPage ? 'No matches yet. New posts and comments that match appear here within a minute or two.' : 'No older matches.'}</p>`;
  return html`<section aria-labelledby="matches">
  <h2 id="matches">Matches, newest first</h2>
  ${list}
  ${cursorPager(`/dashboard/monitors/${monitor.id}`, view.firstPage, matches.next_cursor, 'Older matches →')}
</section>`;
}

export function monitorPage(view: MonitorPage): Html {
  const { monitor } = view;
  return page({
    title: `Monitor “${monitor.name}”`,
    viewer: view.viewer,
    section: 'monitors',
    body: html`<p><a href="/dashboard/monitors">← All monitors</a></p>
${redditBanner(monitor.health.reddit)}
${noticeBox(view.notice)}
${statusCard(view)}
${healthSection(monitor.health)}
${matchesSection(view)}
<section class="card" aria-labelledby="settings">
  <h2 id="settings">Settings</h2>
  ${errorBox(view.formError)}
  ${monitorFormFields(view.viewer, view.form ?? formOf(monitor), `/dashboard/monitors/${monitor.id}`, 'Save changes')}
</section>
<p><a class="danger" href="/dashboard/monitors/${monitor.id}/delete">Delete this monitor</a> <span class="muted">and its matches.</span></p>`,
  });
}

export function deleteConfirmPage(viewer: Viewer, monitor: MonitorView): Html {
  return page({
    title: 'Delete monitor',
    viewer,
    section: 'monitors',
    body: html`<section class="card narrow">
  <p>Delete the monitor <strong><bdi>${monitor.name}</bdi></strong>?</p>
  <p>It stops watching at once and its stored matches are deleted with it. This cannot be undone; to stop it for a
  while, pause it instead.</p>
  <form method="post" action="/dashboard/monitors/${monitor.id}/delete" class="actions">
    ${csrfField(viewer.csrfToken)}
    <button type="submit" class="danger">Delete monitor</button>
    <a href="/dashboard/monitors/${monitor.id}">Cancel</a>
  </form>
</section>`,
  });
}
