import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCheckout, paymentRows, standing, startBillingApp } from '../support/billing.ts';
import { engines } from '../support/engines.ts';
import type { FakeStripe, StripeEvent } from '../support/fake-stripe.ts';
import type { TestApp } from '../support/app.ts';

describe.each(engines)('Stripe webhooks credit each payment exactly once, on %s', (engine) => {
  let app: TestApp;
  let stripe: FakeStripe;
  let close: () => Promise<void>;
  beforeAll(async () => {
    // A scrape pair costs 100, so one scrape spends a good part of a pack.
    ({ app, stripe, close } = await startBillingApp(engine, { env: { PRICE_SCRAPE: '100' } }));
  });
  afterAll(() => close());

  /** Pays a session of `credits` at the fake without telling the app, and answers the events Stripe recorded for it. */
  async function paidQuietly(accountId: string, credits: number) {
    const { sessionId, paymentId } = await openCheckout(app, accountId, credits);
    stripe.webhookUrl = null;
    const from = stripe.events.length;
    const session = stripe.complete(sessionId);
    stripe.webhookUrl = `${app.url}/webhooks/stripe`;
    const events = stripe.events.slice(from);
    const completed = events.find((event) => event.type === 'checkout.session.completed')!;
    return { sessionId, paymentId, paymentIntentId: String(session.payment_intent), completed, events };
  }
  const eventOf = (type: string) => stripe.events.filter((event) => event.type === type).at(-1)!;
  const deliverQuietly = (run: () => unknown): StripeEvent => {
    stripe.webhookUrl = null;
    run();
    stripe.webhookUrl = `${app.url}/webhooks/stripe`;
    return stripe.events.at(-1)!;
  };

  it('a wrong, missing, stale or future-dated signature, or a changed body, is a 400 and changes nothing', async () => {
    const { accountId } = await app.accountWithKey(0);
    const { completed } = await paidQuietly(accountId, 500);
    const answers = [
      await stripe.deliver(completed, undefined, { secret: 'whsec_not_the_right_one' }),
      await stripe.deliver(completed, undefined, { unsigned: true }),
      await stripe.deliver(completed, undefined, { timestamp: Math.floor(Date.now() / 1000) - 301 }),
      // Dated ten minutes ahead: no clock Stripe keeps is that far off, so it is a body kept for later.
      await stripe.deliver(completed, undefined, { timestamp: Math.floor(Date.now() / 1000) + 600 }),
      await fetch(`${app.url}/webhooks/stripe`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' }, body: '{}' }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.headers.get('content-type')).toContain('application/problem+json');
      expect(await answer.json()).toMatchObject({ code: 'billing.invalid_signature' });
    }
    expect(await standing(app, accountId)).toEqual({ balance: 0, owed: 0 });
    // A minute ahead is a clock's drift, within Stripe's own 5 minutes: the payment is credited.
    expect((await stripe.deliver(completed, undefined, { timestamp: Math.floor(Date.now() / 1000) + 60 })).status).toBe(200);
    expect(await standing(app, accountId)).toEqual({ balance: 500, owed: 0 });
  });

  it('one completed checkout delivered 5 times in a row and 20 times at once credits its pack once', async () => {
    const { accountId } = await app.accountWithKey(0);
    const { completed, paymentId } = await paidQuietly(accountId, 2000);
    for (let i = 0; i < 5; i++) expect((await stripe.deliver(completed)).status).toBe(200);
    const concurrent = await Promise.all(Array.from({ length: 20 }, () => stripe.deliver(completed)));
    expect(concurrent.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(await standing(app, accountId)).toEqual({ balance: 2000, owed: 0 });
    expect(await paymentRows(app, accountId)).toEqual([{ kind: 'purchase', amount: 2000, owed: 0 }]);
    expect(await app.services.billing.payment(accountId, paymentId)).toMatchObject({ status: 'paid', credited: true, amount: 1800, currency: 'usd' });
  });

  it('an unpaid completion (a delayed bank debit) credits nothing until async_payment_succeeded arrives', async () => {
    const { accountId } = await app.accountWithKey(0);
    const { sessionId } = await openCheckout(app, accountId, 500);
    stripe.complete(sessionId, { paymentStatus: 'unpaid' });
    await stripe.settled();
    expect(await standing(app, accountId)).toEqual({ balance: 0, owed: 0 });
    stripe.succeedAsync(sessionId);
    await stripe.settled();
    expect(await standing(app, accountId)).toEqual({ balance: 500, owed: 0 });
    await stripe.deliver(eventOf('checkout.session.async_payment_succeeded'));
    expect(await standing(app, accountId)).toEqual({ balance: 500, owed: 0 });
  });

  it('a refund that arrives before the completion is taken back when the completion lands', async () => {
    const { accountId } = await app.accountWithKey(0);
    const { completed, paymentIntentId } = await paidQuietly(accountId, 2000);
    const refunded = deliverQuietly(() => stripe.refund(paymentIntentId, 900));
    expect((await stripe.deliver(refunded)).status).toBe(200);
    expect(await standing(app, accountId)).toEqual({ balance: 0, owed: 0 });
    await stripe.deliver(completed);
    expect(await standing(app, accountId)).toEqual({ balance: 1000, owed: 0 });
    expect(await paymentRows(app, accountId)).toEqual([
      { kind: 'purchase', amount: 2000, owed: 0 },
      { kind: 'clawback', amount: -1000, owed: 0 },
    ]);
  });

  it('two partial refunds take back only what each adds, pro rata and rounded down, however often they arrive', async () => {
    const { accountId } = await app.accountWithKey(0);
    const { completed, paymentIntentId } = await paidQuietly(accountId, 2000);
    await stripe.deliver(completed);
    const first = deliverQuietly(() => stripe.refund(paymentIntentId, 450)); // 450 of 1800: 500 credits
    const second = deliverQuietly(() => stripe.refund(paymentIntentId, 451)); // 901 of 1800: 1001.1 → 1001
    await stripe.deliver(second);
    await stripe.deliver(first); // late and older: amount_refunded never goes down
    await stripe.deliver(second);
    expect(await standing(app, accountId)).toEqual({ balance: 999, owed: 0 });
    expect((await paymentRows(app, accountId)).map((row) => row.amount)).toEqual([2000, -1001]);
  });

  it('a dispute takes the pack back when the funds are withdrawn and gives it back when they are reinstated', async () => {
    const { accountId } = await app.accountWithKey(0);
    const { completed, paymentIntentId } = await paidQuietly(accountId, 500);
    await stripe.deliver(completed);
    const withdrawn = deliverQuietly(() => stripe.dispute(paymentIntentId, 'funds_withdrawn'));
    await stripe.deliver(withdrawn);
    await stripe.deliver(withdrawn);
    expect(await standing(app, accountId)).toEqual({ balance: 0, owed: 0 });
    const reinstated = deliverQuietly(() => stripe.dispute(paymentIntentId, 'funds_reinstated'));
    await stripe.deliver(reinstated);
    await stripe.deliver(withdrawn); // a late copy of the withdrawal cannot undo the reinstatement
    expect(await standing(app, accountId)).toEqual({ balance: 500, owed: 0 });
    expect(await paymentRows(app, accountId)).toEqual([
      { kind: 'purchase', amount: 500, owed: 0 },
      { kind: 'clawback', amount: -500, owed: 0 },
      { kind: 'reinstatement', amount: 500, owed: 0 },
    ]);
  });

  it('a refund of spent credits takes what is spendable, records the rest as owed, and the next purchase pays it first', async () => {
    const { accountId, token } = await app.accountWithKey(0);
    const { completed, paymentIntentId } = await paidQuietly(accountId, 500);
    await stripe.deliver(completed);
    app.reddit.posts.push({ id: 'own1', subreddit: 'node', title: 'node', created_utc: Math.floor(Date.now() / 1000) });
    // Spend 400 of the 500: one scrape of 1 subreddit × 4 keywords.
    const spent = await app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/node'], keywords: ['a', 'b', 'c', 'node'] } });
    expect(spent.status, await spent.clone().text()).toBe(200);
    const left = (await standing(app, accountId)).balance;
    await stripe.deliver(deliverQuietly(() => stripe.refund(paymentIntentId, 500)));
    expect(await standing(app, accountId)).toEqual({ balance: 0, owed: 500 - left });
    const balance = await app.api('GET', '/api/v1/balance', { token });
    expect(await balance.json()).toEqual({ balance: 0, owed: 500 - left });

    const next = await paidQuietly(accountId, 2000);
    await stripe.deliver(next.completed);
    expect(await standing(app, accountId)).toEqual({ balance: 2000 - (500 - left), owed: 0 });
    expect((await paymentRows(app, accountId)).slice(-3)).toEqual([
      { kind: 'clawback', amount: -left, owed: 500 - left },
      { kind: 'purchase', amount: 2000, owed: 0 },
      { kind: 'owed_settlement', amount: -(500 - left), owed: -(500 - left) },
    ]);
  });

  it('an operator grant also pays what is owed first', async () => {
    const { accountId } = await app.accountWithKey(0);
    const { completed, paymentIntentId } = await paidQuietly(accountId, 500);
    await stripe.deliver(completed);
    await app.services.db.updateTable('accounts').set({ held: 500 }).where('id', '=', accountId).execute(); // a running job holds it all
    await stripe.deliver(deliverQuietly(() => stripe.refund(paymentIntentId, 500)));
    await app.services.db.updateTable('accounts').set({ held: 0 }).where('id', '=', accountId).execute();
    expect(await standing(app, accountId)).toEqual({ balance: 500, owed: 500 });
    await app.services.credits.grant(accountId, 200, 'goodwill');
    expect(await standing(app, accountId)).toEqual({ balance: 500, owed: 300 });
  });

  it('answers 200 to event types it does not handle and to sessions it did not sell, changing nothing', async () => {
    const { accountId } = await app.accountWithKey(0);
    const { completed } = await paidQuietly(accountId, 500);
    const other = { ...completed, id: 'evt_other', type: 'customer.created', data: { object: { id: 'cus_x', object: 'customer' } } } as StripeEvent;
    const foreign = { ...completed, id: 'evt_foreign', data: { object: { ...(completed.data.object as object), id: 'cs_test_elsewhere' } } } as StripeEvent;
    for (const event of [other, foreign]) {
      const answer = await stripe.deliver(event);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ received: true, outcome: 'ignored' });
    }
    expect(await standing(app, accountId)).toEqual({ balance: 0, owed: 0 });
  });
});
