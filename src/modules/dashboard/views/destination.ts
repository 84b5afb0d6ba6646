import type { DestinationsUsecases } from '../../destinations/destinations.usecases.ts';
import { html, type Html } from './html.ts';
import { csrfField, errorBox, noticeBox, page, when, type Viewer } from './layout.ts';
import { KIND_LABELS, statusText, telegramLink, testButton, whereTo, type DestinationView } from './destination-parts.ts';

type Delivery = Awaited<ReturnType<DestinationsUsecases['deliveries']>>['data'][number];

export interface DestinationPage {
  viewer: Viewer;
  destination: DestinationView;
  deliveries: Delivery[];
  notice?: string;
  /** A refused test, shown beside its button. */
  error?: string;
  /** A refused new webhook URL, shown beside its form, which `urlInput` refills. */
  urlError?: string;
  urlInput?: string;
}

/** What a message is about, from its subject (`test:…`, `match:…`, `digest:<monitor>:<end>`, `confirm:…`, `linked:…`). */
function about(subject: string): Html {
  const [kind, ...rest] = subject.split(':');
  if (kind === 'test') return html`Test message`;
  if (kind === 'match') return html`New match`;
  if (kind === 'digest') return html`Digest up to ${when(rest.slice(1).join(':'))}`;
  if (kind === 'confirm') return html`The mail asking to confirm the address`;
  if (kind === 'linked') return html`“Linked” message to the chat`;
  return html`${subject}`;
}

/** Every attempt with the service's own answer, which is what says why a message did not arrive. */
function attemptsList(attempts: Delivery['attempts']): Html {
  if (attempts.length === 0) return html`<span class="muted">not tried yet</span>`;
  return html`<ol class="attempts">${attempts.map(
    (a) => html`<li>${when(a.attempted_at)} — ${a.status_code ?? 'no answer'}${a.status_code === null ? null : html`, ${a.duration_ms} ms`}${
      a.error ? html` <span class="muted">(${a.error})</span>` : null
    }${a.answer ? html`<br><code class="wrap-anywhere dst-answer">${a.answer}</code>` : null}</li>`,
  )}</ol>`;
}

/** Who answers each attempt. */
const ANSWERS: Record<DestinationView['kind'], string> = { slack: 'Slack', discord: 'Discord', email: 'the mail server', telegram: 'Telegram' };

const STATES: Record<Delivery['status'], string> = { pending: 'waiting', sent: 'sent', failed: 'failed' };

function stateCell(d: Delivery): Html {
  return html`<span class="badge badge-${d.status === 'pending' ? 'waiting' : d.status === 'sent' ? 'active' : 'failed'}">${STATES[d.status]}</span>${
    d.sent_at ? html`<br>${when(d.sent_at)}` : null
  }${d.error ? html`<br><span class="dst-reason">${d.error}</span>` : null}`;
}

function deliveriesTable(deliveries: Delivery[]): Html {
  if (deliveries.length === 0) return html`<p class="muted">Nothing sent yet.</p>`;
  return html`<div class="table-scroll table-cards"><table class="dst-messages">
  <thead><tr><th>Recorded</th><th>Message</th><th>State</th><th>Attempts</th></tr></thead>
  <tbody>${deliveries.map(
    (d) => html`<tr>
    <td data-label="Recorded">${when(d.created_at)}</td>
    <td data-label="Message">${about(d.subject)}</td>
    <td data-label="State">${stateCell(d)}</td>
    <td class="card-text" data-label="Attempts">${attemptsList(d.attempts)}</td>
  </tr>`,
  )}</tbody>
</table></div>`;
}

/** A webhook gets a new URL here: the way back for one switched off because the service said it is gone. */
function urlForm(view: DestinationPage): Html | null {
  const { destination } = view;
  if (destination.kind !== 'slack' && destination.kind !== 'discord') return null;
  const off = destination.status === 'off';
  return html`<section class="card" aria-labelledby="new-url">
  <h2 id="new-url">${off ? 'Switch it back on with a new webhook URL' : 'Replace the webhook URL'}</h2>
  <p class="muted">${off ? `Create a new webhook in ${KIND_LABELS[destination.kind]} and paste its URL: the destination is active again, and its monitors keep sending to it.` : 'The new URL takes over from the next message on.'}</p>
  ${errorBox(view.urlError)}
  <form method="post" action="/dashboard/destinations/${destination.id}/url" class="inline">
    ${csrfField(view.viewer.csrfToken)}
    <label>New webhook URL <input type="url" name="url" value="${view.urlInput ?? ''}" maxlength="500" placeholder="https://" required></label>
    <button type="submit">Save URL</button>
  </form>
</section>`;
}

export function destinationPage(view: DestinationPage): Html {
  const { destination: d } = view;
  return page({
    title: `Destination “${d.name}”`,
    viewer: view.viewer,
    section: 'destinations',
    body: html`<p><a href="/dashboard/destinations">← All destinations</a></p>
${noticeBox(view.notice)}
${telegramLink(d)}
<section class="card dst-facts" aria-label="Destination">
  ${errorBox(view.error)}
  <dl class="facts">
    <dt>Kind</dt><dd>${KIND_LABELS[d.kind]}</dd>
    <dt>Goes to</dt><dd>${whereTo(d)}</dd>
    <dt>Status</dt><dd>${statusText(d)}</dd>
    ${d.status === 'unconfirmed' ? html`<dt>Link works until</dt><dd>${when(d.confirm_by)}</dd>` : null}
    <dt>Added</dt><dd>${when(d.created_at)}</dd>
  </dl>
  ${testButton(d, view.viewer.csrfToken)}
</section>
<section aria-labelledby="messages">
  <h2 id="messages">Messages</h2>
  <p class="muted">The 20 newest, newest first, each attempt with what ${ANSWERS[d.kind]} answered. Reload the page to see new ones.</p>
  ${deliveriesTable(view.deliveries)}
</section>
${urlForm(view)}
<p><a class="danger" href="/dashboard/destinations/${d.id}/delete">Delete this destination</a></p>`,
  });
}

export function deleteConfirmPage(viewer: Viewer, destination: DestinationView): Html {
  return page({
    title: 'Delete destination',
    viewer,
    section: 'destinations',
    body: html`<section class="card narrow">
  <p>Delete the destination <strong><bdi>${destination.name}</bdi></strong> (${KIND_LABELS[destination.kind]})?</p>
  <p>Nothing more is sent to it, not even messages still waiting, and monitors stop sending their alerts there. The
  record of its messages is deleted too. This cannot be undone.</p>
  <form method="post" action="/dashboard/destinations/${destination.id}/delete" class="actions">
    ${csrfField(viewer.csrfToken)}
    <button type="submit" class="danger">Delete destination</button>
    <a href="/dashboard/destinations/${destination.id}">Cancel</a>
  </form>
</section>`,
  });
}
