import { plural } from '../../../shared/text.ts';
import { monthOf, nextMonthStart } from '../../../shared/calendar.ts';
import type { RollOverlap } from '../../keys/keys.usecases.ts';
import { html, type Html } from './html.ts';
import { spendChart, type DaySpend } from './chart.ts';
import { keyState, scopesText, tokenBlock, type KeyRow } from './key-parts.ts';
import { csrfField, page, when, type Viewer } from './layout.ts';

export interface KeyPage {
  viewer: Viewer;
  key: KeyRow;
  /** Spend this UTC month, holds included: the figure the monthly limit is checked against. */
  spent: number;
  days: DaySpend[];
  now: Date;
  /** Present only in the reply to the roll POST: the new key's one showing, and the key it replaced. */
  rolled?: { token: string; replaced: Pick<KeyRow, 'prefix' | 'expires_at'> };
}

const OVERLAP_LABELS: [RollOverlap, string][] = [
  ['now', 'now'],
  ['1h', 'in 1 hour'],
  ['24h', 'in 24 hours'],
  ['7d', 'in 7 days'],
];

function spendFacts(key: KeyRow, spent: number, now: Date): Html {
  const limit = key.monthly_credit_limit;
  if (limit === null) return html`<dd>${plural(spent, 'credit')} <span class="muted">(no monthly limit)</span></dd>`;
  return html`<dd>${spent} of ${plural(limit, 'credit')} <meter min="0" max="${limit}" value="${Math.min(spent, limit)}">${spent} / ${limit}</meter>
    <span class="muted">resets ${when(nextMonthStart(monthOf(now)))}</span></dd>`;
}

function facts(view: KeyPage): Html {
  const { key, now } = view;
  return html`<dl class="facts card">
  <dt>Key</dt><dd><code>${key.prefix}…</code></dd>
  <dt>State</dt><dd>${keyState(key, now)}</dd>
  <dt>Scopes</dt><dd>${scopesText(key)}</dd>
  <dt>Spent this month</dt>${spendFacts(key, view.spent, now)}
  <dt>Expires</dt><dd>${when(key.expires_at, 'never')}</dd>
  <dt>Created</dt><dd>${when(key.created_at)}</dd>
  <dt>Last used</dt><dd>${when(key.last_used_at)}</dd>
  ${key.revoked_at ? html`<dt>Revoked</dt><dd>${when(key.revoked_at)}</dd>` : null}
  ${key.replaced_by ? html`<dt>Replaced by</dt><dd><a href="/dashboard/keys/${key.replaced_by}">the rolled key</a></dd>` : null}
</dl>`;
}

function rollForm(view: KeyPage): Html {
  const { key } = view;
  return html`<section class="card" aria-labelledby="roll">
  <h2 id="roll">Roll this key</h2>
  <p>Creates a new key with the same name, scopes and monthly limit and shows its token once. The old key keeps
    working until the time you choose, so each tool can be switched over without an outage.</p>
  <form method="post" action="/dashboard/keys/${key.id}/roll" class="actions wrap">
    ${csrfField(view.viewer.csrfToken)}
    <label>The old key stops working
      <select name="overlap">${OVERLAP_LABELS.map(([value, label]) => html`<option value="${value}"${value === '24h' ? html` selected` : null}>${label}</option>`)}</select></label>
    <button type="submit">Roll key</button>
  </form>
</section>`;
}

function rolledBlock(token: string, key: KeyRow, replaced: Pick<KeyRow, 'prefix' | 'expires_at'>, now: Date): Html {
  const stopsAt = replaced.expires_at ?? now.toISOString();
  const stopped = Date.parse(stopsAt) <= now.getTime();
  const old = html`<code>${replaced.prefix}…</code>`;
  return tokenBlock(
    key.name,
    token,
    html`<p class="old-key">${stopped ? html`The old key ${old} has stopped working.` : html`The old key ${old} keeps working until ${when(stopsAt)}: switch your tools over before then.`}</p>`,
  );
}

export function keyPage(view: KeyPage): Html {
  const { key, now, rolled } = view;
  return page({
    title: `API key “${key.name}”`,
    viewer: view.viewer,
    section: 'keys',
    body: html`<p><a href="/dashboard/keys">← All keys</a></p>
${rolled ? rolledBlock(rolled.token, key, rolled.replaced, now) : null}
${facts(view)}
<section class="card" aria-labelledby="daily-spend">
  <h2 id="daily-spend">Daily spend, last ${view.days.length} days</h2>
  ${spendChart(view.days, 'daily-spend-chart')}
</section>
${key.state === 'active' && !rolled ? rollForm(view) : null}
${key.revoked_at ? null : html`<p><a class="danger" href="/dashboard/keys/${key.id}/revoke">Revoke this key</a> <span class="muted">at once, if it may have leaked.</span></p>`}`,
  });
}
