import { sql } from 'kysely';
import { expect } from 'vitest';
import { startTestApp, type TestApp } from './app.ts';
import type { Engine } from './engines.ts';
import { startFakeStripe, type FakeStripe } from './fake-stripe.ts';
import { ledgerSum } from './ledger.ts';

export const PACKS = '500:5.00,2000:18.00';

/**
 * A test app that sells credits through a fake Stripe, whose events go to the app's /webhooks/stripe.
 * `publicUrl: 'self'`: Checkout sends the browser back to the app itself (else to an address no test opens).
 */
export async function startBillingApp(
  engine: Engine,
  options: { env?: Record<string, string>; worker?: boolean; publicUrl?: 'self' } = {},
): Promise<{ app: TestApp; stripe: FakeStripe; close(): Promise<void> }> {
  const stripe = await startFakeStripe();
  const app = await startTestApp(engine, {
    worker: options.worker,
    publicUrl: options.publicUrl,
    env: {
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_URL: stripe.url,
      CREDIT_PACKS: PACKS,
      ...(options.publicUrl ? {} : { PUBLIC_URL: 'https://subpilot.example.com' }),
      ...options.env,
    },
  });
  stripe.webhookUrl = `${app.url}/webhooks/stripe`;
  return {
    app,
    stripe,
    async close() {
      await app.close();
      await stripe.close();
    },
  };
}

/** A Checkout Session for `credits` opened by the account, as the API or the dashboard opens it. */
export async function openCheckout(app: TestApp, accountId: string, credits: number) {
  const { payment, url } = await app.services.billing.checkout(accountId, credits, { via: 'api' });
  const sessionId = url.split('/').pop()!;
  return { paymentId: payment.id, sessionId };
}

/** What the account can spend and owes, and the checks every money test ends with: both equal their ledger. */
export async function standing(app: TestApp, accountId: string): Promise<{ balance: number; owed: number }> {
  const db = app.services.db;
  const account = await db.selectFrom('accounts').select(['balance', 'held', 'owed']).where('id', '=', accountId).executeTakeFirstOrThrow();
  expect(await ledgerSum(db, accountId)).toBe(Number(account.balance));
  const owed = await db
    .selectFrom('credit_ledger')
    .select(sql<number>`coalesce(sum(owed_change), 0)`.as('total'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  expect(Number(owed.total)).toBe(Number(account.owed));
  expect(Number(account.balance) - Number(account.held)).toBeGreaterThanOrEqual(0);
  return { balance: Number(account.balance) - Number(account.held), owed: Number(account.owed) };
}

/** The account's ledger rows about payments, oldest first: kind, amount and owed change. */
export async function paymentRows(app: TestApp, accountId: string) {
  const rows = await app.services.db
    .selectFrom('credit_ledger')
    .select(['kind', 'amount', 'owed_change'])
    .where('account_id', '=', accountId)
    .where('payment_id', 'is not', null)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ kind: row.kind, amount: Number(row.amount), owed: Number(row.owed_change) }));
}
