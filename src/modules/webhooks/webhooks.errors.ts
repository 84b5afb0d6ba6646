import { AppError } from '../../shared/errors.ts';

export const webhooksErrors = {
  /**
   * The URL is well formed (the schema checked that) but this server will not deliver to it: its own
   * code, so a client can tell the delivery policy (https, no credentials, a public address) from a malformed body.
   */
  invalidUrl: (message: string) =>
    new AppError({
      code: 'webhooks.invalid_url',
      status: 422,
      message: `webhook_url ${message}.`,
      extra: { errors: [{ path: '/webhook_url', message: `webhook_url ${message}` }] },
    }),
  notConfigured: () =>
    new AppError({
      code: 'webhooks.not_configured',
      status: 503,
      message: 'Webhooks are not configured on this server (SECRET_KEY unset): their signing secrets are kept encrypted with it.',
    }),
  deliveryNotFound: () => new AppError({ code: 'webhooks.delivery_not_found', status: 404, message: 'No such webhook delivery.' }),
  alreadyDelivered: () =>
    new AppError({ code: 'webhooks.already_delivered', status: 409, message: 'This delivery already reached its receiver; there is nothing to retry.' }),
};
