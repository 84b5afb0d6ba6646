import { AppError } from '../../shared/errors.ts';

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
  /** Unknown and revoked keys answer alike, so a caller cannot tell which keys once existed. */
  invalid: () => unauthorized('auth.invalid_key', 'The API key is not valid: it is unknown or has been revoked.', true),
  keyInUrl: () =>
    unauthorized(
      'auth.key_in_url',
      'API keys are never accepted in the URL. Send the key in the header "Authorization: Bearer <API key>" and revoke the key you put in the URL.',
      true,
    ),
  nameTaken: (name: string) =>
    new AppError({ code: 'keys.name_taken', status: 409, message: `An active key named "${name}" already exists.` }),
  invalidName: () =>
    new AppError({ code: 'keys.invalid_name', status: 422, message: 'A key name is 1 to 64 characters.' }),
  limitReached: (max: number) =>
    new AppError({
      code: 'keys.limit_reached',
      status: 409,
      message: `An account may hold at most ${max} active keys. Revoke a key you no longer use, then create the new one.`,
    }),
  notFound: () => new AppError({ code: 'keys.not_found', status: 404, message: 'No active key matches.' }),
};
