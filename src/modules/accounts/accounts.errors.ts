import { AppError } from '../../shared/errors.ts';

/** The highest low-balance threshold, like the highest key limit: past any balance anyone holds. */
export const MAX_THRESHOLD = 1_000_000_000;

/** The longest voice: a paragraph of guidance, not a prompt of its own (every draft pays for its tokens). */
export const MAX_VOICE = 1000;

export const accountsErrors = {
  voiceTooLong: () =>
    new AppError({ code: 'accounts.voice_too_long', status: 422, message: `A voice is at most ${MAX_VOICE.toLocaleString('en')} characters; shorten it and save again.` }),
  notFound: (email: string) =>
    new AppError({ code: 'accounts.not_found', status: 404, message: `No account with email ${email}.` }),
  emailTaken: (email: string) =>
    new AppError({ code: 'accounts.email_taken', status: 409, message: `An account with email ${email} already exists.` }),
  invalidEmail: () =>
    new AppError({ code: 'accounts.invalid_email', status: 422, message: 'An email address looks like name@example.com.' }),
  weakPassword: () =>
    new AppError({ code: 'accounts.weak_password', status: 422, message: 'A password has at least 10 characters.' }),
  invalidThreshold: () =>
    new AppError({
      code: 'accounts.invalid_threshold',
      status: 422,
      message: `A low-balance threshold is a whole number of credits from 1 to ${MAX_THRESHOLD.toLocaleString('en')}, or empty to switch alerts off.`,
    }),
  signupDisabled: () =>
    new AppError({
      code: 'accounts.signup_disabled',
      status: 403,
      message: 'Sign-up is switched off on this server. Ask the operator for an account.',
    }),
};
