import { html, type Html } from './html.ts';
import { csrfField, errorBox, page } from './layout.ts';

/**
 * The answer to every sign-up where the server sends mail: it must read the same whether or not the
 * address has an account (that mail says so instead).
 */
export function checkInboxPage(email: string, hours: number): Html {
  return page({
    title: 'Check your inbox',
    body: html`<div class="card narrow" role="status">
<p>We sent a mail to <strong>${email}</strong>. Follow its link to confirm the address and open your account: the link works for ${hours} hours.</p>
<p>If the address already has an account, the mail says so and how to log in.</p>
<p class="muted">No mail after a few minutes? Look in the spam folder, or <a href="/dashboard/signup">sign up again</a>.</p>
</div>`,
  });
}

/**
 * A mailed sign-up link, opened: one button (a GET never acts: mail scanners follow links). In another
 * browser than the one that signed up, the password chosen then is asked too.
 */
export function confirmSignupPage(view: { email: string; asksPassword: boolean; csrfToken: string; action: string; error?: string }): Html {
  return page({
    title: 'Confirm your address',
    body: html`${errorBox(view.error)}
<form method="post" action="${view.action}" class="card narrow">
  ${csrfField(view.csrfToken)}
  ${view.asksPassword
    ? html`<p>Open the subpilot account of this address. This is not the browser that signed up: type the password chosen then.</p>
  <label>Email <input type="email" name="email" value="${view.email}" autocomplete="username" readonly></label>
  <label>Password <input type="password" name="password" autocomplete="current-password" required></label>`
    : html`<p>Open the subpilot account of <strong>${view.email}</strong>.</p>`}
  <button type="submit">Confirm and open my account</button>
</form>`,
  });
}

/** A mailed link that no longer works, with the way to a new one. */
export function deadLinkPage(message: string, again: { href: string; label: string }): Html {
  return page({
    title: 'Link no longer works',
    body: html`<p class="alert alert-error" role="alert">${message}</p>
<p><a href="${again.href}">${again.label}</a></p>`,
  });
}
