import { html, type Html } from './html.ts';

export interface DaySpend {
  date: string;
  credits: number;
}

// viewBox units: one 10-wide slot per day; the SVG stretches to the box's width, so it fits any screen.
const SLOT = 10;
const BAR = 8;
const HEIGHT = 100;

const plural = (credits: number) => `${credits} ${credits === 1 ? 'credit' : 'credits'}`;

/**
 * Daily spend as bars, drawn on the server: the CSP allows no script. The dates and the maximum are
 * HTML around the SVG rather than SVG text, which would shrink with the drawing on a phone. A day
 * that refunded more than it charged is drawn as zero; its title still says the net figure.
 */
export function spendChart(days: DaySpend[], id: string): Html {
  const max = Math.max(1, ...days.map((day) => day.credits));
  const total = days.reduce((sum, day) => sum + day.credits, 0);
  const first = days[0]?.date ?? '';
  const last = days.at(-1)?.date ?? '';
  const summary = `Credits spent per day from ${first} to ${last} (UTC): ${plural(total)} in total, at most ${plural(max)} on one day.`;
  const bars = days.map((day, i) => {
    // Zero days keep a hairline, so the run of days stays visible and each one keeps its title.
    const height = day.credits > 0 ? Math.max(1, (day.credits / max) * HEIGHT) : 1;
    return html`<rect class="${day.credits > 0 ? 'bar' : 'bar bar-zero'}" x="${i * SLOT + (SLOT - BAR) / 2}" y="${(HEIGHT - height).toFixed(2)}" width="${BAR}" height="${height.toFixed(2)}"><title>${day.date}: ${plural(day.credits)}</title></rect>`;
  });
  return html`<figure class="chart">
  <div class="chart-max" aria-hidden="true">${plural(max)}</div>
  <svg viewBox="0 0 ${days.length * SLOT} ${HEIGHT}" preserveAspectRatio="none" role="img" aria-labelledby="${id}-title">
    <title id="${id}-title">${summary}</title>
    <line class="chart-top" x1="0" y1="0.5" x2="${days.length * SLOT}" y2="0.5"></line>
    ${bars}
  </svg>
  <div class="chart-axis" aria-hidden="true"><span>${first}</span><span>${last}</span></div>
  <figcaption>${plural(total)} in the last ${days.length} days.</figcaption>
</figure>`;
}
