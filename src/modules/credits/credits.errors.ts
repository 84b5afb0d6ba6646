import { plural } from '../../shared/text.ts';
import { AppError } from '../../shared/errors.ts';

/** What a refused call would have cost, and the spendable balance where the balance refused it: the headers of a 402. */
const refusalHeaders = (required: number, balance?: number): Record<string, string> => ({
  'credits-required': String(required),
  ...(balance === undefined ? {} : { 'credits-balance': String(balance) }),
});

export const creditsErrors = {
  /**
   * `howToGet` ends the message: the API and MCP replace the generic words with where this service
   * sells credits or whom to ask (billing.usecases.ts `explainRefusal`), adding `buy_url` when it sells them.
   */
  insufficient: (balance: number, required: number, howToGet = 'Add credits and try again.', buyUrl?: string) =>
    new AppError({
      code: 'credits.insufficient',
      status: 402,
      message: `This request costs ${plural(required, 'credit')} and the account balance is ${balance}. ${howToGet}`,
      extra: { balance, required, ...(buyUrl ? { buy_url: buyUrl } : {}) },
      headers: refusalHeaders(required, balance),
    }),
  /**
   * A payment condition like the balance, hence 402 and not 429: retrying within the month will not
   * help, only a higher limit or the next month will (docs/api/keys.md: Monthly spend limits of keys).
   */
  keyLimitReached: (facts: { limit: number; spent: number; required: number; resetsAt: string }) =>
    new AppError({
      code: 'credits.key_limit_reached',
      status: 402,
      message:
        `This request costs ${plural(facts.required, 'credit')} and this key has spent ${facts.spent} of its monthly limit of ${facts.limit}. ` +
        `The limit resets at ${facts.resetsAt}; the account's other keys are not affected.`,
      extra: { limit: facts.limit, spent: facts.spent, required: facts.required, resets_at: facts.resetsAt },
      headers: refusalHeaders(facts.required),
    }),
  keyNotFound: () =>
    new AppError({
      code: 'credits.key_not_found',
      status: 404,
      message: 'No key of this account has that prefix. A prefix is "ak_live_" and the 8 characters after it, as the key list shows.',
    }),
  invalidAmount: () =>
    new AppError({ code: 'credits.invalid_amount', status: 422, message: 'An amount is a whole number of credits above 0.' }),
};
