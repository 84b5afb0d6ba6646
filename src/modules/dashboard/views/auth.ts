import { html, type Html } from './html.ts';
import { csrfField, errorBox, page } from './layout.ts';

interface AuthForm {
  csrfToken: string;
  email?: string;
  error?: string;
}

/** The answer to every accepted sign-up: it must read the same whether or not the email was free. */
const signedUpNotice = (email: string | undefined) =>
  html`<p class="alert alert-ok" role="status">If ${email} was free, its account is ready: log in with the password
you just chose. If it was already registered, log in with its password, or ask the operator to set a new one
(<code>subpilot accounts set-password</code>).</p>`;

export function loginPage(form: AuthForm & { allowSignup: boolean; signedUp?: boolean }): Html {
  return page({
    title: 'Log in',
    body: html`${errorBox(form.error)}${form.signedUp ? signedUpNotice(form.email) : null}
<form method="post" action="/dashboard/login" class="card narrow">
  ${csrfField(form.csrfToken)}
  <label>Email <input type="email" name="email" value="${form.email ?? ''}" autocomplete="username" required></label>
  <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
  <button type="submit">Log in</button>
</form>
${form.allowSignup ? html`<p>No account yet? <a href="/dashboard/signup">Sign up</a>.</p>` : null}`,
  });
}

export function signupPage(form: AuthForm & { allowSignup: boolean }): Html {
  if (!form.allowSignup) {
    return page({
      title: 'Sign up',
      body: html`<p class="alert alert-error">Sign-up is switched off on this server. Ask the operator for an account.</p>
<p><a href="/dashboard/login">Log in</a></p>`,
    });
  }
  return page({
    title: 'Sign up',
    body: html`${errorBox(form.error)}
<form method="post" action="/dashboard/signup" class="card narrow">
  ${csrfField(form.csrfToken)}
  <label>Email <input type="email" name="email" value="${form.email ?? ''}" autocomplete="username" required></label>
  <label>Password <span class="muted">(at least 10 characters)</span>
    <input type="password" name="password" autocomplete="new-password" minlength="10" required></label>
  <button type="submit">Create account</button>
</form>
<p>Already have an account? <a href="/dashboard/login">Log in</a>.</p>`,
  });
}
