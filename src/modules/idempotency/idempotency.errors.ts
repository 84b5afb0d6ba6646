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
      // Said to the twin that lost the race to commit: its own transaction rolled back, so it did nothing.
      message:
        'Another request with this Idempotency-Key was being processed at the same moment and went first; this one did ' +
        'nothing. Retry with the key in a moment to get that request\'s result.',
      headers: { 'retry-after': '1' },
    }),
};
