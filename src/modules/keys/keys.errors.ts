import { AppError } from '../../shared/errors.ts';
import type { Scope } from './keys.scopes.ts';

const CHALLENGE = 'Bearer realm="subpilot"';

const unauthorized = (code: string, message: string, tokenPresented: boolean) =>
  new AppError({
    code,
    status: 401,
    message,
    headers: { 'www-authenticate': tokenPresented ? `${CHALLENGE}, error="invalid_token"` : CHALLENGE },
  });

export const keysErrors = {
  missing: () =>
    unauthorized('auth.missing', 'Send your API key in the header "Authorization: Bearer <API key>".', false),
  malformed: (reason: string) => unauthorized('auth.malformed', `Malformed Authorization header: ${reason}.`, true),
  /** Unknown, revoked and expired keys answer alike, so a caller cannot tell which keys once existed. */
  invalid: () => unauthorized('auth.invalid_key', 'The API key is not valid: it is unknown, revoked or expired.', true),
  /** RFC 6750 section 3.1: the key is good but may not do this; the challenge names the scope needed. */
  insufficientScope: (needed: Scope, held: readonly Scope[]) =>
    new AppError({
      code: 'auth.insufficient_scope',
      status: 403,
      message:
        `This key may not call this endpoint: it needs the "${needed}" scope, and the key has ${held.join(', ') || 'none'}. ` +
        'Nothing was charged.',
      extra: { required_scope: needed, key_scopes: held },
      headers: { 'www-authenticate': `${CHALLENGE}, error="insufficient_scope", scope="${needed}"` },
    }),
  keyInUrl: () =>
    unauthorized(
      'auth.key_in_url',
      'API keys are never accepted in the URL. Send the key in the header "Authorization: Bearer <API key>" and revoke the key you put in the URL.',
      true,
    ),
  nameTaken: (name: string, expired: boolean) =>
    new AppError({
      code: 'keys.name_taken',
      status: 409,
      message: expired
        ? `The key named "${name}" has expired but keeps its name until it is revoked: revoke it, or choose another name.`
        : `An active key named "${name}" already exists.`,
    }),
  invalidScopes: (reason: string) =>
    new AppError({ code: 'keys.invalid_scopes', status: 422, message: `Invalid scopes: ${reason}.` }),
  invalidLimit: () =>
    new AppError({
      code: 'keys.invalid_limit',
      status: 422,
      message: 'A monthly credit limit is a whole number of credits from 1 to 1,000,000,000.',
    }),
  invalidOverlap: (choices: readonly string[]) =>
    new AppError({ code: 'keys.invalid_overlap', status: 422, message: `The overlap of a roll is one of ${choices.join(', ')}.` }),
  invalidExpiry: (reason: string) =>
    new AppError({
      code: 'keys.invalid_expiry',
      status: 422,
      message: `Invalid expiry: ${reason}. Give a future date (2027-01-01: the key works through that UTC day) or instant (2027-01-01T09:00:00Z).`,
    }),
  invalidName: () =>
    new AppError({ code: 'keys.invalid_name', status: 422, message: 'A key name is 1 to 64 characters.' }),
  limitReached: (max: number) =>
    new AppError({
      code: 'keys.limit_reached',
      status: 409,
      message:
        `An account may hold at most ${max} active keys, a rolled key counting until its overlap ends. ` +
        'Revoke a key you no longer use, then create the new one.',
    }),
  notFound: () => new AppError({ code: 'keys.not_found', status: 404, message: 'No active key matches.' }),
  /** Rolling needs a key that still works and was not rolled before: its successor is the one to roll. */
  notRollable: () =>
    new AppError({
      code: 'keys.not_found',
      status: 404,
      message:
        'No key matches that can be rolled: revoked, expired and already rolled keys cannot be (roll the key that replaced it).',
    }),
};
