import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { standing, startBillingApp } from '../support/billing.ts';
import { engines } from '../support/engines.ts';
import type { CardBehaviour, FakeStripe } from '../support/fake-stripe.ts';
import type { TestApp } from '../support/app.ts';

const SECRET_KEY = 'd'.repeat(64);

describe.each(engines)('auto top-up buys one pack per crossing, never twice, on %s', (engine) => {
  let app: TestApp;
  let stripe: FakeStripe;
  let close: () => Promise<void>;
  beforeAll(async () => {
    // No worker: each test runs the top-up pass itself. Scrapes answer 202 at once and hold 100 a pair.
    ({ app, stripe, close } = await startBillingApp(engine, {
      worker: false,
      env: { PRICE_SCRAPE: '100', SCRAPE_SYNC_WAIT_MS: '0', SECRET_KEY, ALLOW_HTTP_WEBHOOKS: 'true', ALLOW_PRIVATE_WEBHOOKS: 'true' },
    }));
  });
  afterAll(() => close());


  /** An account that bought the 500 pack while saving its card, with auto top-up on: below `threshold`, buy 500. */
  async function withAutoTopup(threshold: number, monthlyMax = 3) {
    const account = await app.accountWithKey(0);
    const configured = await app.services.billing.autoTopup.configure(account.accountId, { threshold, packCredits: 500, monthlyMax }, { via: 'dashboard' });
    expect(configured.enabled).toBe(false);
    stripe.complete(configured.checkoutUrl!.split('/').pop()!);
    await stripe.settled();
    expect(await app.services.billing.autoTopup.settings(account.accountId)).toMatchObject({ enabled: true, cardSaved: true });
    expect(await standing(app, account.accountId)).toEqual({ balance: 500, owed: 0 });
    return account;
  }
  /**
   * Holds `credits` as a running job would, without an API call (an API call starts a top-up pass of
   * its own, in the background, which would race the pass a test runs).
   */
  const holdQuietly = (accountId: string, credits: number) =>
    app.services.db.updateTable('accounts').set({ held: credits }).where('id', '=', accountId).execute();
  const spend = (token: string, hundreds: number) =>
    Promise.all(Array.from({ length: hundreds }, () => app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/node'], keywords: ['node'] } })));
  /** The off-session PaymentIntents the fake was asked for, by their idempotency keys. */
  const offSessionKeys = () =>
    new Set(stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents' && r.status === 200).map((r) => r.idempotencyKey));
  const topupsOf = (accountId: string) =>
    app.services.db.selectFrom('payments').selectAll().where('account_id', '=', accountId).where('source', '=', 'topup').execute();
  const cardOf = async (accountId: string) =>
    (await app.services.db.selectFrom('auto_topups').select('payment_method_id').where('account_id', '=', accountId).executeTakeFirstOrThrow()).payment_method_id!;
  const failuresSent = async (accountId: string) =>
    (await app.services.webhooks.recentDeliveries(accountId)).filter((d) => d.event_type === 'credits.topup_failed');

  /** The PaymentIntents Stripe charged for one top-up payment (its metadata names the payment). */
  const chargesOf = (paymentId: string) =>
    stripe.events.filter((e) => e.type === 'payment_intent.succeeded' && (e.data.object as { metadata: Record<string, string> }).metadata.payment_id === paymentId);

  /**
   * An account whose top-up Stripe charged without the process hearing of it: no answer comes back,
   * three times over (stripe-node retries twice), and the webhook cannot reach us either, which is
   * what a crash between Stripe's answer and the ledger would leave. The top-up stays pending.
   */
  async function chargedUnheard() {
    const { accountId } = await withAutoTopup(300);
    stripe.loseAnswers(3, (r) => r.path === '/v1/payment_intents');
    stripe.webhookUrl = null;
    await holdQuietly(accountId, 300);
    await app.services.billing.autoTopup.flush();
    stripe.webhookUrl = `${app.url}/webhooks/stripe`;
    const [pending] = await topupsOf(accountId);
    expect(pending).toMatchObject({ status: 'pending', credited: 0 });
    expect(chargesOf(pending!.id)).toHaveLength(1);
    return { accountId, pending: pending! };
  }

  it('three scrapes at once crossing the threshold buy the pack once, and it is credited once', async () => {
    const { accountId, token } = await withAutoTopup(300);
    expect((await spend(token, 3)).map((r) => r.status)).toEqual([202, 202, 202]);
    await Promise.all([app.services.billing.autoTopup.flush(), app.services.billing.autoTopup.flush()]);
    await app.services.billing.autoTopup.flush();
    expect(await standing(app, accountId)).toEqual({ balance: 200 + 500, owed: 0 });
    const [topup, ...more] = await topupsOf(accountId);
    expect(more).toEqual([]);
    expect(topup).toMatchObject({ status: 'paid', credits: 500, amount: 500, currency: 'usd', credited: 500 });
    expect([...offSessionKeys()].filter((key) => key === `topup-${topup!.id}`)).toHaveLength(1);
    const usage = await app.services.credits.usage(accountId, { limit: 5 });
    expect(usage.data[0]).toMatchObject({ type: 'purchase', amount: 500, description: 'Auto top-up for 5.00 USD', payment: { source: 'topup', amount: 500, currency: 'usd' } });
  });

  it('a lost answer from Stripe leaves the top-up pending; the retry with the same key and reconcile credit it once', async () => {
    const { accountId, pending } = await chargedUnheard();
    expect(await standing(app, accountId)).toEqual({ balance: 200, owed: 0 });

    // As after a crash: the missed events are applied by reconcile, then the pass asks again with the same key.
    const reconciled = await app.services.billing.reconcile(new Date(Date.now() - 60_000));
    expect(reconciled.applied).toBeGreaterThan(0);
    await app.services.billing.autoTopup.flush();
    expect(await standing(app, accountId)).toEqual({ balance: 700, owed: 0 });
    expect(chargesOf(pending.id)).toHaveLength(1);
    await app.services.billing.reconcile(new Date(Date.now() - 60_000));
    expect(await standing(app, accountId)).toEqual({ balance: 700, owed: 0 });
  });

  it('a pass that retries a pending top-up after a restart gets Stripe\'s first answer, not a second charge', async () => {
    const { accountId } = await chargedUnheard();
    await app.services.billing.autoTopup.flush();
    const [topup] = await topupsOf(accountId);
    expect(topup).toMatchObject({ status: 'paid', credited: 500 });
    expect(chargesOf(topup!.id)).toHaveLength(1);
    expect(await standing(app, accountId)).toEqual({ balance: 700, owed: 0 });
  });

  it.each<[CardBehaviour, string]>([
    ['declined', 'card_declined'],
    ['authentication_required', 'authentication_required'],
  ])('a card that is %s fails the top-up, sends credits.topup_failed, switches auto top-up off and is never charged again', async (behaviour, code) => {
    const { accountId, token } = await withAutoTopup(300);
    await app.services.accountSettings.setWebhookUrl(accountId, 'http://127.0.0.1:9/hooks');
    const failedCard = await cardOf(accountId);
    stripe.savedCardBehaviour(failedCard, behaviour);
    await spend(token, 3); // 200: below
    await app.services.billing.autoTopup.flush();
    const charges = () => stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents').length;
    const tried = charges();
    // The next crossings charge nothing: the card that failed is not asked again.
    for (let crossing = 0; crossing < 2; crossing++) {
      await app.services.credits.grant(accountId, 200, 'back above'); // 400: the next fall is a new crossing
      await app.services.billing.autoTopup.flush();
      await spend(token, 2); // 200 again
      await app.services.billing.autoTopup.flush();
    }
    expect(charges()).toBe(tried);
    const failures = await failuresSent(accountId);
    expect(failures.map((d) => JSON.parse(d.payload).data)).toEqual([expect.objectContaining({ code, failures_in_a_row: 1, auto_topup_disabled: true })]);
    expect(await app.services.billing.autoTopup.settings(accountId)).toMatchObject({ enabled: false, cardSaved: false, failures: 1, lastFailure: expect.any(String) });
    expect((await topupsOf(accountId)).map((p) => p.status)).toEqual(['failed']);
    expect(await standing(app, accountId)).toEqual({ balance: 200, owed: 0 });

    // Saving again asks for a card at a new checkout; it is on again with that card.
    const again = await app.services.billing.autoTopup.configure(accountId, { threshold: 300, packCredits: 500, monthlyMax: 5 }, { via: 'dashboard' });
    expect(again).toMatchObject({ enabled: false, checkoutUrl: expect.any(String) });
    stripe.complete(again.checkoutUrl!.split('/').pop()!);
    await stripe.settled();
    expect(await app.services.billing.autoTopup.settings(accountId)).toMatchObject({ enabled: true, failures: 0, lastFailure: null });
    expect(await cardOf(accountId)).not.toBe(failedCard);
  });

  it('a save-card checkout redelivered or reconciled after the owner turned auto top-up off, or after a decline, changes nothing and charges nothing', async () => {
    const { accountId, token } = await withAutoTopup(300);
    const saved = stripe.events.filter((e) => e.type === 'checkout.session.completed').at(-1)!;
    const settingsOf = () => app.services.db.selectFrom('auto_topups').selectAll().where('account_id', '=', accountId).executeTakeFirstOrThrow();
    const charges = () => stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents').length;

    // Off by its owner: Stripe redelivers the original completion, the operator reconciles.
    await app.services.billing.autoTopup.turnOff(accountId);
    const off = await settingsOf();
    expect((await stripe.deliver(saved)).status).toBe(200);
    await app.services.billing.reconcile(new Date(Date.now() - 3_600_000));
    expect(await settingsOf()).toEqual(off);
    const before = charges();
    await spend(token, 3); // 200: below the threshold
    await app.services.billing.autoTopup.flush();
    expect(charges()).toBe(before);
    expect(await standing(app, accountId)).toEqual({ balance: 200, owed: 0 });

    // Switched off by a decline: the replay neither clears the failure nor puts the declined card back.
    await app.services.credits.grant(accountId, 300, 'back above');
    await app.services.billing.autoTopup.configure(accountId, { threshold: 300, packCredits: 500, monthlyMax: 5 }, { via: 'dashboard' });
    stripe.savedCardBehaviour(off.payment_method_id!, 'declined');
    await spend(token, 3);
    await app.services.billing.autoTopup.flush();
    const declined = await settingsOf();
    expect(declined).toMatchObject({ enabled: 0, payment_method_id: null, failures: 1 });
    expect((await stripe.deliver(saved)).status).toBe(200);
    await app.services.billing.reconcile(new Date(Date.now() - 3_600_000));
    expect(await settingsOf()).toEqual(declined);
  });

  it('a PaymentIntent made outside subpilot whose metadata names a failed top-up credits nothing: amount, currency and customer must be the payment\'s', async () => {
    const { accountId, token } = await withAutoTopup(300);
    stripe.savedCardBehaviour(await cardOf(accountId), 'declined');
    await spend(token, 3);
    await app.services.billing.autoTopup.flush();
    const [failed] = await topupsOf(accountId);
    expect(failed).toMatchObject({ status: 'failed', credits: 500, amount: 500 });
    const { customer_id: customer } = await app.services.db.selectFrom('auto_topups').select('customer_id').where('account_id', '=', accountId).executeTakeFirstOrThrow();

    // As someone with the Stripe account's key would make them by hand, each naming the failed payment.
    const byHand = (fields: Record<string, string>) =>
      fetch(`${stripe.url}/v1/payment_intents`, {
        method: 'POST',
        headers: { authorization: `Bearer ${stripe.secretKey}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ currency: 'usd', payment_method: 'pm_card_visa', confirm: 'true', 'metadata[payment_id]': failed!.id, ...fields }),
      });
    const attempts: Record<string, string>[] = [{ amount: '50' }, { amount: '500' }, { amount: '500', currency: 'eur', customer: customer! }];
    for (const fields of attempts) {
      expect((await byHand(fields)).status, JSON.stringify(fields)).toBe(200);
    }
    await stripe.settled();
    expect(stripe.deliveries.filter((d) => d.type === 'payment_intent.succeeded').slice(-3).map((d) => d.status)).toEqual([200, 200, 200]);
    await app.services.billing.reconcile(new Date(Date.now() - 60_000)); // and applied again, as an operator would
    expect(await topupsOf(accountId)).toEqual([expect.objectContaining({ status: 'failed', credited: 0 })]);
    expect(await standing(app, accountId)).toEqual({ balance: 200, owed: 0 });
  });

  it('stops at the monthly maximum: a second crossing in the month buys nothing', async () => {
    const { accountId, token } = await withAutoTopup(300, 1);
    await spend(token, 3);
    await app.services.billing.autoTopup.flush();
    expect(await standing(app, accountId)).toEqual({ balance: 700, owed: 0 });
    await spend(token, 5); // 200: below again
    await app.services.billing.autoTopup.flush();
    expect(await topupsOf(accountId)).toHaveLength(1);
    expect(await app.services.billing.autoTopup.settings(accountId)).toMatchObject({ enabled: true, thisMonth: 1, monthlyMax: 1 });
  });

  it('a purchase made while auto top-up is off changes nothing about it: no card, no top-up', async () => {
    const { accountId, token } = await app.accountWithKey(1000);
    await spend(token, 9);
    await app.services.billing.autoTopup.flush();
    expect(await topupsOf(accountId)).toEqual([]);
    expect(await app.services.billing.autoTopup.settings(accountId)).toBeNull();
  });
});
