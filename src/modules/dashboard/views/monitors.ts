import type { MonitorUsage } from '../../monitors/monitors.limits.ts';
import type { MonitorActivity, MonitorView, RedditAppView } from '../../monitors/monitors.usecases.ts';
import type { Page } from '../../../shared/http/pagination.ts';
import { html, type Html } from './html.ts';
import { cursorPager, errorBox, noticeBox, page, type Viewer } from './layout.ts';
import { ago, healthSummary } from './monitor-health.ts';
import { EMPTY_FORM, isolatedList, monitorFormFields, sourcesText, statusOf, type FieldErrors, type MonitorForm } from './monitor-parts.ts';
import { redditBanner } from './reddit-banner.ts';
import { streamCoverageSection } from './stream-chart.ts';
import type { StreamCoverage } from '../../monitors/stream/stream.coverage.usecases.ts';

export interface MonitorsPage {
  viewer: Viewer;
  monitors: Page<MonitorView>;
  /**
   * Matches today and the last match of the listed monitors, and the time it was read at: the list says
   * how long ago ("5 min ago", the instant in a tooltip), which is what a glance down the list wants;
   * the monitor's own page has the instants. Its creation time is there too.
   */
  activity: { now: string; monitors: Map<string, MonitorActivity> };
  usage: MonitorUsage;
  firstPage: boolean;
  /** How Reddit treats the app: a banner says so while it is not ok. */
  reddit: RedditAppView;
  /** What the site-wide stream covered in the last 24 hours (stream-chart.ts); the section is left out when it never ran. */
  stream: StreamCoverage;
  notice?: string;
  /** A refused create, shown above the form, which `form` refills, with each field's own problems beside it. */
  error?: string;
  fieldErrors?: FieldErrors;
  form?: MonitorForm;
}

/** A long list of subreddits or keywords is cut in the table; the monitor's page has them all. */
const SHOWN = 5;
const some = (texts: string[]) =>
  html`${isolatedList(texts.slice(0, SHOWN))}${texts.length > SHOWN ? html` <span class="muted">+${texts.length - SHOWN} more</span>` : null}`;

/** A query is cut in the table like a long list, whole in its tooltip; the monitor's page shows all of it. */
const QUERY_SHOWN = 60;

/** What a monitor looks for: its keywords, its query, or both (then both must hold). */
function lookingFor(monitor: MonitorView): Html {
  if (!monitor.query) return some(monitor.keywords);
  const characters = [...monitor.query];
  const cut = characters.length > QUERY_SHOWN ? `${characters.slice(0, QUERY_SHOWN - 1).join('')}…` : monitor.query;
  const query = html`<code class="mon-query" title="${monitor.query}"><bdi>${cut}</bdi></code>`;
  return monitor.keywords.length ? html`${some(monitor.keywords)} <span class="muted">and</span> ${query}` : query;
}

/** "3 of 25 monitors · 120 of 500 subreddits": the room left before a create or an edit is refused. */
const usageLine = ({ monitors, subreddits }: MonitorUsage) =>
  html`<p class="muted" id="monitor-usage">${monitors.used} of ${monitors.limit} monitors · ${subreddits.used} of ${subreddits.limit} subreddits
  <span>(different subreddits across all your monitors, paused ones included)</span></p>`;

const NONE: MonitorActivity = { matches_today: 0, last_match_at: null };

function monitorsTable(monitors: MonitorView[], activity: MonitorsPage['activity']): Html {
  if (monitors.length === 0) {
    // The form is below the list, out of sight on a phone: the link takes the reader there.
    return html`<p class="muted mon-empty">No monitors yet. <a href="#create-monitor">Create your first monitor below ↓</a>
  or call <code>POST /api/v1/monitors</code>.</p>`;
  }
  // On a phone each row is a card (the cells' data-label name their values): eight columns do not fit 390 px.
  return html`<div class="table-scroll table-cards"><table class="mon-table">
  <thead><tr><th>Name</th><th>Status</th><th>Subreddits</th><th>Looking for</th><th>Watches</th><th class="num">Matches today</th><th>Last match</th><th>Health</th></tr></thead>
  <tbody>
  ${monitors.map((m) => {
    const { matches_today, last_match_at } = activity.monitors.get(m.id) ?? NONE;
    return html`<tr>
    <td class="mon-name" data-label="Name"><a href="/dashboard/monitors/${m.id}"><bdi>${m.name}</bdi></a></td>
    <td data-label="Status">${statusOf(m)}</td>
    <td class="mon-subs" data-label="Subreddits">${some(m.subreddits)}</td><td class="mon-looking" data-label="Looking for">${lookingFor(m)}</td>
    <td data-label="Watches">${sourcesText(m.sources)}</td>
    <td class="num" data-label="Matches today">${matches_today}</td>
    <td data-label="Last match">${last_match_at ? ago(last_match_at, activity.now) : html`<span class="muted">none yet</span>`}</td>
    <td class="mon-summary" data-label="Health">${healthSummary(m.health, activity.now)}</td>
  </tr>`;
  })}
  </tbody>
</table></div>`;
}

export function monitorsPage(view: MonitorsPage): Html {
  return page({
    title: 'Monitors',
    viewer: view.viewer,
    section: 'monitors',
    body: html`${redditBanner(view.reddit)}${noticeBox(view.notice)}<p>A monitor watches subreddits for new posts and comments that mention your keywords or
  match your query, and keeps each match once, charged per match delivered and, with an intent, per match judged; reading Reddit is free. Matches are listed on the monitor's page and,
  with a webhook URL, POSTed to it.</p>
<section aria-labelledby="your-monitors">
  <h2 id="your-monitors">Your monitors</h2>
  ${usageLine(view.usage)}
  ${monitorsTable(view.monitors.data, view.activity)}
  ${cursorPager('/dashboard/monitors', view.firstPage, view.monitors.next_cursor, 'More monitors →')}
</section>
${streamCoverageSection(view.stream, new Date(view.activity.now))}
<section class="card" aria-labelledby="create-monitor">
  <h2 id="create-monitor">Create a monitor</h2>
  <p class="muted">It matches what appears from now on; earlier posts and comments are what a scrape is for.</p>
  ${errorBox(view.error)}
  ${monitorFormFields(view.viewer, view.form ?? EMPTY_FORM, '/dashboard/monitors', 'Create monitor', view.fieldErrors)}
</section>`,
  });
}
