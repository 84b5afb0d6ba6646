import type { MonitorUsage } from '../../monitors/monitors.limits.ts';
import type { MonitorView, Page } from '../../monitors/monitors.usecases.ts';
import { html, type Html } from '../html.ts';
import { cursorPager, errorBox, noticeBox, page, when, type Viewer } from './layout.ts';
import { EMPTY_FORM, isolatedList, monitorFormFields, sourcesText, statusOf, type MonitorForm } from './monitor-parts.ts';

export interface MonitorsPage {
  viewer: Viewer;
  monitors: Page<MonitorView>;
  usage: MonitorUsage;
  firstPage: boolean;
  notice?: string;
  /** A refused create, shown beside the form, which `form` refills. */
  error?: string;
  form?: MonitorForm;
}

/** A long list of subreddits or keywords is cut in the table; the monitor's page has them all. */
const SHOWN = 5;
const some = (texts: string[]) =>
  html`${isolatedList(texts.slice(0, SHOWN))}${texts.length > SHOWN ? html` <span class="muted">+${texts.length - SHOWN} more</span>` : null}`;

/** "3 of 25 monitors · 120 of 500 subreddits": the room left before a create or an edit is refused. */
const usageLine = ({ monitors, subreddits }: MonitorUsage) =>
  html`<p class="muted" id="monitor-usage">${monitors.used} of ${monitors.limit} monitors · ${subreddits.used} of ${subreddits.limit} subreddits
  <span>(different subreddits across all your monitors, paused ones included)</span></p>`;

function monitorsTable(monitors: MonitorView[]): Html {
  if (monitors.length === 0) return html`<p class="muted">No monitors yet. Create one above, or call <code>POST /api/v1/monitors</code>.</p>`;
  return html`<div class="table-scroll"><table class="mon-table">
  <thead><tr><th>Name</th><th>Status</th><th>Subreddits</th><th>Keywords</th><th>Watches</th><th>Created</th></tr></thead>
  <tbody>
  ${monitors.map(
    (m) => html`<tr>
    <td class="mon-name"><a href="/dashboard/monitors/${m.id}"><bdi>${m.name}</bdi></a></td>
    <td>${statusOf(m)}</td>
    <td>${some(m.subreddits)}</td><td>${some(m.keywords)}</td>
    <td>${sourcesText(m.sources)}</td><td>${when(m.created_at)}</td>
  </tr>`,
  )}
  </tbody>
</table></div>`;
}

export function monitorsPage(view: MonitorsPage): Html {
  return page({
    title: 'Monitors',
    viewer: view.viewer,
    section: 'monitors',
    body: html`${noticeBox(view.notice)}<p>A monitor watches subreddits for new posts and comments that mention your keywords and
  keeps each match once, charged per match stored; reading Reddit is free. Matches are listed on the monitor's page and,
  with a webhook URL, POSTed to it.</p>
<section aria-labelledby="your-monitors">
  <h2 id="your-monitors">Your monitors</h2>
  ${usageLine(view.usage)}
  ${monitorsTable(view.monitors.data)}
  ${cursorPager('/dashboard/monitors', view.firstPage, view.monitors.next_cursor, 'More monitors →')}
</section>
<section class="card" aria-labelledby="create-monitor">
  <h2 id="create-monitor">Create a monitor</h2>
  <p class="muted">It matches what appears from now on; earlier posts and comments are what a scrape is for.</p>
  ${errorBox(view.error)}
  ${monitorFormFields(view.viewer, view.form ?? EMPTY_FORM, '/dashboard/monitors', 'Create monitor')}
</section>`,
  });
}
