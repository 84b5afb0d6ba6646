import { AppError } from '../../shared/errors.ts';
import { RedditTimeoutError } from '../../integrations/reddit/reddit.user.ts';

export const connectionsErrors = {
  notConfigured: (missing: string[]) =>
    new AppError({
      code: 'connections.not_configured',
      status: 503,
      message: `Reddit connections are not configured on this server (${missing.join(', ')} unset).`,
    }),
  stateInvalid: () =>
    new AppError({
      code: 'connections.state_invalid',
      status: 400,
      message: 'This Reddit authorization was not started from your current dashboard session or has expired. Start again.',
    }),
  denied: () =>
    new AppError({ code: 'connections.denied', status: 400, message: 'Reddit says the connection was not approved; nothing was connected.' }),
  notConnected: () =>
    new AppError({
      code: 'connections.not_connected',
      status: 409,
      message: 'This account has no connected Reddit identity. Connect one on the Connections page of the dashboard.',
    }),
  revoked: () =>
    new AppError({
      code: 'connections.revoked',
      status: 409,
      message: 'Reddit no longer accepts this account’s authorization (it was revoked or expired). Connect again on the Connections page.',
    }),
  redditUnavailable: (error: Error) =>
    new AppError({
      code: 'connections.reddit_unavailable',
      status: error instanceof RedditTimeoutError ? 504 : 502,
      message: `Reddit could not be reached (${error.message}). Try again later.`,
    }),
};
