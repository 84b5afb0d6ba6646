import type { WebhooksUsecases } from '../../webhooks/webhooks.usecases.ts';
import { html, type Html } from './html.ts';
import { csrfField, errorBox, noticeBox, page, when, type Viewer } from './layout.ts';

type Deliveries = Awaited<ReturnType<WebhooksUsecases['recentDeliveries']>>;
type Delivery = Deliveries[number];

export interface WebhooksPage {
  viewer: Viewer;
  /** Null when the server keeps no secrets (no SECRET_KEY); `previousUntil`: a rolled secret still signs beside it. */
  signing: { secret: string; previousUntil: string | null } | null;
  /** The account's own endpoint, for `credits.low` (null: none). */
  endpoint: string | null;
  deliveries: Deliveries;
  notice?: string;
  /** A refused test event, shown beside its form (which `testUrl` refills). */
  testError?: string;
  testUrl?: string;
  /** A refused retry, shown above the deliveries. */
  error?: string;
  /** A refused account endpoint, shown beside its form (which `endpointInput` refills). */
  endpointError?: string;
  endpointInput?: string;
}

function attemptsList(attempts: Delivery['attempts']): Html {
  if (attempts.length === 0) return html`<span class="muted">not yet attempted</span>`;
  return html`<ol class="attempts">${attempts.map(
    // The duration only when the receiver answered: without an answer it would tell a refused connection from a dropped one.
    (a) => html`<li>${when(a.attempted_at)} — ${a.status_code ?? 'no answer'}${a.error ? html` <span class="muted">(${a.error})</span>` : null}${
      a.status_code === null ? null : html`, ${a.duration_ms} ms`
    }</li>`,
  )}</ol>`;
}

/** A pending delivery that was tried is waiting for its next retry; one never tried is about to be. */
const waiting = (d: Delivery) => d.status === 'pending' && d.attempts.length > 0;

function stateCell(d: Delivery, csrfToken: string): Html {
  const next = waiting(d) && d.next_attempt_at ? html`<br><span class="muted">next retry ${when(d.next_attempt_at)}</span>` : null;
  const retry =
    d.status === 'failed' || waiting(d)
      ? html`<form method="post" action="/dashboard/webhooks/deliveries/${d.id}/retry" class="inline">
      ${csrfField(csrfToken)}<button type="submit" class="link">Retry now</button></form>`
      : null;
  return html`${d.status}${next}${retry}`;
}

const secretsOff = html`Webhooks are off on this server: the signing secrets are kept encrypted with <code>SECRET_KEY</code>, which is
  not set, so a <code>webhook_url</code> is refused (503). The operator sets it (<code>openssl rand -hex 32</code>).</p>`;

function secretBlock(signing: NonNullable<WebhooksPage['signing']>, csrfToken: string): Html {
  return html`Verify each delivery with this secret:</p>
  <div class="token-row">
    <code id="signing-secret" class="token">${signing.secret}</code>
    <button type="button" class="copy" data-copy="signing-secret" data-copy-failed="Select and copy the secret by hand" hidden>Copy</button>
  </div>
  ${
    signing.previousUntil
      ? html`<p>The secret it replaced still signs every delivery beside it until ${when(signing.previousUntil)}, as a second
  <code>v1,</code> signature in <code>webhook-signature</code>: switch your receivers over before then.</p>`
      : null
  }
  <form method="post" action="/dashboard/webhooks/secret/roll" class="actions wrap">
    ${csrfField(csrfToken)}
    <button type="submit">Roll secret</button>
    <span class="muted">A new secret signs from now on; the current one keeps signing beside it for 24 hours.</span>
  </form>`;
}

function testForm(view: WebhooksPage): Html {
  return html`<section class="card" aria-labelledby="test-event">
  <h2 id="test-event">Send a test event</h2>
  <p>Queues a signed <code>webhook.test</code> event to the URL, delivered and retried like a scrape's; it appears below.</p>
  ${errorBox(view.testError)}
  <form method="post" action="/dashboard/webhooks/test" class="inline">
    ${csrfField(view.viewer.csrfToken)}
    <label>Webhook URL <input type="url" name="webhook_url" value="${view.testUrl ?? ''}" placeholder="https://" maxlength="2000" required></label>
    <button type="submit">Send test event</button>
  </form>
</section>`;
}

function endpointForm(view: WebhooksPage): Html {
  return html`<section class="card" aria-labelledby="account-endpoint">
  <h2 id="account-endpoint">Account endpoint</h2>
  <p>Events about the account rather than one scrape or monitor go here, signed like the others: <code>credits.low</code>,
  sent once each time the balance falls below the threshold set on the <a href="/dashboard/credits">Credits</a> page;
  <code>credits.topup_failed</code>, when an automatic top-up cannot charge; <code>destination.off</code>, when an alert
  <a href="/dashboard/destinations">destination</a> is switched off. Leave it empty to send none.</p>
  ${errorBox(view.endpointError)}
  <form method="post" action="/dashboard/webhooks/endpoint" class="inline">
    ${csrfField(view.viewer.csrfToken)}
    <label>Endpoint URL <input type="url" name="webhook_url" value="${view.endpointInput ?? view.endpoint ?? ''}" placeholder="https://" maxlength="2000"></label>
    <button type="submit">Save endpoint</button>
  </form>
</section>`;
}

function deliveriesTable(view: WebhooksPage): Html {
  if (view.deliveries.length === 0) return html`<p class="muted">No deliveries yet.</p>`;
  // On a phone each delivery is a card (the cells' data-label name their values): five columns do not fit 390 px.
  return html`<div class="table-scroll table-cards"><table class="hook-table">
  <thead><tr><th>Created</th><th>Event</th><th>URL</th><th>State</th><th>Attempts</th></tr></thead>
  <tbody>${view.deliveries.map(
    (d) => html`<tr>
    <td data-label="Created">${when(d.created_at)}</td>
    <td data-label="Event">${d.event_type}${d.scrape_id ? html`<br><a href="/dashboard/scrapes/${d.scrape_id}">Its scrape</a>` : null}${
      d.event_type === 'credits.low' ? html`<br><a href="/dashboard/credits">Credits</a>` : null
    }</td>
    <td class="url card-text" data-label="URL"><code class="wrap-anywhere">${d.url}</code></td>
    <td data-label="State">${stateCell(d, view.viewer.csrfToken)}</td><td class="card-text" data-label="Attempts">${attemptsList(d.attempts)}</td>
  </tr>`,
  )}</tbody>
</table></div>`;
}

export function webhooksPage(view: WebhooksPage): Html {
  return page({
    title: 'Webhooks',
    viewer: view.viewer,
    section: 'webhooks',
    body: html`${noticeBox(view.notice)}<section aria-labelledby="secret">
  <h2 id="secret">Signing secret</h2>
  <p>Every event this service sends is POSTed to its URL and signed per
  <a href="https://www.standardwebhooks.com/" rel="noopener noreferrer">Standard Webhooks</a>
  (<code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>): a scrape's when it completes
  or fails (its <code>webhook_url</code>), a monitor's matches and state changes (the monitor's <code>webhook_url</code>), and
  the account's own events (the endpoint below).
  ${view.signing === null ? secretsOff : secretBlock(view.signing, view.viewer.csrfToken)}
  <p class="muted">Failed deliveries are retried with doubling delays for more than 24 hours.</p>
</section>
${view.signing === null ? null : endpointForm(view)}
${view.signing === null ? null : testForm(view)}
<section aria-labelledby="deliveries">
  <h2 id="deliveries">Recent deliveries</h2>
  ${errorBox(view.error)}
  ${deliveriesTable(view)}
</section>`,
  });
}
