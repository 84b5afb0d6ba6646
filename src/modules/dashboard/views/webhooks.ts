import type { WebhooksUsecases } from '../../webhooks/webhooks.usecases.ts';
import { html, type Html } from '../html.ts';
import { page, when, type Viewer } from './layout.ts';

type Deliveries = Awaited<ReturnType<WebhooksUsecases['recentDeliveries']>>;

function attemptsList(attempts: Deliveries[number]['attempts']): Html {
  if (attempts.length === 0) return html`<span class="muted">not yet attempted</span>`;
  return html`<ol class="attempts">${attempts.map(
    (a) => html`<li>${when(a.attempted_at)} — ${a.status_code ?? 'no answer'}${a.error ? html` <span class="muted">(${a.error})</span>` : null}, ${a.duration_ms} ms</li>`,
  )}</ol>`;
}

export function webhooksPage(view: { viewer: Viewer; secret: string | null; deliveries: Deliveries }): Html {
  return page({
    title: 'Webhooks',
    viewer: view.viewer,
    section: 'webhooks',
    body: html`<section aria-labelledby="secret">
  <h2 id="secret">Signing secret</h2>
  <p>Scrapes sent with a <code>webhook_url</code> are POSTed there when they complete or fail, signed per
  <a href="https://www.standardwebhooks.com/" rel="noopener noreferrer">Standard Webhooks</a>
  (<code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>).
  ${
    view.secret === null
      ? html`Webhooks are off on this server: the signing secrets are kept encrypted with <code>SECRET_KEY</code>, which is
  not set, so a scrape with a <code>webhook_url</code> is refused (503). The operator sets it (<code>openssl rand -hex 32</code>).</p>`
      : html`Verify each delivery with this secret:</p>
  <p><code class="token">${view.secret}</code></p>`
  }
  <p class="muted">Failed deliveries are retried with doubling delays for more than 24 hours.</p>
</section>
<section aria-labelledby="deliveries">
  <h2 id="deliveries">Recent deliveries</h2>
  ${
    view.deliveries.length === 0
      ? html`<p class="muted">No deliveries yet.</p>`
      : html`<table>
  <thead><tr><th>Created</th><th>Event</th><th>Scrape</th><th>URL</th><th>State</th><th>Attempts</th></tr></thead>
  <tbody>${view.deliveries.map(
    (d) => html`<tr>
    <td>${when(d.created_at)}</td><td>${d.event_type}</td>
    <td><a href="/dashboard/scrapes/${d.scrape_id}">${d.scrape_id}</a></td>
    <td><code>${d.url}</code></td><td>${d.status}</td><td>${attemptsList(d.attempts)}</td>
  </tr>`,
  )}</tbody>
</table>`
  }
</section>`,
  });
}
