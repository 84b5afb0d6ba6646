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
};
