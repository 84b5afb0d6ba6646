import { FORMATS, type MailParts } from './destinations.formats.ts';

const { escape } = FORMATS.html;

/**
 * The one mail an address gets before it is confirmed: what it is, the link, and what happens if it
 * is ignored (nothing). The link opens a page with a button: a mail scanner that follows links
 * confirms nothing (dashboard.recipient-routes.ts: a GET only shows the page).
 */
export function confirmationMail(name: string, confirmUrl: string): MailParts {
  const intro = `Someone added this address to subpilot as an alert destination named "${name}", to receive new Reddit posts and comments that match their monitors.`;
  const ask = 'To receive these alerts, confirm the address (the link works for 7 days):';
  const ignore = 'If this was not you, ignore this mail: nothing more is sent to this address.';
  return {
    subject: 'Confirm your address for subpilot alerts',
    text: [intro, '', ask, confirmUrl, '', ignore].join('\n'),
    html: `<p>${escape(intro)}</p>\n<p>${escape(ask)}<br>\n<a href="${escape(confirmUrl)}">Confirm this address</a></p>\n<p>${escape(ignore)}</p>`,
  };
}

/**
 * Every mail ends saying why it came and how to stop it, with the same link as its List-Unsubscribe
 * header (RFC 8058): one click there, no log-in, switches the destination off.
 */
export function withFooter(mail: MailParts, destinationName: string, unsubscribeUrl: string): MailParts {
  const why = `You get this because this address is the subpilot alert destination "${destinationName}".`;
  const stop = 'Stop these alerts (one click, no log-in):';
  return {
    subject: mail.subject,
    text: `${mail.text}\n\n-- \n${why}\n${stop} ${unsubscribeUrl}`,
    html: `${mail.html}\n<hr>\n<p style="color:#555;font-size:12px">${escape(why)}<br>\n<a href="${escape(unsubscribeUrl)}">Stop these alerts</a> (one click, no log-in).</p>`,
  };
}

/** The owner's mail when a destination was switched off: which, why, and where to fix it. */
export function switchedOffMail(name: string, reason: string, page: string): MailParts {
  const what = `Your subpilot alert destination "${name}" was switched off: ${reason}.`;
  const next = 'Nothing more is sent to it. Monitors routed there keep their other destinations. To start again, give it a new webhook URL or add the destination again:';
  return {
    subject: `Alerts to "${name}" were switched off`,
    text: [what, '', next, page].join('\n'),
    html: `<p>${escape(what)}</p>\n<p>${escape(next)}<br>\n<a href="${escape(page)}">Open the destination</a></p>`,
  };
}
