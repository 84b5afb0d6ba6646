import { AppError, validationError } from '../../shared/errors.ts';

export const webhooksErrors = {
  invalidUrl: (message: string) => validationError(`webhook_url ${message}.`, [{ path: '/webhook_url', message }]),
  notConfigured: () =>
    new AppError({
      code: 'webhooks.not_configured',
      status: 503,
      message: 'Webhooks are not configured on this server (SECRET_KEY unset): their signing secrets are kept encrypted with it.',
    }),
};
