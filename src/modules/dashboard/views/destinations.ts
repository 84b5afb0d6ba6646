import type { DestinationKind } from '../../destinations/destinations.tables.ts';
import { html, type Html } from './html.ts';
import { csrfField, errorBox, noticeBox, page, type Viewer } from './layout.ts';
import { KIND_LABELS, statusText, telegramLink, testButton, whereTo, type DestinationForm, type DestinationView } from './destination-parts.ts';
import type { FieldErrors } from './monitor-parts.ts';

export interface DestinationsPage {
  viewer: Viewer;
  destinations: DestinationView[];
  /** False without SECRET_KEY: nothing can be added, and the page says why instead of offering the form. */
  configured: boolean;
  /** The kinds that need the server's own channel, and whether it has them. */
  channels: { email: boolean; telegram: boolean };
  notice?: string;
  /** The destination just added: how it starts (active, a mailed link, a Telegram link to open). */
  added?: DestinationView | null;
  /** A refused add, shown above the form, which `form` refills, and beside the field it is about. */
  error?: string;
  fieldErrors?: FieldErrors;
  form?: DestinationForm;
}

const EMPTY_FORM: DestinationForm = { kind: 'slack', name: '', url: '', address: '' };

/** What a channel the server lacks needs, in words for the person who runs it. */
const MISSING = {
  email: 'Email is not available on this server: its operator has not set up sending mail (SMTP_URL, MAIL_FROM and PUBLIC_URL).',
  telegram: 'Telegram is not available on this server: its operator has not set up a Telegram bot (TELEGRAM_BOT_TOKEN).',
};

/** How a destination just added starts: at once, once its address is confirmed, once its chat is linked. */
function addedBox(added: DestinationView | null | undefined): Html | null {
  if (!added) return null;
  if (added.kind === 'telegram') return telegramLink(added);
  if (added.kind === 'email' && added.status === 'unconfirmed') {
    return noticeBox(`We mailed a link to ${added.address}; alerts start once it is confirmed. The link works for 7 days.`);
  }
  return noticeBox(`“${added.name}” was added and is active. Send it a test to see a message arrive.`);
}

/** The day it was added is what a glance down the list wants; the instant is in its tooltip (the UTC day, as `when` reads). */
const day = (iso: string) => html`<time datetime="${iso}" title="${iso.slice(0, 16).replace('T', ' ')} UTC">${iso.slice(0, 10)}</time>`;

function destinationsTable(view: DestinationsPage): Html {
  if (view.destinations.length === 0) {
    return html`<p class="muted">No destinations yet.${view.configured ? html` <a href="#add-destination">Add your first one below ↓</a>` : null}</p>`;
  }
  // On a phone each row is a card (the cells' data-label name their values): six columns do not fit 390 px.
  return html`<div class="table-scroll table-cards"><table class="dst-table">
  <thead><tr><th>Name</th><th>Kind</th><th>Goes to</th><th>Status</th><th>Added</th><th>Actions</th></tr></thead>
  <tbody>${view.destinations.map(
    (d) => html`<tr>
    <td class="dst-name" data-label="Name"><a href="/dashboard/destinations/${d.id}"><bdi>${d.name}</bdi></a></td>
    <td data-label="Kind">${KIND_LABELS[d.kind]}</td>
    <td class="dst-where" data-label="Goes to">${whereTo(d)}</td>
    <td class="dst-status" data-label="Status">${statusText(d)}</td>
    <td data-label="Added">${day(d.created_at)}</td>
    <td data-label="Actions"><div class="dst-actions">${testButton(d, view.viewer.csrfToken)}
      <a href="/dashboard/destinations/${d.id}">Messages sent</a>
      <a class="danger" href="/dashboard/destinations/${d.id}/delete">Delete</a></div></td>
  </tr>`,
  )}</tbody>
</table></div>`;
}

function addForm(view: DestinationsPage): Html {
  const form = view.form ?? EMPTY_FORM;
  const errors = view.fieldErrors ?? {};
  const problem = (name: string) => (errors[name] ? html`<span class="field-error">${errors[name]}</span>` : null);
  const bad = (name: string) => (errors[name] ? html` aria-invalid="true"` : null);
  const kinds = (['slack', 'discord', 'email', 'telegram'] as DestinationKind[]).filter((kind) => (kind === 'email' || kind === 'telegram' ? view.channels[kind] : true));
  const missing = (['email', 'telegram'] as const).filter((kind) => !view.channels[kind]);
  return html`${errorBox(view.error)}
  <form method="post" action="/dashboard/destinations" class="dst-form">
    ${csrfField(view.viewer.csrfToken)}
    <label>Kind ${problem('kind')}
      <select name="kind" data-toggles${bad('kind')}>${kinds.map(
        (kind) => html`<option value="${kind}"${form.kind === kind ? html` selected` : null}>${KIND_LABELS[kind]}</option>`,
      )}</select></label>
    <label>Name <span class="muted">(to tell it by, for example the channel)</span> ${problem('name')}
      <input type="text" name="name" value="${form.name}" maxlength="100" placeholder="#leads" required${bad('name')}></label>
    <label class="dst-wide" data-when="slack discord">Webhook URL <span class="muted">(Slack and Discord)</span> ${problem('url')}
      <input type="url" name="url" value="${form.url}" maxlength="500" placeholder="https://hooks.slack.com/services/…"${bad('url')}>
      <small class="muted">Slack: add the Incoming Webhooks app to the channel and copy its Webhook URL. Discord: in the channel's
      settings, Integrations → Webhooks → New Webhook → Copy Webhook URL. It is kept encrypted and never shown again.</small></label>
    ${view.channels.email
      ? html`<label class="dst-wide" data-when="email">Email address <span class="muted">(Email)</span> ${problem('address')}
      <input type="email" name="address" value="${form.address}" maxlength="254" placeholder="sales@example.com"${bad('address')}>
      <small class="muted">We mail it a link first; alerts start once someone follows it, so no one gets alerts they did not ask for.</small></label>`
      : null}
    ${view.channels.telegram
      ? html`<p class="dst-wide muted" data-when="telegram">Telegram needs no address: once you add it, you get a link to open in
      Telegram, and the chat where you press Start gets the alerts.</p>`
      : null}
    <button type="submit">Add destination</button>
  </form>
  ${missing.length ? html`<ul class="muted dst-missing">${missing.map((kind) => html`<li>${MISSING[kind]}</li>`)}</ul>` : null}`;
}

export function destinationsPage(view: DestinationsPage): Html {
  return page({
    title: 'Destinations',
    viewer: view.viewer,
    section: 'destinations',
    body: html`${noticeBox(view.notice)}${addedBox(view.added)}
<p>A destination is where alerts go: a Slack or Discord channel, an email address or a Telegram chat. On each
<a href="/dashboard/monitors">monitor's page</a>, under Alerts, choose which destinations get its new matches: each one
at once, or an hourly or daily digest. Destinations and their messages are free.</p>
<section aria-labelledby="your-destinations">
  <h2 id="your-destinations">Your destinations</h2>
  ${destinationsTable(view)}
</section>
<section class="card" aria-labelledby="add-destination">
  <h2 id="add-destination">Add a destination</h2>
  ${
    view.configured
      ? addForm(view)
      : html`<p>Destinations are off on this server: webhook URLs and addresses are kept encrypted with a key its operator
  has not set (SECRET_KEY). Until then, matches are listed on each monitor's page and in the Inbox.</p>`
  }
</section>`,
  });
}
