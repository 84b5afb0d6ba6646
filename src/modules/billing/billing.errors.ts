import { AppError } from '../../shared/errors.ts';
import type { CreditPack } from '../../shared/config/billing.ts';

export const billingErrors = {
  /** This instance sells nothing (no STRIPE_SECRET_KEY): the way to credits is the operator. */
  notConfigured: (howToGet: string) =>
    new AppError({ code: 'billing.not_configured', status: 409, message: `This service does not sell credits. ${howToGet}` }),
  unknownPack: (packs: readonly CreditPack[]) =>
    new AppError({
      code: 'billing.unknown_pack',
      status: 422,
      message: `No pack has that many credits. The packs on sale have ${packs.map((pack) => pack.credits).join(', ')} credits.`,
      extra: { packs: packs.map((pack) => pack.credits) },
    }),
  /** Stripe refused or did not answer: no session exists, so nothing can be charged. */
  checkoutFailed: (cause: unknown) =>
    new AppError({
      code: 'billing.checkout_failed',
      status: 502,
      message: 'Stripe did not open a checkout page; nothing was charged. Try again in a moment.',
      cause,
    }),
  /** Wrong, missing or stale `Stripe-Signature`: the body was not sent by Stripe (or not now), so it changes nothing. */
  invalidSignature: () =>
    new AppError({
      code: 'billing.invalid_signature',
      status: 400,
      message: 'The Stripe-Signature header is missing, does not match the body, or is older than 5 minutes; nothing was changed.',
    }),
  invalidTopup: () =>
    new AppError({
      code: 'billing.invalid_topup',
      status: 422,
      message: 'Auto top-up needs a threshold of 1 credit or more and a monthly maximum from 1 to 100 top-ups.',
    }),
  paymentNotFound: () => new AppError({ code: 'billing.payment_not_found', status: 404, message: 'This account has no payment with that id.' }),
};
