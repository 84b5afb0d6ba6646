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
  /** Each kind names where its messages go in its own field: a rule between fields the schema states (x-refused-as). */
  invalidTarget: (kind: string, field: 'url' | 'address') => {
    const needs = kind === 'email' ? 'address (the email address)' : kind === 'telegram' ? 'neither url nor address (the chat is linked through the bot)' : 'url (its webhook URL)';
    const given = (kind === 'email' && field === 'address') || ((kind === 'slack' || kind === 'discord') && field === 'url');
    return new AppError({
      code: 'destinations.invalid_target',
      status: 422,
      message: `A ${kind} destination takes ${needs}${given ? `; ${field} is missing` : `, not ${field}`}.`,
      extra: { errors: [{ path: `/${field}`, message: given ? `${field} is required for a ${kind} destination` : `${field} is not taken by a ${kind} destination` }] },
    });
  },
  channelNotConfigured: (channel: string, settings: string) =>
    new AppError({
      code: 'destinations.channel_not_configured',
      status: 503,
      message: `${channel} destinations are not configured on this server: the operator sets ${settings} (see /docs/guides/operations#configuration).`,
    }),
  unconfirmed: (kind: string) =>
    new AppError({
      code: 'destinations.unconfirmed',
      status: 409,
      message:
        kind === 'email'
          ? 'This address is not confirmed yet: follow the link in the mail sent to it, then send a test.'
          : 'This Telegram chat is not linked yet: open the destination\'s link in Telegram and press Start, then send a test.',
    }),
  linkInvalid: () =>
    new AppError({ code: 'destinations.link_invalid', status: 404, message: 'This link is not valid: it may be incomplete, or its destination was deleted. Add the destination again on the dashboard.' }),
  linkExpired: () =>
    new AppError({ code: 'destinations.link_expired', status: 410, message: 'This link has expired (it works for 7 days). Delete the destination on the dashboard and add it again for a new one.' }),
  notFound: () => new AppError({ code: 'destinations.not_found', status: 404, message: 'No such destination.' }),
  limitReached: (limit: number) =>
    new AppError({ code: 'destinations.limit_reached', status: 422, message: `This account already has ${limit} destinations, the most it may have; delete one first.` }),
  off: (reason: string) =>
    new AppError({ code: 'destinations.off', status: 409, message: `This destination is switched off (${reason}); create it again with a working URL.` }),
  /** A rule between the fields of a route the schema states (x-refused-as): `at` and `time_zone` are a daily digest's. */
  invalidSchedule: (frequency: string) =>
    new AppError({
      code: 'destinations.invalid_schedule',
      status: 422,
      message: `at and time_zone set the time of a daily digest; leave them out of a route that is ${frequency}.`,
      extra: { errors: [{ path: '/at', message: `at and time_zone are for "daily" only, not "${frequency}"` }] },
    }),
  invalidTimeZone: (zone: string) =>
    new AppError({
      code: 'destinations.invalid_time_zone',
      status: 422,
      message: `time_zone "${zone}" is not a time zone this server knows; use an IANA name such as Europe/Berlin or America/New_York.`,
      extra: { errors: [{ path: '/time_zone', message: 'must be an IANA time zone name, such as Europe/Berlin' }] },
    }),
  routeNotFound: () => new AppError({ code: 'destinations.route_not_found', status: 404, message: 'This monitor does not send to that destination.' }),
};
