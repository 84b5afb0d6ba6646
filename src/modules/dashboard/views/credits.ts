import { signed } from '../../../shared/text.ts';
import type { CreditsUsecases } from '../../credits/credits.usecases.ts';
import { html, type Html } from './html.ts';
import { autoTopupSection, buySection, type BuyView } from './credits-buy.ts';
import { csrfField, cursorPager, errorBox, noticeBox, page, when, type Viewer } from './layout.ts';

type Usage = Awaited<ReturnType<CreditsUsecases['usage']>>;


type Entry = Usage['data'][number];

/** The page of what the entry paid for (or refunded), or of the payment that bought it; a grant pays for nothing. */
function pageOf(entry: Entry): string | null {
  if (entry.payment) return `/dashboard/credits/return?payment=${entry.payment.id}`;
  if (entry.scrape_id) return `/dashboard/scrapes/${entry.scrape_id}`;
  if (entry.generation_id) return `/dashboard/drafts/${entry.generation_id}`;
  if (entry.publication_id) return `/dashboard/publications/${entry.publication_id}`;
  return null;
}

const VIA_LABELS = { api: 'API', mcp: 'MCP', dashboard: 'Dashboard', monitor: 'Monitor' } as const;

/** Isolated: it can quote a subreddit or Reddit's own words, which may carry bidirectional controls. */
function described(entry: Entry): Html {
  const href = pageOf(entry);
  return href ? html`<a href="${href}"><bdi>${entry.description}</bdi></a>` : html`<bdi>${entry.description}</bdi>`;
}

function ledgerTable(usage: Usage): Html {
  if (usage.data.length === 0) return html`<p class="muted">No credit movements yet.</p>`;
  // On a phone each entry is a card (the cells' data-label name their values): seven columns do not fit 390 px.
  return html`<div class="table-scroll table-cards"><table>
  <thead><tr><th>When</th><th>For</th><th>Type</th><th class="num">Amount</th><th class="num">Balance after</th><th>Key</th><th>Via</th></tr></thead>
  <tbody>
  ${usage.data.map(
    (entry) => html`<tr>
    <td data-label="When">${when(entry.created_at)}</td>
    <td data-label="For">${described(entry)}</td>
    <td data-label="Type">${entry.type}</td>
    <td class="num ${entry.amount < 0 ? 'minus' : 'plus'}" data-label="Amount">${signed(entry.amount)}</td>
    <td class="num" data-label="Balance after">${entry.balance_after}</td>
    <td data-label="Key">${entry.key ? html`${entry.key.name} <code>${entry.key.prefix}…</code>` : html`<span class="muted">—</span>`}</td>
    <td data-label="Via">${entry.via ? VIA_LABELS[entry.via] : html`<span class="muted">—</span>`}</td>
  </tr>`,
  )}
  </tbody>
</table></div>`;
}

export interface CreditsPage extends BuyView {
  viewer: Viewer;
  balance: number;
  /** Credits a refund or dispute could not take back, which the next purchase or grant pays first. */
  owed: number;
  usage: Usage;
  firstPage: boolean;
  /** The saved low-balance threshold (null: off). */
  threshold: number | null;
  notice?: string;
  /** A refused threshold, shown beside its form, which `thresholdInput` refills. */
  thresholdError?: string;
  thresholdInput?: string;
}

function thresholdForm(view: CreditsPage): Html {
  const value = view.thresholdInput ?? (view.threshold === null ? '' : String(view.threshold));
  return html`<section class="card" aria-labelledby="low-balance">
  <h2 id="low-balance">Low-balance alert</h2>
  <p>When the balance you can spend falls below this many credits, every dashboard page shows a banner until it is
  back above, and a signed <code>credits.low</code> webhook goes to the account's endpoint (set on the
  <a href="/dashboard/webhooks">Webhooks</a> page), once each time it falls below. Leave it empty to switch alerts off.</p>
  ${errorBox(view.thresholdError)}
  <form method="post" action="/dashboard/credits/low-balance" class="inline threshold">
    ${csrfField(view.viewer.csrfToken)}
    <label>Alert below (credits) <input type="number" name="threshold" value="${value}" min="1" max="1000000000" step="1" inputmode="numeric"></label>
    <button type="submit">Save threshold</button>
  </form>
</section>`;
}

export function creditsPage(view: CreditsPage): Html {
  const { usage } = view;
  return page({
    title: 'Credits',
    viewer: view.viewer,
    section: 'credits',
    body: html`${noticeBox(view.notice)}<p class="balance">Balance: <strong>${view.balance}</strong> ${view.balance === 1 ? 'credit' : 'credits'}</p>
${view.owed > 0
  ? html`<p class="alert alert-warn owed">${view.owed} credit${view.owed === 1 ? '' : 's'} owed from a refund or dispute: the next purchase or grant pays them first.</p>`
  : null}
${buySection(view)}
${autoTopupSection(view)}
${thresholdForm(view)}
<section aria-labelledby="usage">
  <h2 id="usage">Usage, newest first</h2>
  ${ledgerTable(usage)}
  ${cursorPager('/dashboard/credits', view.firstPage, usage.next_cursor, 'Older entries →')}
</section>`,
  });
}
