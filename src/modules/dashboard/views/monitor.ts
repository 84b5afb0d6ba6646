import type { MonitorHealth, MonitorView } from '../../monitors/monitors.usecases.ts';
import { html, type Html } from './html.ts';
import { badge, csrfField, errorBox, noticeBox, page, when, type Viewer } from './layout.ts';
import { alertsSection, silentDestinationLines, type MonitorAlerts } from './monitor-alerts.ts';
import { matchesSection, type MatchesSection } from './monitor-matches.ts';
import { formOf, isolated, isolatedList, monitorFormFields, sourcesText, statusOf, type FieldErrors, type MonitorForm } from './monitor-parts.ts';
import { redditBanner } from './reddit-banner.ts';

export interface MonitorPage extends MatchesSection {
  viewer: Viewer;
  notice?: string;
  /** A refused pause or resume, shown with the status. */
  error?: string;
  /** A refused edit, shown above the settings form, which `form` refills, with each field's own problems beside it. */
  formError?: string;
  fieldErrors?: FieldErrors;
  form?: MonitorForm;
  /** Where its matches are sent (destinations), and the form that adds one. */
  alerts: MonitorAlerts;
}

const ERROR_WORDS: Record<string, string> = {
  rate_limited: 'Reddit asked us to slow down',
  blocked: 'Reddit refused the request',
  unavailable: 'Reddit did not answer',
};

/** Whether matches are judged, against what, and from which score they are delivered. */
const relevanceText = (monitor: MonitorView) =>
  monitor.intent
    ? html`judged against “<bdi>${monitor.intent}</bdi>”; delivered from ${monitor.min_relevance} of 100`
    : html`<span class="muted">not judged (no intent)</span>`;

/** Whether each match gets a reply draft, and with what instructions. */
const draftsText = (monitor: MonitorView) =>
  monitor.draft_replies
    ? html`one for each match, in the <a href="/dashboard/inbox">Inbox</a>${monitor.draft_instructions ? html`: “<bdi>${monitor.draft_instructions}</bdi>”` : null}`
    : html`<span class="muted">none (draft them one by one in the <a href="/dashboard/inbox">Inbox</a>)</span>`;

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
    <dt>Keywords</dt><dd>${monitor.keywords.length ? isolatedList(monitor.keywords) : html`<span class="muted">none</span>`}</dd>
    ${monitor.exclude_keywords.length ? html`<dt>Excluding</dt><dd>${isolatedList(monitor.exclude_keywords)}</dd>` : null}
    ${monitor.query ? html`<dt>Query</dt><dd><code class="wrap-anywhere"><bdi>${monitor.query}</bdi></code></dd>` : null}
    <dt>Relevance</dt><dd>${relevanceText(monitor)}</dd>
    <dt>Reply drafts</dt><dd>${draftsText(monitor)}</dd>
    <dt>Match</dt><dd>${monitor.match === 'word' ? 'whole words' : 'anywhere, inside words too'}, ${sourcesText(monitor.sources).toLowerCase()}${monitor.include_nsfw ? ', NSFW included' : ''}</dd>
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

/** The judge failing, in words, only while it fails: matches still arrive, unjudged. Its error may quote the model: isolated. */
function judgeLine(judge: MonitorHealth['judge']): Html | null {
  if (judge?.state !== 'failing') return null;
  return html`<p class="mon-health-status">${badge('failing')} Matches are delivered unjudged, and not charged for judging,${judge.since ? html` since ${when(judge.since)},` : null}
  because the relevance judge fails: <bdi>${judge.error ?? 'no reason given'}</bdi>.</p>`;
}

/** Who reads the monitor's subreddits: said, so a "last read" time is not taken for the poller's. */
function streamLine(sources: MonitorHealth['read_by_stream']): Html | null {
  if (sources.length === 0) return null;
  return html`<p class="mon-health-status">Read by the site-wide stream (${sources.join(' and ')}): these subreddits are not polled meanwhile, and are
  polled again if the stream stops or falls behind.</p>`;
}

/** A monitor over all of Reddit has one reader, the stream: its state, in the API's words, replaces what subreddits' staleness would say. */
function allOfRedditLine(health: MonitorHealth): Html | null {
  if (!health.stream) return null;
  if (health.stream.state === 'reading') return html`<p class="mon-health-status">All of Reddit is read by the site-wide stream, in time.</p>`;
  return html`<p class="mon-health-status">${health.status === 'stale' ? badge('stale') : null} ${health.stream.detail}</p>`;
}

/** A list rather than a table: on a phone a table would scroll the last error, the part that matters, out of sight. */
function healthSection(health: MonitorHealth): Html {
  const words = health.stream ? null : HEALTH_WORDS[health.status];
  return html`<section aria-labelledby="health">
  <h2 id="health">Health</h2>
  ${words ? html`<p class="mon-health-status">${badge(health.status)} ${words}</p>` : null}
  ${allOfRedditLine(health)}
  ${judgeLine(health.judge)}
  ${streamLine(health.read_by_stream)}
  ${silentDestinationLines(health.destinations)}
  <ul class="mon-health">${health.subreddits.map(
    (s) => html`<li><strong>${isolated(s.subreddit)}</strong> ${badge(s.state)}${s.stale ? html` ${badge('stale')}` : null}
    <span>last read ${when(s.last_read_at, 'not yet')}</span> <span>last Reddit error: ${lastError(s.last_error)}</span></li>`,
  )}</ul>
  <h3>Gaps</h3>
  ${gapsList(health)}
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
${alertsSection(monitor.id, view.viewer, view.alerts)}
${healthSection(monitor.health)}
${matchesSection(view)}
<section class="card" aria-labelledby="settings">
  <h2 id="settings">Settings</h2>
  ${errorBox(view.formError)}
  ${monitorFormFields(view.viewer, view.form ?? formOf(monitor), `/dashboard/monitors/${monitor.id}`, 'Save changes', view.fieldErrors)}
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
