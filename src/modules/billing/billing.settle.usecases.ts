import type { Kysely } from 'kysely';
import type { Tables } from '../../shared/db/database.ts';
import { formatMoney } from '../../shared/money.ts';
import { creditsTakenBack } from '../credits/credits.prices.ts';
import { creditsIn } from '../credits/credits.usecases.ts';
import { createBillingRepository } from './billing.repository.ts';

/**
 * Brings the ledger of the payment made by `paymentIntentId` to what Stripe's facts say, inside the
 * caller's transaction, which has already locked the PaymentIntent's facts row (`lockIntent`, whose
 * answer is `amountRefunded`). Not "apply this event" but "make it so": a paid payment is credited
 * once (`credited`), and its credits taken back by refunds and disputes move by the difference from
 * what was taken back before (`taken_back`). So a duplicate delivery moves nothing, a refund that
 * arrives before the payment waits in the facts and is taken back when the payment lands, and a
 * dispute won gives back exactly what the dispute took.
 */
export async function settlePayment(trx: Kysely<Tables>, paymentIntentId: string, amountRefunded: number, at: string): Promise<void> {
  const repo = createBillingRepository(trx);
  const payment = await repo.lockByIntent(paymentIntentId, at);
  if (!payment || payment.status !== 'paid') return;
  const credits = creditsIn(trx);
  const disputed = await repo.disputed(paymentIntentId);
  const takenBack = creditsTakenBack({ credits: payment.credits, amount: payment.amount, amountRefunded, disputed });
  const base = { accountId: payment.account_id, paymentId: payment.id, at };

  if (Number(payment.credited) === 0) await credits.receive({ ...base, kind: 'purchase', amount: payment.credits });
  const more = takenBack - Number(payment.taken_back);
  if (more > 0) {
    const why = disputed
      ? `taken back: the payment of ${formatMoney(payment.amount, payment.currency)} is disputed`
      : `taken back: ${formatMoney(amountRefunded, payment.currency)} of ${formatMoney(payment.amount, payment.currency)} refunded`;
    await credits.takeBack({ ...base, amount: more, reason: why });
  }
  if (more < 0) await credits.receive({ ...base, kind: 'reinstatement', amount: -more });
  await repo.recordSettled(payment.id, { credited: payment.credits, takenBack });
}

/**
 * A payment Stripe says was paid by `paymentIntentId` (a Checkout Session's, or a top-up's own):
 * marked paid and settled in the caller's transaction, the PaymentIntent's row locked first as
 * every settlement locks it.
 */
export async function settlePaid(trx: Kysely<Tables>, payment: { sessionId: string } | { paymentId: string }, paymentIntentId: string, at: string): Promise<void> {
  const repo = createBillingRepository(trx);
  const refunded = await repo.lockIntent({ id: paymentIntentId }, at);
  await repo.markPaid(payment, paymentIntentId, at);
  await settlePayment(trx, paymentIntentId, refunded, at);
}
