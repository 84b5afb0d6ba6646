/**
 * A small, stateful fake Stripe on 127.0.0.1 (ephemeral port) that speaks Stripe's wire format for
 * what the official `stripe` package (23.1.0, API 2026-10-28.endive) sends. Point the client at `url`
 * (`host`, `port`, `protocol: 'http'`); the hosted checkout page lives on the same server.
 *
 * API (/v1, form-encoded bodies with bracket keys, JSON answers with Request-Id and Stripe-Version)
 * - Every request needs `Authorization: Bearer <secretKey>` (Basic with the key as user also works).
 *   Missing → 401 invalid_request_error "You did not provide an API key…"; wrong → 401 "Invalid API
 *   Key provided: sk_test_****…abcd" (masked, never the full key).
 * - `requests` logs every /v1 request: method, path, query, headers, rawBody, body (parsed, leaves
 *   are strings), idempotencyKey, stripeVersion, status, replayed.
 * - Idempotency-Key on POST: the first answer that executed (200, 402…) is stored per key and
 *   replayed for the same method, path and parameters, with `Idempotent-Replayed: true`; other
 *   parameters → 400 idempotency_error. Validation errors (400/404) and `failNext` failures are not
 *   stored, so a retry runs again. stripe-node puts `stripe-node-retry-<uuid>` on every POST.
 * - POST /v1/customers (email, name, metadata) → `cus_…`.
 * - POST /v1/checkout/sessions: mode=payment; line_items[i][price_data][currency|unit_amount|
 *   product_data][name] and [quantity]; success_url ({CHECKOUT_SESSION_ID} is filled in on redirect);
 *   cancel_url, client_reference_id, metadata, customer or customer_email,
 *   payment_intent_data[metadata] and [setup_future_usage]. → `cs_test_…` open/unpaid,
 *   payment_intent null, url `<url>/c/pay/<id>`, expires_at created + 24 h. Missing params → 400
 *   parameter_missing with `param`. GET …/:id; POST …/:id/expire (open only, else 400) records
 *   checkout.session.expired. An open session past expires_at (see `now`) expires when next read.
 * - POST /v1/payment_intents (amount, currency, customer, payment_method, confirm, off_session,
 *   metadata, setup_future_usage): pm_card_visa or a pm_ saved from it → succeeded + ch_ +
 *   payment_intent.succeeded; pm_card_authenticationRequired (or its saved pm) off-session and
 *   pm_card_chargeDeclined → 402 card_error (authentication_required/authentication_required,
 *   card_declined/generic_decline) carrying the intent (requires_payment_method, payment_method
 *   null, last_payment_error), the failed charge and the payment method, + payment_intent.payment_failed.
 *   Authentication required on-session → 200 requires_action. A test token makes a new pm_ each time.
 * - POST /v1/refunds (payment_intent or charge, amount) → `re_…`, cumulative amount_refunded on the
 *   charge, charge.refunded. GET /v1/{customers,charges,payment_intents,payment_methods,refunds,
 *   disputes,events}/:id.
 * - GET /v1/events: type (a trailing * matches a prefix), types[], created[gt|gte|lt|lte] or exact,
 *   delivery_success (true: delivered to `webhookUrl` or none set), limit (default 10, 1..100),
 *   starting_after, ending_before → { object: 'list', url: '/v1/events', has_more, data: newest first }.
 * - Anything else → 404 "Unrecognized request URL (GET: /v1/…)…".
 *
 * Hosted page: GET /c/pay/:id shows the amount and a form (select `card`: pm_card_visa (default),
 * pm_card_authenticationRequired, pm_card_chargeDeclined; button "Pay") that POSTs to /c/pay/:id.
 * A success creates the PaymentIntent (payment_intent_data metadata and setup_future_usage; with
 * setup_future_usage the pm is attached to the session's customer, created if none), its charge,
 * records payment_intent.succeeded then checkout.session.completed (paid), and 303s to success_url.
 * A decline records payment_intent.payment_failed and shows the page again (402) with the error.
 *
 * Events (`events`, creation order) are shaped as Stripe's: evt_ id, api_version, created,
 * livemode false, pending_webhooks, request { id, idempotency_key } (null for page actions), type,
 * data.object (a snapshot). With `webhookUrl` set each event is POSTed there, in order, signed with
 * `webhookSecret`; a receiver that is down is recorded in `deliveries`, never thrown. `settled()`
 * waits for those deliveries.
 *
 * Sources (read, not copied):
 * - stripe-node 23.1.0 (node_modules/stripe): RequestSender.js (headers, automatic idempotency key,
 *   retry of a closed connection even with maxNetworkRetries 0), utils.js stringifyRequestData (bracket
 *   notation), Error.js (status → error class), Webhooks.js (signature), autoPagination.js
 *   (ending_before pages walked backwards).
 * - stripe/openapi openapi/fixtures3.json @f6c2a48: checkout.session, payment_intent, charge, refund,
 *   dispute, event, customer and payment_method objects, id shapes.
 * - docs.stripe.com: api/errors, api/pagination, idempotency (api/idempotent_requests),
 *   automated-testing (a card_declined/generic_decline error object), declines/codes, testing (test
 *   cards), checkout/custom-checkout (24 h expiry), webhooks/process-undelivered-events.
 * - authentication_required off-session: stripe-archive/stripe-payments-demo#43 (a StripeCardError with
 *   code authentication_required, that message, the intent in requires_payment_method),
 *   openfoodfoundation/openfoodnetwork#6534 (a recorded charge failing with it), a recorded
 *   `last_payment_error` of a 3184 card (code and decline_code both authentication_required; a Stripe
 *   webhook log committed to a public repository); stripe-samples/charging-a-saved-card
 *   server/node/server.js for what the error carries (payment_method, payment_intent.client_secret).
 * - Real error wording quoted in issues: stripe/stripe-node#361 (masked key), #1353 (missing key),
 *   #1944 (parameter_missing), graphql-python/graphene#869 (idempotency_error),
 *   redwoodjs/example-store-stripe#168 (resource_missing), stripe/stripe-dotnet#118 (unrecognized
 *   URL), stripe/stripe-apps#819 (api_error).
 * - /work/shared/reference/payments-mcp-monitoring-2026.md §1.3, 1.4, 1.6.
 * Files: fake-stripe-server.ts (HTTP, auth, idempotency, faults, routes, hosted page),
 * fake-stripe-account.ts (state, PaymentIntents, refunds, disputes, events list),
 * fake-stripe-checkout.ts (Checkout Sessions), fake-stripe-objects.ts (object shapes, test cards),
 * fake-stripe-webhooks.ts (signing, delivery), fake-stripe-wire.ts (ids, form parser, errors, paging).
 *
 * Not modelled: prices and products, expand[] (accepted, ignored), other modes and payment methods,
 * the 409 for a key whose first request is still running, Stripe's retries of failed deliveries, and
 * the other events Stripe also sends (charge.succeeded, payment_intent.created, …).
 * Unverified: `Idempotent-Replayed: true` is this fake's (Stripe's docs name no replay header; Whop's
 * do), and error wording marked "fake's wording" is invented. Stripe's own test-mode signatures also
 * carry a `v0=` entry, which stripe-node ignores; this fake sends `t=` and `v1=` only.
 */
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { FakeAccount } from './fake-stripe-account.ts';
import { FakeCheckout } from './fake-stripe-checkout.ts';
import type { CardBehaviour, Charge, CheckoutSession, Dispute, StripeEvent, StripeObject } from './fake-stripe-objects.ts';
import { createFakeStripeServer, type Faults, type RecordedRequest } from './fake-stripe-server.ts';
import { WebhookSender, type DeliverOptions, type Delivery } from './fake-stripe-webhooks.ts';
import { randomChars } from './fake-stripe-wire.ts';

export type { CardBehaviour, Charge, CheckoutSession, DeliverOptions, Delivery, Dispute, RecordedRequest, StripeEvent, StripeObject };
export type { Customer, PaymentIntent, PaymentMethod, Refund } from './fake-stripe-objects.ts';

export interface FakeStripe {
  /** http://127.0.0.1:<port>, without /v1. */
  url: string;
  host: string;
  port: number;
  /** `sk_test_…`; the only key the fake accepts. */
  secretKey: string;
  /** `whsec_…`; what deliveries are signed with. */
  webhookSecret: string;
  /** Where every recorded event is POSTed, or null for none. Settable at any time. */
  webhookUrl: string | null;
  requests: RecordedRequest[];
  /** Every event, in creation order. */
  events: StripeEvent[];
  deliveries: Delivery[];
  /** The fake's clock in Unix seconds (created, expires_at, event times); replace it to move time. */
  now: () => number;
  /** The current state of any object by id (cus_, cs_test_, pi_, ch_, pm_, re_, dp_), a copy. */
  object<T extends StripeObject = StripeObject>(id: string): T | undefined;
  /** Completes an open session without the browser: paid with `card` (default pm_card_visa), as the
   *  page does, or 'unpaid' as a delayed method does (the intent stays processing). */
  complete(sessionId: string, options?: { paymentStatus?: 'paid' | 'unpaid'; card?: string }): CheckoutSession;
  /** The delayed payment of an unpaid completed session succeeds: payment_intent.succeeded,
   *  checkout.session.async_payment_succeeded. */
  succeedAsync(sessionId: string): CheckoutSession;
  /** …or fails: payment_intent.payment_failed, checkout.session.async_payment_failed. */
  failAsync(sessionId: string): CheckoutSession;
  /** Makes a saved payment method behave as another test card from now on (a card that starts failing). */
  savedCardBehaviour(paymentMethodId: string, behaviour: CardBehaviour): void;
  /** Refunds `amountMinor` of the intent's charge: cumulative amount_refunded, charge.refunded. */
  refund(paymentIntentId: string, amountMinor: number): Charge;
  /** Records charge.dispute.funds_withdrawn (a new dispute, needs_response) or
   *  charge.dispute.funds_reinstated (that or the latest dispute, won). */
  dispute(paymentIntentId: string, kind: 'funds_withdrawn' | 'funds_reinstated', disputeId?: string): Dispute;
  /** POSTs one event to `url` (default webhookUrl) signed as Stripe signs; options sign wrongly. */
  deliver(event: StripeEvent, url?: string, options?: DeliverOptions): Promise<Response>;
  /** Resolves when every automatic delivery queued so far has finished. */
  settled(): Promise<void>;
  /** The next `count` requests (matching `predicate`) are carried out and stored, but their socket is
   *  destroyed instead of answered. Note stripe-node retries a closed connection once by itself. */
  loseAnswers(count: number, predicate?: (request: RecordedRequest) => boolean): void;
  /** The next `count` /v1 requests answer `status` (500 api_error; 429 rate_limit) and do nothing. */
  failNext(status?: number, count?: number): void;
  close(): Promise<void>;
}

export const FAKE_STRIPE_API_VERSION = Stripe.API_VERSION;

export async function startFakeStripe(): Promise<FakeStripe> {
  const faults: Faults = { failures: [], lost: [] };
  const requests: RecordedRequest[] = [];
  let url = '';
  const webhooks = new WebhookSender(() => fake.webhookSecret, () => fake.now());
  const account = new FakeAccount(() => fake.now(), (event) => webhooks.recorded(event), FAKE_STRIPE_API_VERSION);
  const checkout = new FakeCheckout(account, () => url);
  const secretKey = () => fake.secretKey;
  const server = createFakeStripeServer({ account, checkout, secretKey, requests, faults, defaultVersion: FAKE_STRIPE_API_VERSION });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  url = `http://127.0.0.1:${port}`;

  const fake: FakeStripe = {
    url,
    host: '127.0.0.1',
    port,
    secretKey: `sk_test_${randomChars(24)}`,
    webhookSecret: `whsec_${randomChars(32)}`,
    get webhookUrl() {
      return webhooks.url;
    },
    set webhookUrl(value: string | null) {
      webhooks.url = value;
    },
    requests,
    events: account.events,
    deliveries: webhooks.deliveries,
    now: () => Math.floor(Date.now() / 1000),
    object: (id) => {
      const found = account.objects.get(id);
      if (found?.object === 'checkout.session') checkout.session(id);
      return found ? (structuredClone(found) as never) : undefined;
    },
    complete(sessionId, options = {}) {
      const card = options.card ?? 'pm_card_visa';
      if (options.paymentStatus === 'unpaid') return structuredClone(checkout.completeUnpaid(sessionId, card));
      const result = checkout.pay(sessionId, card);
      if ('problem' in result) throw new Error(`fake Stripe: ${result.problem}`);
      return structuredClone(result.session);
    },
    succeedAsync: (sessionId) => structuredClone(checkout.settle(sessionId, true)),
    failAsync: (sessionId) => structuredClone(checkout.settle(sessionId, false)),
    savedCardBehaviour(paymentMethodId, behaviour) {
      if (!account.find(paymentMethodId, 'payment_method')) throw new Error(`fake Stripe: no payment method ${paymentMethodId}`);
      account.behaviours.set(paymentMethodId, behaviour);
    },
    refund(paymentIntentId, amountMinor) {
      const answer = account.refund({ paymentIntent: paymentIntentId }, amountMinor, { requestId: null, idempotencyKey: null });
      if (answer.status !== 200) throw new Error(`fake Stripe: refund refused: ${JSON.stringify(answer.body)}`);
      return structuredClone(account.find<Charge>((answer.body as { charge: string }).charge, 'charge')!);
    },
    dispute: (paymentIntentId, kind, disputeId) => structuredClone(account.dispute(paymentIntentId, kind, disputeId)),
    deliver: (event, to, options) => webhooks.deliver(event, to ?? webhooks.url, options),
    settled: () => webhooks.settled(),
    loseAnswers(count, predicate = () => true) {
      for (let i = 0; i < count; i++) faults.lost.push({ predicate });
    },
    failNext(status = 500, count = 1) {
      for (let i = 0; i < count; i++) faults.failures.push(status);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return fake;
}
