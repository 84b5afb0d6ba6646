import { html, type Html } from './html.ts';
import { csrfField, errorBox, page } from './layout.ts';

/** "Forgot password?": an email form where the server sends mail; otherwise who can help. */
export function resetRequestPage(view: { byMail: boolean; csrfToken: string; email?: string }): Html {
  if (!view.byMail) {
    return page({
      title: 'Forgot password',
      body: html`<div class="card narrow">
<p>This server does not send mail, so a password cannot be reset from here. Ask the operator of this server to set a new one
(<code>subpilot accounts set-password</code>).</p>
</div>
<p><a href="/dashboard/login">Log in</a></p>`,
    });
  }
  return page({
    title: 'Forgot password',
    body: html`<form method="post" action="/dashboard/password-reset" class="card narrow">
  ${csrfField(view.csrfToken)}
  <p>Type the address you log in with: we mail it a link to set a new password.</p>
  <label>Email <input type="email" name="email" value="${view.email ?? ''}" autocomplete="username" required></label>
  <button type="submit">Mail me a link</button>
</form>
<p><a href="/dashboard/login">Log in</a></p>`,
  });
}

/** The answer to every reset request: the same whether or not the address has an account. */
export function resetRequestedPage(email: string, minutes: number): Html {
  return page({
    title: 'Check your inbox',
    body: html`<div class="card narrow" role="status">
<p>If <strong>${email}</strong> has an account here, a mail with a link to set a new password is on its way. The link works for ${minutes} minutes, once.</p>
<p class="muted">No mail after a few minutes? Look in the spam folder, or <a href="/dashboard/password-reset">ask again</a>.</p>
</div>`,
  });
}

export function newPasswordPage(view: { email: string; csrfToken: string; action: string; error?: string }): Html {
  return page({
    title: 'Set a new password',
    body: html`${errorBox(view.error)}
<form method="post" action="${view.action}" class="card narrow">
  ${csrfField(view.csrfToken)}
  <p>Setting a new password logs out every browser signed in to this account.</p>
  <label>Email <input type="email" name="email" value="${view.email}" autocomplete="username" readonly></label>
  <label>New password <span class="muted">(at least 10 characters)</span>
    <input type="password" name="password" autocomplete="new-password" minlength="10" required></label>
  <button type="submit">Set the password</button>
</form>`,
  });
}
