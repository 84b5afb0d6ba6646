import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { standing, startBillingApp } from '../support/billing.ts';
import { engines } from '../support/engines.ts';
import type { CheckoutSession, FakeStripe } from '../support/fake-stripe.ts';
import { createMonitor, cycle, pinnedClockApp } from '../support/billing-monitors.ts';

const scrapeBody = { subreddits: ['r/node'], keywords: ['node'] };

describe.each(engines)('buying credits through the API, on %s', (engine) => {
  let app: TestApp;
  let stripe: FakeStripe;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ app, stripe, close } = await startBillingApp(engine));
  });
  afterAll(() => close());

  it('POST /credits/checkout answers the Stripe page of the pack, created as Stripe expects it, and the payment lands as credits', async () => {
    const { accountId, token } = await app.accountWithKey(0);
    const response = await app.api('POST', '/api/v1/credits/checkout', { token, body: { credits: 2000 } });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toMatchObject({ payment: { status: 'open', credits: 2000, amount: 1800, currency: 'usd', price: '18.00 USD', credited: false }, url: expect.stringContaining(`${stripe.url}/c/pay/cs_test_`) });

    const request = stripe.requests.find((r) => r.path === '/v1/checkout/sessions' && r.idempotencyKey === `checkout-${body.payment.id}`)!;
    expect(request.stripeVersion).toBe('2026-10-28.endive');
    expect(request.headers['content-type']).toContain('application/x-www-form-urlencoded');
    expect(request.rawBody).toContain('line_items[0][price_data][unit_amount]=1800');
    expect(request.body).toMatchObject({
      mode: 'payment',
      client_reference_id: accountId,
      metadata: { account_id: accountId, payment_id: body.payment.id, credits: '2000' },
      success_url: `https://subpilot.example.com/dashboard/credits/return?payment=${body.payment.id}`,
      cancel_url: 'https://subpilot.example.com/dashboard/credits?checkout=cancelled',
    });

    stripe.complete(body.url.split('/').pop());
    await stripe.settled();
    const payment = await app.api('GET', `/api/v1/credits/payments/${body.payment.id}`, { token });
    expect(await payment.json()).toMatchObject({ status: 'paid', credited: true });
    expect(await standing(app, accountId)).toEqual({ balance: 2000, owed: 0 });
    const usage = await (await app.api('GET', '/api/v1/usage', { token })).json();
    expect(usage.data[0]).toMatchObject({ type: 'purchase', amount: 2000, description: 'Purchase for 18.00 USD', via: 'api', payment: { id: body.payment.id, amount: 1800, currency: 'usd', source: 'checkout' } });
  });

  it('GET /credits/packs lists the packs on sale, cheapest first, by the credits checkout takes and their price, to a key that can only read', async () => {
    const { accountId } = await app.accountWithKey(0);
    const { token: reader } = await app.services.keys.createKey(accountId, 'reader', { scopes: ['read'] });
    const response = await app.api('GET', '/api/v1/credits/packs', { token: reader });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      packs: [
        { credits: 500, amount: 500, currency: 'usd', price: '5.00 USD' },
        { credits: 2000, amount: 1800, currency: 'usd', price: '18.00 USD' },
      ],
      buy_url: 'https://subpilot.example.com/dashboard/credits',
      contact: null,
    });
  });

  it('a key without the billing scope cannot open a checkout; a pack that is not on sale is a 422 naming the packs', async () => {
    const { accountId, token } = await app.accountWithKey(0);
    const { token: scraper } = await app.services.keys.createKey(accountId, 'scraper', { scopes: ['scrape', 'read'] });
    const refused = await app.api('POST', '/api/v1/credits/checkout', { token: scraper, body: { credits: 500 } });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'auth.insufficient_scope', required_scope: 'billing' });
    const unknown = await app.api('POST', '/api/v1/credits/checkout', { token, body: { credits: 750 } });
    expect(unknown.status).toBe(422);
    expect(await unknown.json()).toMatchObject({ code: 'billing.unknown_pack', packs: [500, 2000] });
  });

  it('when Stripe does not answer, the checkout is a 502 and nothing is owed or charged', async () => {
    const { accountId, token } = await app.accountWithKey(0);
    stripe.failNext(500, 3);
    const response = await app.api('POST', '/api/v1/credits/checkout', { token, body: { credits: 500 } });
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ code: 'billing.checkout_failed' });
    expect((await app.services.billing.payments(accountId)).map((p) => p.status)).toEqual(['failed']);
    expect(await standing(app, accountId)).toEqual({ balance: 0, owed: 0 });
  });

  it('a 402 for the balance says where to buy credits and carries buy_url', async () => {
    const { token } = await app.accountWithKey(0);
    const response = await app.api('POST', '/api/v1/scrape', { token, body: scrapeBody });
    expect(response.status).toBe(402);
    const body = await response.json();
    expect(body).toMatchObject({ code: 'credits.insufficient', buy_url: 'https://subpilot.example.com/dashboard/credits' });
    expect(body.detail).toBe('This request costs 1 credit and the account balance is 0. Buy credits at https://subpilot.example.com/dashboard/credits and try again.');
  });
});

describe.each(engines)('without Stripe, on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine, { env: { BILLING_CONTACT: 'billing@example.com' } });
  });
  afterAll(() => app.close());

  it('a 402 says whom to ask for credits and carries no buy_url, checkout is a 409 saying the same, and no pack is listed', async () => {
    const { token } = await app.accountWithKey(0);
    const refused = await (await app.api('POST', '/api/v1/scrape', { token, body: scrapeBody })).json();
    expect(refused.detail).toBe('This request costs 1 credit and the account balance is 0. Ask billing@example.com for credits and try again.');
    expect(refused).not.toHaveProperty('buy_url');
    const checkout = await app.api('POST', '/api/v1/credits/checkout', { token, body: { credits: 500 } });
    expect(checkout.status).toBe(409);
    expect(await checkout.json()).toMatchObject({ code: 'billing.not_configured', detail: 'This service does not sell credits. Ask billing@example.com for credits and try again.' });
    const packs = await app.api('GET', '/api/v1/credits/packs', { token });
    expect(await packs.json()).toEqual({ packs: [], buy_url: null, contact: 'billing@example.com' });
  });
});

describe.each(engines)('a monitor paused for credits, on %s', (engine) => {
  it('resumes by itself at the next cycle after a purchase lands', async () => {
    const { app, stripe, clock, close } = await pinnedClockApp(engine);
    try {
      app.reddit.subreddits.set('otters', 'public');
      const { accountId, token } = await app.accountWithKey(0);
      const monitor = await createMonitor(app, token, { subreddits: ['r/otters'], keywords: ['otter'] });
      await cycle(app);
      clock.advance(10);
      app.reddit.addPost({ subreddit: 'otters', title: 'an otter', created_utc: clock.seconds() - 5 });
      await cycle(app);
      const paused = () => app.database.db.selectFrom('monitors').select(['status', 'paused_reason']).where('id', '=', monitor.id).executeTakeFirstOrThrow();
      expect(await paused()).toEqual({ status: 'paused', paused_reason: 'insufficient_credits' });

      const { url } = await app.services.billing.checkout(accountId, 500, { via: 'dashboard' });
      const session: CheckoutSession = stripe.complete(url.split('/').pop()!);
      expect(session.payment_status).toBe('paid');
      await stripe.settled();
      clock.advance(60);
      await cycle(app);
      expect(await paused()).toEqual({ status: 'active', paused_reason: null });
      expect(await standing(app, accountId)).toEqual({ balance: 499, owed: 0 });
    } finally {
      await close();
    }
  });
});
