import { AppError } from '../../shared/errors.ts';

export const destinationsErrors = {
  /** Well formed (the schema checked that), but not a webhook of the named service: its own code, so a client can tell. */
  invalidUrl: (message: string) =>
    new AppError({ code: 'destinations.invalid_url', status: 422, message: `url ${message}.`, extra: { errors: [{ path: '/url', message: `url ${message}` }] } }),
  notConfigured: () =>
    new AppError({
      code: 'destinations.not_configured',
      status: 503,
      message: 'Destinations are not configured on this server (SECRET_KEY unset): their webhook URLs are kept encrypted with it.',
    }),
  notFound: () => new AppError({ code: 'destinations.not_found', status: 404, message: 'No such destination.' }),
  limitReached: (limit: number) =>
    new AppError({ code: 'destinations.limit_reached', status: 422, message: `This account already has ${limit} destinations, the most it may have; delete one first.` }),
  off: (reason: string) =>
    new AppError({ code: 'destinations.off', status: 409, message: `This destination is switched off (${reason}); create it again with a working URL.` }),
};
