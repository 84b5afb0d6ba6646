import { html, type Html } from './html.ts';
import { page } from './layout.ts';

/**
 * The pages a mail's links open, for a person who may have no account here: the address that was
 * added, and one button. A GET never acts (mail scanners follow links); the button posts.
 */
interface Recipient {
  name: string;
  address: string;
  status: string;
}

export function confirmAddressPage(recipient: Recipient, action: string): Html {
  if (recipient.status === 'active') return confirmedPage(recipient);
  return page({
    title: 'Confirm your address',
    body: html`<div class="card narrow">
<p><strong>${recipient.address}</strong> was added to subpilot as the alert destination “${recipient.name}”.</p>
<p>Confirm it to receive new Reddit posts and comments that match its owner's monitors. If this was not you, close this page: nothing more is sent.</p>
<form method="post" action="${action}"><button type="submit">Confirm and receive alerts</button></form>
</div>`,
  });
}

export const confirmedPage = (recipient: Recipient): Html =>
  page({
    title: 'Address confirmed',
    body: html`<p class="alert alert-ok" role="status">Alerts for “${recipient.name}” will arrive at <strong>${recipient.address}</strong>. Every mail has a link to stop them.</p>`,
  });

export function unsubscribePage(recipient: Recipient, action: string): Html {
  if (recipient.status === 'off') return unsubscribedPage(recipient);
  return page({
    title: 'Stop these alerts',
    body: html`<div class="card narrow">
<p>Stop the subpilot alerts “${recipient.name}” to <strong>${recipient.address}</strong>? Nothing more will be sent to it, and its owner is told.</p>
<form method="post" action="${action}"><button type="submit" class="danger">Stop the alerts</button></form>
</div>`,
  });
}

export const unsubscribedPage = (recipient: Recipient): Html =>
  page({
    title: 'Alerts stopped',
    body: html`<p class="alert alert-ok" role="status">No more alerts “${recipient.name}” will be sent to <strong>${recipient.address}</strong>.</p>`,
  });
