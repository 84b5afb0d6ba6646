import { AppError, validationError } from '../../app/errors.ts';

export const webhooksErrors = {
  invalidUrl: (message: string) => validationError(`webhook_url ${message}.`, [{ path: '/webhook_url', message }]),
  notFound: () => new AppError({ code: 'webhooks.not_found', status: 404, message: 'No such webhook delivery.' }),
};
