import { AppError } from '../../shared/errors.ts';

export const ratelimitErrors = {
  exceeded: (facts: { policy: 'per-key' | 'per-account'; limit: number; resetSeconds: number; headers: Record<string, string> }) =>
    new AppError({
      code: 'rate_limit.exceeded',
      status: 429,
      message:
        `${facts.policy === 'per-key' ? 'This key' : "This key's account (all its keys together)"} made more than ${facts.limit} ` +
        `requests this minute; retry after ${facts.resetSeconds} s. Nothing was charged.`,
      extra: { policy: facts.policy },
      headers: { ...facts.headers, 'retry-after': String(facts.resetSeconds) },
    }),
  tooManyFailures: (retryAfter: number) =>
    new AppError({
      code: 'auth.too_many_failures',
      status: 429,
      message: `Too many requests with a missing or invalid API key from this address; retry after ${retryAfter} s.`,
      headers: { 'retry-after': String(retryAfter) },
    }),
};
