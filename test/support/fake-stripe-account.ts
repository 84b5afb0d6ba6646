/**
 * The state of the fake Stripe account (see fake-stripe.ts for the interface and the sources):
 * objects by id, events, how each saved card behaves, and what customers, PaymentIntents, refunds,
 * disputes and the events list do to it (Checkout Sessions: fake-stripe-checkout.ts). Every change
 * Stripe announces records an event with a snapshot of the object, in creation order.
 */
import {
  DECLINES, TEST_CARDS, newCharge, testCard, newPaymentIntent, newPaymentMethod,
  type CardBehaviour, type CardError, type Charge, type Customer, type Dispute,
  type PaymentIntent, type PaymentMethod, type Refund, type StripeEvent, type StripeObject,
} from './fake-stripe-objects.ts';
import {
  integer, invalidRequest, list, metadataOf, missingParam, newId, noSuch, obj, ok, page, str, stripeError,
  type Answer, type Params,
} from './fake-stripe-wire.ts';

/** The API request behind a change; both null for what a customer does on the hosted page. */
export interface Cause {
  requestId: string | null;
  idempotencyKey: string | null;
}
export const ON_PAGE: Cause = { requestId: null, idempotencyKey: null };

const clone = <T>(value: T): T => structuredClone(value);

export class FakeAccount {
  readonly objects = new Map<string, StripeObject>();
  readonly events: StripeEvent[] = [];
  readonly behaviours = new Map<string, CardBehaviour>();

  constructor(
    readonly now: () => number,
    private readonly recorded: (event: StripeEvent) => void,
    private readonly apiVersion: string,
  ) {}

  find<T extends StripeObject = StripeObject>(id: string, object: string): T | undefined {
    const found = this.objects.get(id);
    if (found?.object !== object) return undefined;
    return found as T;
  }

  keep<T extends StripeObject>(object: T): T {
    this.objects.set(object.id, object);
    return object;
  }

  emit(type: string, object: StripeObject, cause: Cause): StripeEvent {
    const event: StripeEvent = {
      id: newId('evt'),
      object: 'event',
      api_version: this.apiVersion,
      created: this.now(),
      data: { object: clone(object) },
      livemode: false,
      pending_webhooks: 0,
      request: { id: cause.requestId, idempotency_key: cause.idempotencyKey },
      type,
    };
    this.events.push(event);
    this.recorded(event);
    return event;
  }

  createCustomer(params: Params): Answer {
    const customer: Customer = {
      id: newId('cus'), object: 'customer', created: this.now(), email: str(params, 'email') ?? null,
      livemode: false, metadata: metadataOf(params), name: str(params, 'name') ?? null,
    };
    return ok(this.keep(customer));
  }

  /** A new PaymentMethod from a test card token, behaving as that card until told otherwise. */
  newMethod(card: string, customer: string | null): PaymentMethod {
    const known = testCard(card);
    if (!known) throw new Error(`fake Stripe: unknown test card ${card}; use one of ${Object.keys(TEST_CARDS).join(', ')}`);
    const method = this.keep(newPaymentMethod(card, customer, this.now()));
    this.behaviours.set(method.id, known.behaviour);
    return method;
  }

  succeed(intent: PaymentIntent, method: PaymentMethod, cause: Cause): Charge {
    const charge = this.keep(newCharge(intent, method, this.now()));
    Object.assign(intent, {
      status: 'succeeded', amount_received: intent.amount, payment_method: method.id, latest_charge: charge.id,
      last_payment_error: null, next_action: null,
    });
    this.emit('payment_intent.succeeded', intent, cause);
    return charge;
  }

  decline(intent: PaymentIntent, method: PaymentMethod, behaviour: Exclude<CardBehaviour, 'succeeds'>, cause: Cause): CardError {
    const decline = DECLINES[behaviour];
    const charge = this.keep(newCharge(intent, method, this.now(), decline));
    const error: CardError = {
      type: 'card_error', ...decline, charge: charge.id, payment_method: clone(method),
      doc_url: `https://stripe.com/docs/error-codes/${decline.code.replaceAll('_', '-')}`,
    };
    // A failed attempt leaves the intent waiting for another method; the error keeps the one that failed.
    Object.assign(intent, { status: 'requires_payment_method', payment_method: null, latest_charge: charge.id, last_payment_error: error });
    this.emit('payment_intent.payment_failed', intent, cause);
    return error;
  }

  createPaymentIntent(params: Params, cause: Cause): Answer {
    const amountText = str(params, 'amount');
    if (amountText === undefined) return missingParam('amount');
    const amount = integer(amountText);
    if (amount === undefined || amount < 1) return invalidRequest('This value must be greater than or equal to 1.', 'amount');
    const currency = str(params, 'currency')?.toLowerCase();
    if (!currency) return missingParam('currency');
    const customer = str(params, 'customer') ?? null;
    if (customer && !this.find(customer, 'customer')) return noSuch('customer', customer, 'customer');
    const confirm = str(params, 'confirm') === 'true';
    // off_session=true, or "one_off"/"recurring" as older API versions took it.
    const offSession = (str(params, 'off_session') ?? 'false') !== 'false';
    const reference = str(params, 'payment_method');
    if (confirm && !reference) return missingParam('payment_method');
    let method: PaymentMethod | undefined;
    if (reference && testCard(reference)) {
      // A test token makes a fresh PaymentMethod, so the intent names a pm_ id, not "pm_card_visa".
      method = this.newMethod(reference, null);
    } else if (reference) {
      method = this.find<PaymentMethod>(reference, 'payment_method');
      if (!method) return noSuch('PaymentMethod', reference, 'payment_method');
      if (method.customer && method.customer !== customer) {
        const wording = `The PaymentMethod ${reference} is attached to customer ${method.customer}; pass that customer (fake's wording).`;
        return invalidRequest(wording, 'payment_method');
      }
    }
    const setupFutureUsage = str(params, 'setup_future_usage');
    const intent = this.keep(newPaymentIntent({
      amount, currency, customer, metadata: metadataOf(params),
      setup_future_usage: setupFutureUsage === 'off_session' || setupFutureUsage === 'on_session' ? setupFutureUsage : null,
    }, this.now()));
    intent.payment_method = method?.id ?? null;
    if (!confirm || !method) {
      intent.status = method ? 'requires_confirmation' : 'requires_payment_method';
      return ok(intent);
    }
    const behaviour = this.behaviours.get(method.id) ?? 'succeeds';
    if (behaviour === 'succeeds') {
      this.succeed(intent, method, cause);
      return ok(intent);
    }
    if (behaviour === 'authentication_required' && !offSession) {
      // On-session, the customer can still authenticate: no error, the intent waits for them.
      Object.assign(intent, { status: 'requires_action', next_action: { type: 'use_stripe_sdk' } });
      this.emit('payment_intent.requires_action', intent, cause);
      return ok(intent);
    }
    const error = this.decline(intent, method, behaviour, cause);
    // Stored like any executed request: a replay of this key answers the same 402.
    return stripeError(402, { ...error, payment_intent: clone(intent) }, true);
  }

  refund(target: { paymentIntent?: string; charge?: string }, amount: number | undefined, cause: Cause): Answer {
    const intent = target.paymentIntent ? this.find<PaymentIntent>(target.paymentIntent, 'payment_intent') : undefined;
    if (target.paymentIntent && !intent) return noSuch('payment_intent', target.paymentIntent, 'payment_intent');
    const chargeId = target.charge ?? intent?.latest_charge ?? '';
    const charge = this.find<Charge>(chargeId, 'charge');
    if (!charge || charge.status !== 'succeeded') {
      const param = target.paymentIntent ? 'payment_intent' : 'charge';
      return invalidRequest(`${target.paymentIntent ?? chargeId} has no successful charge to refund.`, param);
    }
    const left = charge.amount - charge.amount_refunded;
    if (left === 0) return invalidRequest(`Charge ${charge.id} has already been refunded.`, undefined, 'charge_already_refunded');
    const refunded = amount ?? left;
    if (refunded < 1 || refunded > left) {
      return invalidRequest(`Refund amount (${refunded}) is greater than unrefunded amount on charge (${left}).`, 'amount', 'amount_too_large');
    }
    // amount_refunded is cumulative over every refund of the charge.
    Object.assign(charge, { amount_refunded: charge.amount_refunded + refunded, refunded: charge.amount_refunded + refunded === charge.amount });
    const refund = this.keep<Refund>({
      id: newId('re'), object: 'refund', amount: refunded, charge: charge.id, created: this.now(), currency: charge.currency,
      metadata: {}, payment_intent: charge.payment_intent, reason: null, status: 'succeeded',
    });
    this.emit('charge.refunded', charge, cause);
    return ok(refund);
  }

  dispute(paymentIntentId: string, kind: 'funds_withdrawn' | 'funds_reinstated', disputeId?: string): Dispute {
    const intent = this.find<PaymentIntent>(paymentIntentId, 'payment_intent');
    const charge = intent?.latest_charge ? this.find<Charge>(intent.latest_charge, 'charge') : undefined;
    if (!intent || charge?.status !== 'succeeded') throw new Error(`fake Stripe: ${paymentIntentId} has no successful charge to dispute`);
    const disputes = [...this.objects.values()].filter((o): o is Dispute => o.object === 'dispute' && o.charge === charge.id);
    let dispute = disputeId ? disputes.find((d) => d.id === disputeId) : kind === 'funds_reinstated' ? disputes.at(-1) : undefined;
    if (kind === 'funds_reinstated' && !dispute) throw new Error(`fake Stripe: no dispute to reinstate on ${paymentIntentId}`);
    dispute ??= this.keep<Dispute>({
      id: disputeId ?? newId('dp'), object: 'dispute', amount: charge.amount, charge: charge.id, created: this.now(),
      currency: charge.currency, livemode: false, metadata: {}, payment_intent: intent.id, reason: 'general', status: 'needs_response',
    });
    charge.disputed = true;
    // funds_withdrawn fires when the dispute opens, funds_reinstated when it is won.
    dispute.status = kind === 'funds_withdrawn' ? 'needs_response' : 'won';
    this.emit(`charge.dispute.${kind}`, dispute, ON_PAGE);
    return dispute;
  }

  listEvents(query: Params): Answer {
    const types = [str(query, 'type'), ...list(query, 'types')].filter((t): t is string => typeof t === 'string');
    const matches = (type: string) =>
      types.length === 0 || types.some((t) => (t.endsWith('*') ? type.startsWith(t.slice(0, -1)) : t === type));
    const created = obj(query, 'created');
    const exact = integer(str(query, 'created'));
    const bound = (key: string) => integer(str(created, key));
    const inRange = (t: number) =>
      (exact === undefined || t === exact) &&
      (bound('gte') === undefined || t >= bound('gte')!) && (bound('gt') === undefined || t > bound('gt')!) &&
      (bound('lte') === undefined || t <= bound('lte')!) && (bound('lt') === undefined || t < bound('lt')!);
    const delivery = str(query, 'delivery_success');
    const delivered = (e: StripeEvent) => delivery === undefined || (delivery === 'true') === (e.pending_webhooks === 0);
    return page([...this.events].reverse(), (e) => matches(e.type) && inRange(e.created) && delivered(e), query, '/v1/events');
  }
}
