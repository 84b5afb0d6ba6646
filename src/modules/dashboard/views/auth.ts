import { plural } from '../../../shared/text.ts';
import { html, type Html } from './html.ts';
import { csrfField, errorBox, noticeBox, page } from './layout.ts';

interface AuthForm {
  csrfToken: string;
  email?: string;
  error?: string;
}

export function loginPage(form: AuthForm & { allowSignup: boolean; notice?: string }): Html {
  return page({
    title: 'Log in',
    body: html`${errorBox(form.error)}${noticeBox(form.notice)}
<form method="post" action="/dashboard/login" class="card narrow">
  ${csrfField(form.csrfToken)}
  <label>Email <input type="email" name="email" value="${form.email ?? ''}" autocomplete="username" required></label>
  <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
  <button type="submit">Log in</button>
  <p class="muted"><a href="/dashboard/password-reset">Forgot password?</a></p>
</form>
${form.allowSignup ? html`<p>No account yet? <a href="/dashboard/signup">Sign up</a>.</p>` : null}`,
  });
}

/** `credits`: what a new account starts with (SIGNUP_CREDITS), said on the form when there are any. */
export function signupPage(form: AuthForm & { allowSignup: boolean; credits: number }): Html {
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
  ${form.credits > 0 ? html`<p>A new account starts with <strong>${plural(form.credits, 'credit')}</strong> to try the API.</p>` : null}
  <label>Email <input type="email" name="email" value="${form.email ?? ''}" autocomplete="username" required></label>
  <label>Password <span class="muted">(at least 10 characters)</span>
    <input type="password" name="password" autocomplete="new-password" minlength="10" required></label>
  <button type="submit">Create account</button>
</form>
<p>Already have an account? <a href="/dashboard/login">Log in</a>.</p>`,
  });
}
