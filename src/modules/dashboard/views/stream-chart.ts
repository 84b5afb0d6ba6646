import type { StreamCoverage } from '../../monitors/stream/stream.coverage.usecases.ts';
import { formatNumber } from '../../../shared/text.ts';
import { html, type Html } from './html.ts';

/** One hour of the chart: posts and comments together. */
interface HourBar {
  hour: string;
  returned: number;
  unavailable: number;
  pending: number;
  skipped: number;
}

// viewBox units, as in chart.ts: one 10-wide slot per hour, stretched to the box's width.
const SLOT = 10;
const BAR = 8;
const HEIGHT = 100;
/** The hours the chart shows: what the page reads of the coverage. */
export const CHART_HOURS = 24;

const hourOf = (iso: string) => `${iso.slice(0, 13)}:00:00.000Z`;

/** The last 24 hours, oldest first, an hour with nothing walked kept as an empty slot (a stream that stopped shows). */
function hoursOf(coverage: StreamCoverage, now: Date): HourBar[] {
  const bars = new Map<string, HourBar>();
  for (let i = CHART_HOURS - 1; i >= 0; i--) {
    const hour = hourOf(new Date(now.getTime() - i * 3_600_000).toISOString());
    bars.set(hour, { hour, returned: 0, unavailable: 0, pending: 0, skipped: 0 });
  }
  for (const row of coverage.hours) {
    const bar = bars.get(hourOf(row.hour));
    if (!bar) continue;
    bar.returned += row.returned;
    bar.unavailable += row.unavailable;
    bar.pending += row.pending;
    bar.skipped += row.skipped;
  }
  return [...bars.values()];
}

/**
 * What the site-wide stream covered in the last 24 hours, on the Monitors page: per hour a bar of the
 * ids read, with what Reddit did not show (deleted, removed, private) and what was skipped while the
 * stream was behind stacked on it, so a gap is in sight rather than only in the API. Drawn on the
 * server like the spend chart (no script under the CSP); the figures are words beside it too. Nothing
 * when the stream is off and never ran.
 */
export function streamCoverageSection(coverage: StreamCoverage, now: Date): Html | null {
  if (!coverage.enabled && coverage.hours.length === 0) return null;
  const bars = hoursOf(coverage, now);
  const sum = (field: keyof Omit<HourBar, 'hour'>) => bars.reduce((total, bar) => total + bar[field], 0);
  const [returned, unavailable, pending, skipped] = [sum('returned'), sum('unavailable'), sum('pending'), sum('skipped')];
  const walked = returned + unavailable + pending + skipped;
  const max = Math.max(1, ...bars.map((b) => b.returned + b.unavailable + b.pending + b.skipped));
  const read = walked === 0 ? 0 : (returned / walked) * 100;
  const summary =
    `Every new post and comment on Reddit in the last ${CHART_HOURS} hours: ${formatNumber(walked)} ids walked, ${formatNumber(returned)} read and matched ` +
    `against every monitor (${read.toFixed(1)}%), ${formatNumber(unavailable)} not shown by Reddit (deleted, removed or private), ` +
    `${formatNumber(pending)} waiting for a second look, ${formatNumber(skipped)} skipped in ${formatNumber(coverage.gaps.length)} ${coverage.gaps.length === 1 ? 'gap' : 'gaps'}.`;
  const slot = (bar: HourBar, i: number) => {
    let top = HEIGHT;
    const part = (value: number, kind: string) => {
      if (value === 0) return null;
      const height = Math.max(0.5, (value / max) * HEIGHT);
      top -= height;
      return html`<rect class="bar stream-${kind}" x="${i * SLOT + (SLOT - BAR) / 2}" y="${top.toFixed(2)}" width="${BAR}" height="${height.toFixed(2)}"></rect>`;
    };
    const title = `${bar.hour.slice(11, 16)} UTC: ${formatNumber(bar.returned)} read, ${formatNumber(bar.unavailable)} not shown, ${formatNumber(bar.pending)} waiting, ${formatNumber(bar.skipped)} skipped`;
    return html`<g><title>${title}</title>${part(bar.returned, 'read')}${part(bar.unavailable + bar.pending, 'missing')}${part(bar.skipped, 'skipped')}</g>`;
  };
  return html`<section aria-labelledby="all-of-reddit">
  <h2 id="all-of-reddit">All of Reddit</h2>
  <p class="muted">${coverage.enabled ? 'This server reads every new post and comment on Reddit once, at a fixed share of its Reddit budget, and checks each against every monitor.' : 'The site-wide stream is off on this server now; what it read before is below.'}
  <a href="/docs/guides/monitors-stream">How the stream works</a>.</p>
  <figure class="chart stream-chart">
    <div class="chart-max" aria-hidden="true">${formatNumber(max)} ids in an hour</div>
    <svg viewBox="0 0 ${CHART_HOURS * SLOT} ${HEIGHT}" preserveAspectRatio="none" role="img" aria-labelledby="stream-chart-title">
      <title id="stream-chart-title">${summary}</title>
      <line class="chart-top" x1="0" y1="0.5" x2="${CHART_HOURS * SLOT}" y2="0.5"></line>
      ${bars.map(slot)}
    </svg>
    <div class="chart-axis" aria-hidden="true"><span>${CHART_HOURS} hours ago</span><span>this hour (${bars.at(-1)!.hour.slice(11, 16)} UTC)</span></div>
    <figcaption>${summary}
      <span class="stream-key"><span class="key-read">read</span> <span class="key-missing">not shown or waiting</span> <span class="key-skipped">skipped</span></span></figcaption>
  </figure>
</section>`;
}
