/** The fake Stripe, driven through the real `stripe` package: it answers what stripe-node sends and understands. */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeStripe, type CheckoutSession, type FakeStripe, type PaymentIntent, type PaymentMethod } from './fake-stripe.ts';
import { startReceiver } from './receiver.ts';

let fake: FakeStripe;
let stripe: Stripe;

const clientFor = (key: string) =>
  new Stripe(key, { host: '127.0.0.1', port: fake.port, protocol: 'http', apiVersion: '2026-10-28.endive', maxNetworkRetries: 0 });

beforeEach(async () => {
  fake = await startFakeStripe();
  stripe = clientFor(fake.secretKey);
});
afterEach(() => fake.close());

/** A credit pack as the service sells it: 2 × 5.00 USD, the card saved for top-ups. */
const pack = (customer?: string) =>
  stripe.checkout.sessions.create({
    mode: 'payment',
    line_items: [{ price_data: { currency: 'usd', unit_amount: 500, product_data: { name: '500 credits' } }, quantity: 2 }],
    success_url: 'https://shop.example/done?session={CHECKOUT_SESSION_ID}',
    cancel_url: 'https://shop.example/cancel',
    client_reference_id: 'acct_42',
    metadata: { account_id: '42', credits: '1000' },
    customer,
    payment_intent_data: { metadata: { account_id: '42', purpose: 'pack' }, setup_future_usage: 'off_session' },
  });

/** An auto top-up: 7.00 USD charged off-session to `payment_method`. */
const topUp = (payment_method: string, customer?: string) =>
  ({ amount: 700, currency: 'usd', customer, payment_method, off_session: true, confirm: true }) as const;

const payOnPage = (url: string, card: string) =>
  fetch(url, { method: 'POST', body: new URLSearchParams({ card }), redirect: 'manual' });

const caught = (promise: Promise<unknown>) => promise.then(() => expect.fail('expected a rejection'), (error: unknown) => error);
const types = () => fake.events.map((e) => e.type);

/** A customer with a card saved by a paid pack: the starting point of every auto top-up. */
async function savedCard(card = 'pm_card_visa') {
  const customer = await stripe.customers.create({ email: 'a@example.com' });
  const session = fake.complete((await pack(customer.id)).id, { card });
  return { customer: customer.id, method: fake.object<PaymentIntent>(session.payment_intent!)!.payment_method! };
}

describe('the fake Stripe', () => {
  it('receives a form body with bracket keys, Stripe-Version, Bearer auth and an automatic Idempotency-Key', async () => {
    const session = await pack();
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions', stripeVersion: '2026-10-28.endive', status: 200 });
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request.headers.authorization).toBe(`Bearer ${fake.secretKey}`);
    expect(request.idempotencyKey).toMatch(/^stripe-node-retry-[0-9a-f-]{36}$/);
    expect(request.rawBody).toContain('line_items[0][price_data][unit_amount]=500');
    expect(request.rawBody).toContain('payment_intent_data[setup_future_usage]=off_session');
    expect(request.body).toMatchObject({
      line_items: [{ price_data: { currency: 'usd', unit_amount: '500', product_data: { name: '500 credits' } }, quantity: '2' }],
      metadata: { account_id: '42', credits: '1000' },
      payment_intent_data: { metadata: { account_id: '42', purpose: 'pack' } },
    });
    expect(session).toMatchObject({
      id: expect.stringMatching(/^cs_test_\w{14,}$/), object: 'checkout.session', status: 'open', payment_status: 'unpaid',
      amount_total: 1000, currency: 'usd', client_reference_id: 'acct_42', payment_intent: null, livemode: false, mode: 'payment',
    });
    expect(session.url).toBe(`${fake.url}/c/pay/${session.id}`);
    expect(session.expires_at).toBe(session.created + 24 * 3600);
  });

  it('refuses a wrong key with 401 without echoing it, and a missing key too', async () => {
    const wrongKey = 'sk_test_wrongwrongwrong1234';
    const error = await caught(clientFor(wrongKey).customers.create({ email: 'a@example.com' }));
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect((error as Error).message).toMatch(/^Invalid API Key provided: sk_test_\*+1234$/);
    const bare = await fetch(`${fake.url}/v1/customers`, { method: 'POST' });
    const missing = { error: { type: 'invalid_request_error', message: expect.stringMatching(/^You did not provide an API key/) } };
    expect([bare.status, await bare.json()]).toMatchObject([401, missing]);
  });

  it('answers a missing required param with a 400 that names it', async () => {
    const lineItems = [{ price_data: { currency: 'usd', unit_amount: 500, product_data: { name: 'x' } }, quantity: 1 }];
    const error = await caught(stripe.checkout.sessions.create({ mode: 'payment', line_items: lineItems }));
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'success_url', message: 'Missing required param: success_url.' });
  });

  it('replays the first answer for a reused Idempotency-Key and refuses the key with other parameters', async () => {
    const first = await stripe.customers.create({ email: 'a@example.com' }, { idempotencyKey: 'signup-1' });
    const again = await stripe.customers.create({ email: 'a@example.com' }, { idempotencyKey: 'signup-1' });
    expect(again.id).toBe(first.id);
    expect(fake.requests.map((r) => r.replayed)).toEqual([false, true]);
    const headers = { authorization: `Bearer ${fake.secretKey}`, 'idempotency-key': 'signup-1' };
    const raw = await fetch(`${fake.url}/v1/customers`, { method: 'POST', body: new URLSearchParams({ email: 'a@example.com' }), headers });
    expect(raw.headers.get('idempotent-replayed')).toBe('true');
    expect(await raw.json()).toMatchObject({ id: first.id });
    const error = await caught(stripe.customers.create({ email: 'b@example.com' }, { idempotencyKey: 'signup-1' }));
    expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect((error as Error).message).toMatch(/^Keys for idempotent requests can only be used with the same parameters they were first used with\./);
  });

  it('lets a customer pay on the hosted page, redirects with the session id and records checkout.session.completed', async () => {
    const customer = await stripe.customers.create({ email: 'a@example.com' });
    const session = await pack(customer.id);
    const html = await (await fetch(session.url!)).text();
    expect(html).toContain('<title>Fake Stripe Checkout</title>');
    expect(html).toContain('10.00 USD');
    expect(html).toMatch(/<select[^>]*name="card"><option value="pm_card_visa" selected>/);
    expect(html).toContain('<button type="submit">Pay</button>');

    const paid = await payOnPage(session.url!, 'pm_card_visa');
    expect([paid.status, paid.headers.get('location')]).toEqual([303, `https://shop.example/done?session=${session.id}`]);
    expect(types()).toEqual(['payment_intent.succeeded', 'checkout.session.completed']);
    const completed = fake.events[1];
    const then = completed.data.object as CheckoutSession;
    expect(then).toMatchObject({ id: session.id, status: 'complete', payment_status: 'paid', payment_intent: expect.stringMatching(/^pi_/), url: null });
    expect(completed).toMatchObject({ id: expect.stringMatching(/^evt_\w{14,}$/), object: 'event', api_version: '2026-10-28.endive' });
    expect(completed).toMatchObject({ livemode: false, request: { id: null, idempotency_key: null } });

    const intent = await stripe.paymentIntents.retrieve(then.payment_intent!);
    expect(intent).toMatchObject({ status: 'succeeded', amount: 1000, customer: customer.id, latest_charge: expect.stringMatching(/^ch_/) });
    expect(intent.metadata).toEqual({ account_id: '42', purpose: 'pack' });
    expect(fake.object<PaymentMethod>(intent.payment_method as string)).toMatchObject({ customer: customer.id, card: { last4: '4242' } });
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('complete');
  });

  it('shows a declined card on the hosted page and leaves the session open', async () => {
    const session = await pack();
    const declined = await payOnPage(session.url!, 'pm_card_chargeDeclined');
    expect([declined.status, await declined.text()]).toEqual([402, expect.stringContaining('Your card was declined.')]);
    expect(types()).toEqual(['payment_intent.payment_failed']);
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('open');
  });

  it('completes a session unpaid for a delayed method and pays it when the async payment succeeds', async () => {
    const session = await pack();
    fake.complete(session.id, { paymentStatus: 'unpaid' });
    expect(fake.events.at(-1)).toMatchObject({ type: 'checkout.session.completed', data: { object: { payment_status: 'unpaid', status: 'complete' } } });
    fake.succeedAsync(session.id);
    expect(fake.events.at(-1)).toMatchObject({ type: 'checkout.session.async_payment_succeeded', data: { object: { payment_status: 'paid' } } });
    expect((await stripe.checkout.sessions.retrieve(session.id)).payment_status).toBe('paid');
  });

  it('expires an open session once and refuses to expire it again', async () => {
    const session = await pack();
    expect(await stripe.checkout.sessions.expire(session.id)).toMatchObject({ status: 'expired', url: null });
    expect(types()).toEqual(['checkout.session.expired']);
    expect(await caught(stripe.checkout.sessions.expire(session.id))).toMatchObject({ statusCode: 400, type: 'StripeInvalidRequestError' });
  });

  it('charges a saved card off-session, then declines it with generic_decline once it starts failing', async () => {
    const { customer, method } = await savedCard();
    const paid = await stripe.paymentIntents.create({ ...topUp(method, customer), metadata: { purpose: 'top_up' } }, { idempotencyKey: 'topup-1' });
    expect(paid).toMatchObject({ status: 'succeeded', amount_received: 700, metadata: { purpose: 'top_up' }, latest_charge: expect.stringMatching(/^ch_/) });
    expect(fake.events.at(-1)).toMatchObject({ type: 'payment_intent.succeeded', request: { idempotency_key: 'topup-1', id: expect.stringMatching(/^req_/) } });

    fake.savedCardBehaviour(method, 'declined');
    const declined = await caught(stripe.paymentIntents.create(topUp(method, customer), { idempotencyKey: 'topup-2' }));
    expect(declined).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(declined).toMatchObject({ statusCode: 402, code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' });
    const raw = (declined as Stripe.errors.StripeCardError).raw as { payment_intent: PaymentIntent; payment_method: PaymentMethod; charge: string };
    expect(raw.payment_intent).toMatchObject({ status: 'requires_payment_method', payment_method: null, last_payment_error: { code: 'card_declined' } });
    expect(raw).toMatchObject({ payment_method: { id: method }, charge: expect.stringMatching(/^ch_/) });
    expect(fake.events.at(-1)!.type).toBe('payment_intent.payment_failed');

    const replayed = await caught(stripe.paymentIntents.create(topUp(method, customer), { idempotencyKey: 'topup-2' }));
    expect(replayed).toMatchObject({ statusCode: 402, payment_intent: { id: raw.payment_intent.id } });
    expect(types().filter((t) => t === 'payment_intent.payment_failed')).toHaveLength(1);
  });

  it('declines an off-session payment with a card that needs authentication with authentication_required', async () => {
    const { customer, method } = await savedCard('pm_card_authenticationRequired');
    const error = await caught(stripe.paymentIntents.create(topUp(method, customer)));
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(error).toMatchObject({
      code: 'authentication_required',
      decline_code: 'authentication_required',
      message: 'Your card was declined. This transaction requires authentication.',
      payment_intent: { status: 'requires_payment_method', client_secret: expect.stringMatching(/^pi_\w+_secret_/) },
    });
    const direct = await caught(stripe.paymentIntents.create(topUp('pm_card_authenticationRequired')));
    expect(direct).toMatchObject({ code: 'authentication_required' });
    expect(types().slice(-2)).toEqual(['payment_intent.payment_failed', 'payment_intent.payment_failed']);
  });

  it('lists events newest first, pages both ways and filters by type and time', async () => {
    let clock = 1_800_000_000;
    fake.now = () => clock;
    const { customer, method } = await savedCard();
    for (let i = 0; i < 5; i++) {
      clock += 10;
      await stripe.paymentIntents.create(topUp(method, customer));
    }
    const all = fake.events.map((e) => e.id).reverse();
    const ids = (list: { data: { id: string }[] }) => list.data.map((e) => e.id);
    const first = await stripe.events.list({ limit: 3 });
    expect(first).toMatchObject({ object: 'list', url: '/v1/events', has_more: true });
    expect(ids(first)).toEqual(all.slice(0, 3));
    const second = await stripe.events.list({ limit: 3, starting_after: first.data[2].id });
    expect(ids(second)).toEqual(all.slice(3, 6));
    const back = await stripe.events.list({ limit: 3, ending_before: second.data[2].id });
    expect([ids(back), back.has_more]).toEqual([all.slice(2, 5), true]);
    expect((await stripe.events.list({ limit: 2 }).autoPagingToArray({ limit: 100 })).map((e) => e.id)).toEqual(all);
    expect((await stripe.events.list({ types: ['checkout.session.completed'] })).data.map((e) => e.type)).toEqual(['checkout.session.completed']);
    const window = await stripe.events.list({ created: { gte: 1_800_000_020, lte: 1_800_000_040 }, type: 'payment_intent.*' });
    expect(window.data.map((e) => e.created)).toEqual([1_800_000_040, 1_800_000_030, 1_800_000_020]);
  });

  it('accumulates amount_refunded over refunds and records charge.refunded and dispute events', async () => {
    const intent = fake.complete((await pack()).id).payment_intent!;
    const refund = await stripe.refunds.create({ payment_intent: intent, amount: 300 });
    expect(refund).toMatchObject({ object: 'refund', amount: 300, status: 'succeeded', payment_intent: intent });
    const charge = fake.refund(intent, 700);
    expect(charge).toMatchObject({ amount: 1000, amount_refunded: 1000, refunded: true });
    const refunded = fake.events.filter((e) => e.type === 'charge.refunded').map((e) => e.data.object);
    expect(refunded).toMatchObject([{ object: 'charge', amount_refunded: 300, refunded: false }, { amount_refunded: 1000, refunded: true }]);
    expect(await caught(stripe.refunds.create({ payment_intent: intent }))).toMatchObject({ code: 'charge_already_refunded' });

    const dispute = fake.dispute(intent, 'funds_withdrawn');
    fake.dispute(intent, 'funds_reinstated');
    expect(fake.events.slice(-2)).toMatchObject([
      { type: 'charge.dispute.funds_withdrawn', data: { object: { id: dispute.id, object: 'dispute', amount: 1000, status: 'needs_response', charge: charge.id } } },
      { type: 'charge.dispute.funds_reinstated', data: { object: { id: dispute.id, status: 'won' } } },
    ]);
  });

  it('signs deliveries so constructEvent accepts them, and rejects a stale, wrongly signed or unsigned one', async () => {
    const receiver = await startReceiver();
    try {
      fake.webhookUrl = receiver.url;
      fake.complete((await pack()).id);
      await fake.settled();
      expect(fake.deliveries.map((d) => [d.type, d.status])).toEqual([['payment_intent.succeeded', 200], ['checkout.session.completed', 200]]);
      const verify = (i: number) => () =>
        stripe.webhooks.constructEvent(receiver.received[i].body, receiver.received[i].headers['stripe-signature'] as string, fake.webhookSecret);
      expect(verify(1)()).toMatchObject({ id: fake.events[1].id, type: 'checkout.session.completed' });
      expect(receiver.received[1].headers['stripe-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect((await stripe.events.list({ delivery_success: false })).data).toEqual([]);

      await fake.deliver(fake.events[1], receiver.url, { timestamp: Math.floor(Date.now() / 1000) - 600 });
      await fake.deliver(fake.events[1], receiver.url, { secret: 'whsec_someoneelse' });
      await fake.deliver(fake.events[1], receiver.url, { unsigned: true });
      expect(verify(2)).toThrow('Timestamp outside the tolerance zone');
      expect(verify(3)).toThrow('No signatures found matching the expected signature for payload');
      expect(receiver.received[4].headers['stripe-signature']).toBeUndefined();
    } finally {
      await receiver.close();
    }
  });

  it('records a delivery to a receiver that is down instead of throwing, and lists the event as undelivered', async () => {
    const closed = createServer().listen(0, '127.0.0.1');
    await once(closed, 'listening');
    fake.webhookUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/hooks`;
    await new Promise((resolve) => closed.close(resolve));
    fake.complete((await pack()).id);
    await fake.settled();
    expect(fake.deliveries).toMatchObject([{ status: null, error: expect.stringContaining('fetch failed') }, { status: null }]);
    const undelivered = await stripe.events.list({ delivery_success: false });
    expect(undelivered.data.map((e) => [e.type, e.pending_webhooks])).toEqual([['checkout.session.completed', 1], ['payment_intent.succeeded', 1]]);
  });

  it("carries out a request whose answer is lost, so stripe-node's own retry of the closed connection gets the replay", async () => {
    fake.loseAnswers(1, (r) => r.path === '/v1/payment_intents');
    const intent = await stripe.paymentIntents.create(topUp('pm_card_visa'));
    const attempts = fake.requests.filter((r) => r.path === '/v1/payment_intents');
    expect(attempts.map((r) => [r.status, r.replayed])).toEqual([[null, false], [200, true]]);
    expect(attempts[1].idempotencyKey).toBe(attempts[0].idempotencyKey);
    expect(fake.events.map((e) => [e.type, e.data.object.id])).toEqual([['payment_intent.succeeded', intent.id]]);
  });

  it('lets the caller retry with its own key after every attempt was lost, and answers with the stored result', async () => {
    fake.loseAnswers(2);
    const lost = await caught(stripe.paymentIntents.create(topUp('pm_card_visa'), { idempotencyKey: 'topup-3' }));
    expect(lost).toBeInstanceOf(Stripe.errors.StripeConnectionError);
    const retried = await stripe.paymentIntents.create(topUp('pm_card_visa'), { idempotencyKey: 'topup-3' });
    expect(fake.requests.map((r) => [r.status, r.replayed])).toEqual([[null, false], [null, true], [200, true]]);
    expect(fake.events.map((e) => [e.type, e.data.object.id])).toEqual([['payment_intent.succeeded', retried.id]]);
  });

  it('fails the next request with a 500 api_error that did nothing, so the same key runs on retry', async () => {
    fake.failNext(500);
    const error = await caught(stripe.customers.create({ email: 'a@example.com' }, { idempotencyKey: 'signup-2' }));
    expect(error).toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(error).toMatchObject({ statusCode: 500, rawType: 'api_error' });
    expect((await stripe.customers.create({ email: 'a@example.com' }, { idempotencyKey: 'signup-2' })).id).toMatch(/^cus_\w{14,}$/);
    expect(fake.requests.map((r) => [r.status, r.replayed])).toEqual([[500, false], [200, false]]);
  });

  it("answers an unknown route with Stripe's 404", async () => {
    const answer = await fetch(`${fake.url}/v1/nope?x=1`, { headers: { authorization: `Bearer ${fake.secretKey}` } });
    expect(answer.status).toBe(404);
    const message = 'Unrecognized request URL (GET: /v1/nope). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.';
    expect(await answer.json()).toEqual({ error: { type: 'invalid_request_error', message } });
  });
});
