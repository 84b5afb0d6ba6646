import { AppError } from '../../shared/errors.ts';

export const sessionsErrors = {
  csrfInvalid: () =>
    new AppError({
      code: 'sessions.csrf_invalid',
      status: 403,
      message: 'This form has expired or was not sent from the dashboard. Go back, reload the page and try again.',
    }),
  /** One message for an unknown email, a wrong password and an account without a password. */
  invalidCredentials: () =>
    new AppError({ code: 'sessions.invalid_credentials', status: 400, message: 'Email or password is incorrect.' }),
  throttled: (retryAfterSeconds: number) =>
    new AppError({
      code: 'sessions.throttled',
      status: 429,
      message: `Too many failed log-ins. Wait ${Math.ceil(retryAfterSeconds / 60)} minutes and try again.`,
      headers: { 'retry-after': String(retryAfterSeconds) },
    }),
  /** Sign-up without mail to check the address: the address has an account (see docs/dashboard.md, "Sign-up"). */
  signupRefused: () =>
    new AppError({
      code: 'sessions.signup_refused',
      status: 409,
      message: 'This address cannot be used to sign up here. If it is yours, log in with its password; a forgotten password is set again by the operator of this server.',
    }),
  /** One answer for a link that was used, has expired, was replaced by a newer mail, or never existed. */
  linkExpired: (purpose: 'signup' | 'reset') =>
    new AppError({
      code: 'sessions.link_expired',
      status: 410,
      message:
        purpose === 'signup'
          ? 'This confirmation link has expired, was already used, or was replaced by a newer mail. Sign up again to get a new one.'
          : 'This link to set a new password has expired, was already used, or was replaced by a newer mail. Ask for a new one.',
    }),
  /** Confirming a sign-up in another browser than the one that signed up asks for the password chosen then. */
  signupPasswordWrong: () =>
    new AppError({
      code: 'sessions.signup_password_wrong',
      status: 400,
      message: 'That is not the password chosen at sign-up. Type that password, or sign up again.',
    }),
  /** The address got an account between the sign-up and its confirmation (another sign-up, the operator). */
  alreadyRegistered: () =>
    new AppError({
      code: 'sessions.already_registered',
      status: 409,
      message: 'This address already has an account: log in with its password, or set a new one with "Forgot password?".',
    }),
};
