/**
 * The mails of sign-up and password reset: what happened, the one link, and what happens if the mail
 * is ignored (nothing). Each says which server sent it, since one person may hold accounts on several.
 */
export interface AccountMail {
  subject: string;
  text: string;
  html: string;
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Paragraphs of text, each an array of lines; a line that is a URL becomes a link in the HTML part. */
function mail(subject: string, paragraphs: (string | { url: string; label: string })[][]): AccountMail {
  const text = paragraphs.map((lines) => lines.map((line) => (typeof line === 'string' ? line : line.url)).join('\n')).join('\n\n');
  const html = paragraphs
    .map((lines) => `<p>${lines.map((line) => (typeof line === 'string' ? escape(line) : `<a href="${escape(line.url)}">${escape(line.label)}</a>`)).join('<br>\n')}</p>`)
    .join('\n');
  return { subject, text, html };
}

export function confirmSignUpMail(origin: string, link: string, hours: number): AccountMail {
  return mail('Confirm your address to open your subpilot account', [
    [`Someone, hopefully you, signed up for subpilot at ${origin} with this address.`],
    [`To confirm the address and open the account, follow this link (it works for ${hours} hours, once):`, { url: link, label: 'Confirm and open my account' }],
    ['If this was not you, ignore this mail: no account is made without the link.'],
  ]);
}

/** The answer to a sign-up for an address that has an account: the same page was shown, this mail says the rest. */
export function alreadyRegisteredMail(origin: string): AccountMail {
  return mail('You already have a subpilot account', [
    [`Someone, hopefully you, tried to sign up for subpilot at ${origin} with this address, which already has an account. No new account was made and the password is unchanged.`],
    ['Log in:', { url: `${origin}/dashboard/login`, label: 'Log in' }],
    ['Forgot the password? Set a new one:', { url: `${origin}/dashboard/password-reset`, label: 'Set a new password' }],
    ['If this was not you, ignore this mail.'],
  ]);
}

export function passwordResetMail(origin: string, link: string, minutes: number): AccountMail {
  return mail('Set a new subpilot password', [
    [`Someone, hopefully you, asked to set a new password for the subpilot account of this address at ${origin}.`],
    [`Set a new password with this link (it works for ${minutes} minutes, once):`, { url: link, label: 'Set a new password' }],
    ['Setting it logs out every browser signed in to the account. If this was not you, ignore this mail: the password stays as it is.'],
  ]);
}
