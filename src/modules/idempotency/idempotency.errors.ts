import { AppError } from '../../shared/errors.ts';

export const idempotencyErrors = {
  invalidKey: () =>
    new AppError({
      code: 'idempotency.invalid_key',
      status: 400,
      message: 'An Idempotency-Key is 1 to 255 visible ASCII characters, bare or quoted ("…"); a UUID is a good choice.',
    }),
  keyReused: () =>
    new AppError({
      code: 'idempotency.key_reused',
      status: 422,
      message: 'This Idempotency-Key was used with a different request; use a new key for a new request.',
    }),
  inProgress: () =>
    new AppError({
      code: 'idempotency.in_progress',
      status: 409,
      message: 'A request with this Idempotency-Key is still being processed; retry in a moment to get its result.',
      headers: { 'retry-after': '1' },
    }),
};
