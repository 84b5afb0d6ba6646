import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { isAppError, type AppError } from '../../shared/errors.ts';
import { contentSecurityPolicy } from '../../shared/http/page-security.ts';
import type { AccountSettingsUsecases } from '../accounts/accounts.usecases.ts';
import type { BillingUsecases } from '../billing/billing.usecases.ts';
import type { CreditsUsecases } from '../credits/credits.usecases.ts';
import { formProblem, sendPage } from './dashboard.reply.ts';
import { sessionOf, viewerOf } from './dashboard.session.ts';
import { paymentPage, type TopupInput } from './views/credits-buy.ts';
import { creditsPage, type CreditsPage } from './views/credits.ts';
import type { Viewer } from './views/layout.ts';

const PAGE_SIZE = 25;
const NOTICES = {
  threshold: 'The low-balance threshold was saved.',
  topup: 'Auto top-up is on.',
  topup_off: 'Auto top-up is off.',
} as const;
const field = Type.Optional(Type.String({ maxLength: 20 }));
const creditsQuery = Type.Object({
  cursor: Type.Optional(Type.String({ maxLength: 200 })),
  done: Type.Optional(Type.Union([Type.Literal('threshold'), Type.Literal('topup'), Type.Literal('topup_off')])),
  // Stripe's cancel_url (billing.usecases.ts): the buyer left the checkout page without paying.
  checkout: Type.Optional(Type.Literal('cancelled')),
});
const csrfOnly = Type.Object({ csrf: Type.Optional(Type.String()) });
const thresholdBody = Type.Object({ csrf: Type.Optional(Type.String()), threshold: Type.String({ maxLength: 20 }) });
const buyBody = Type.Object({ csrf: Type.Optional(Type.String()), credits: field });
const topupBody = Type.Object({ csrf: Type.Optional(Type.String()), threshold: field, pack: field, monthly_max: field });
const returnQuery = Type.Object({ payment: Type.String({ maxLength: 100 }) });

type Extras = Pick<CreditsPage, 'notice' | 'thresholdError' | 'thresholdInput' | 'buyError' | 'topupError' | 'topupInput'>;

/** Digits are a number whose range the usecase checks; anything else is NaN, which it refuses in words too. */
const wholeNumber = (input: string) => (/^\d+$/.test(input) ? Number(input) : Number.NaN);

/**
 * A Buy or auto top-up refused (4xx) or failed at Stripe (502: nothing was charged, and the same button
 * may be pressed again) is shown on the Credits page; an unexpected error goes to the error page.
 */
function paymentProblem(error: unknown): AppError {
  if (isAppError(error)) return error;
  throw error;
}

/**
 * The origins Stripe's checkout pages are served from: checkout.stripe.com, and the host of a Stripe
 * API that is not Stripe's own (the fake in tests serves its pages beside its API). None without Stripe.
 */
export function checkoutOrigins(stripeApiUrl: string | null): string[] {
  if (!stripeApiUrl) return [];
  const api = new URL(stripeApiUrl).origin;
  return api === 'https://api.stripe.com' ? ['https://checkout.stripe.com'] : ['https://checkout.stripe.com', api];
}

/**
 * The Credits page: the balance and what is owed, buying packs through Stripe Checkout and the page it
 * returns to, auto top-up, the low-balance threshold and the ledger. Behind requireSession. The
 * dashboard never moves credits itself: Stripe's webhook, through the billing usecases, adds them.
 */
export const creditsRoutes: FastifyPluginAsyncTypebox<{
  credits: CreditsUsecases;
  accountSettings: AccountSettingsUsecases;
  billing: BillingUsecases;
  /** Where Buy and auto top-up may send the browser (checkoutOrigins). */
  checkoutOrigins: string[];
}> = async (app, { credits, accountSettings, billing, checkoutOrigins: origins }) => {
  const render = async (request: FastifyRequest, reply: FastifyReply, cursor: string | undefined, extras: Extras) => {
    const { accountId } = sessionOf(request);
    const offer = billing.offer();
    const selling = offer.packs.length > 0;
    const [standing, usage, settings, topup] = await Promise.all([
      credits.standing(accountId),
      credits.usage(accountId, { limit: PAGE_SIZE, cursor }),
      accountSettings.settings(accountId),
      selling ? billing.autoTopup.settings(accountId) : null,
    ]);
    // Buy and auto top-up are answered by a redirect to Stripe, which form-action governs too: only this page may lead there.
    if (selling && origins.length > 0) reply.header('content-security-policy', contentSecurityPolicy({ formTargets: origins }));
    return creditsPage({
      viewer: viewerOf(request)!,
      balance: standing.balance,
      owed: standing.owed,
      usage,
      firstPage: !cursor,
      threshold: settings.low_balance_threshold,
      offer,
      howToGet: `${billing.whereToGetCredits()}.`,
      topup,
      ...extras,
    });
  };

  app.get('/credits', { schema: { querystring: creditsQuery } }, async (request, reply) => {
    const { cursor, done, checkout } = request.query;
    const notice = checkout ? 'Checkout cancelled; nothing was charged.' : done ? NOTICES[done] : undefined;
    return sendPage(reply, await render(request, reply, cursor, { notice }));
  });

  app.post('/credits/low-balance', { schema: { body: thresholdBody } }, async (request, reply) => {
    const input = request.body.threshold.trim();
    try {
      // Empty switches alerts off.
      await accountSettings.setLowBalanceThreshold(sessionOf(request).accountId, input === '' ? null : wholeNumber(input));
    } catch (error) {
      const problem = formProblem(error);
      return sendPage(reply, await render(request, reply, undefined, { thresholdError: problem.message, thresholdInput: input }), problem.status);
    }
    return reply.redirect('/dashboard/credits?done=threshold', 303);
  });

  app.post('/credits/buy', { schema: { body: buyBody } }, async (request, reply) => {
    const input = request.body.credits?.trim() ?? '';
    let checkoutUrl: string;
    try {
      ({ url: checkoutUrl } = await billing.checkout(sessionOf(request).accountId, wholeNumber(input), { via: 'dashboard' }));
    } catch (error) {
      const problem = paymentProblem(error);
      return sendPage(reply, await render(request, reply, undefined, { buyError: problem.message }), problem.status);
    }
    return reply.redirect(checkoutUrl, 303);
  });

  app.get('/credits/return', { schema: { querystring: returnQuery } }, async (request, reply) => {
    const { accountId } = sessionOf(request);
    // Another account's payment, or none: billing answers 404, which the dashboard shows as its 404 page.
    const payment = await billing.payment(accountId, request.query.payment);
    const { balance } = await credits.standing(accountId);
    return sendPage(reply, paymentPage({ viewer: viewerOf(request)!, payment, balance }));
  });

  app.post('/credits/auto-topup', { schema: { body: topupBody } }, async (request, reply) => {
    const { threshold = '', pack = '', monthly_max: monthlyMax = '' } = request.body;
    const input: TopupInput = { threshold: threshold.trim(), pack: pack.trim(), monthlyMax: monthlyMax.trim() };
    let checkoutUrl: string | null;
    try {
      const choice = { threshold: wholeNumber(input.threshold), packCredits: wholeNumber(input.pack), monthlyMax: wholeNumber(input.monthlyMax) };
      ({ checkoutUrl } = await billing.autoTopup.configure(sessionOf(request).accountId, choice, { via: 'dashboard' }));
    } catch (error) {
      const problem = paymentProblem(error);
      return sendPage(reply, await render(request, reply, undefined, { topupError: problem.message, topupInput: input }), problem.status);
    }
    // Without a saved card: Stripe's checkout page buys the pack once and saves the card, which turns auto top-up on.
    return reply.redirect(checkoutUrl ?? '/dashboard/credits?done=topup', 303);
  });

  app.post('/credits/auto-topup/off', { schema: { body: csrfOnly } }, async (request, reply) => {
    await billing.autoTopup.turnOff(sessionOf(request).accountId);
    return reply.redirect('/dashboard/credits?done=topup_off', 303);
  });
};
