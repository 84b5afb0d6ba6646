import type { DestinationsUsecases } from '../../destinations/destinations.usecases.ts';
import type { DestinationKind } from '../../destinations/destinations.tables.ts';
import { html, safeHref, type Html } from './html.ts';
import { csrfField, when } from './layout.ts';

/** A destination as the usecases show it: a webhook by the end of its URL, an address, a chat, its status. */
export type DestinationView = Awaited<ReturnType<DestinationsUsecases['get']>>;

/** The add form's fields as typed: refilled as they were after a refusal. */
export interface DestinationForm {
  kind: string;
  name: string;
  url: string;
  address: string;
}

export const KIND_LABELS: Record<DestinationKind, string> = { slack: 'Slack', discord: 'Discord', email: 'Email', telegram: 'Telegram' };

/** Where its messages go, as far as it may be shown: a webhook URL is a secret, so only its last characters. */
export function whereTo(destination: DestinationView): Html {
  if (destination.url) return html`<code>${destination.url}</code>`;
  if (destination.address) return html`<bdi>${destination.address}</bdi>`;
  if (destination.chat) return html`<bdi>${destination.chat}</bdi>`;
  return html`<span class="muted">no chat linked yet</span>`;
}

/** The status in a person's words: an address waits to be confirmed, a chat to be linked. */
const statusWords = (destination: DestinationView) =>
  destination.status === 'unconfirmed' ? (destination.kind === 'email' ? 'not confirmed yet' : 'not linked yet') : destination.status;

export const statusBadge = (destination: DestinationView): Html =>
  html`<span class="badge badge-${destination.status === 'unconfirmed' ? 'waiting' : destination.status}">${statusWords(destination)}</span>`;

/** The badge, and what it means for alerts: why it is off, or what it is waiting for. */
export function statusText(destination: DestinationView): Html {
  if (destination.status === 'off') {
    return html`${statusBadge(destination)} <span class="dst-reason">Nothing is sent to it: <bdi>${destination.off_reason ?? 'switched off'}</bdi></span>`;
  }
  if (destination.status === 'active') return statusBadge(destination);
  const waiting =
    destination.kind === 'email'
      ? 'waiting for the link we mailed to be followed'
      : destination.link === null
        ? 'its link has expired: delete it and add it again for a new one'
        : 'waiting for Start to be pressed in Telegram';
  return html`${statusBadge(destination)} <span class="muted">${waiting}</span>`;
}

/** The button that sends a test; only an active destination takes one (the others would refuse it). */
export const testButton = (destination: DestinationView, csrfToken: string): Html | null =>
  destination.status === 'active'
    ? html`<form method="post" action="/dashboard/destinations/${destination.id}/test" class="dst-test">
    ${csrfField(csrfToken)}<button type="submit" class="secondary">Send a test</button></form>`
    : null;

/**
 * A Telegram chat is linked by its link: opened where Telegram is installed, Start pressed in the chat
 * that should get the alerts. Shown prominently after adding it, and on its page until it is linked.
 */
export function telegramLink(destination: DestinationView): Html | null {
  const link = destination.link && safeHref(destination.link);
  if (!link) return null;
  return html`<section class="card dst-link" aria-labelledby="link-${destination.id}">
  <h2 id="link-${destination.id}">Link “<bdi>${destination.name}</bdi>” to a Telegram chat</h2>
  <ol>
    <li>Open the link on the phone or computer where Telegram is installed.</li>
    <li>Telegram opens a chat with our bot: press <strong>Start</strong>. That chat gets the alerts from then on.</li>
    <li>For a group: add the bot to the group first, then open the link from that group and press Start there.</li>
  </ol>
  <p><a class="button" href="${link}" rel="noopener noreferrer">Open in Telegram</a></p>
  <p class="muted">Or copy the link to the device with Telegram (it works until ${when(destination.confirm_by)}):</p>
  <div class="token-row">
    <code id="link-text-${destination.id}" class="token">${link}</code>
    <button type="button" class="copy" data-copy="link-text-${destination.id}" data-copy-failed="Select and copy the link by hand" hidden>Copy</button>
  </div>
</section>`;
}
