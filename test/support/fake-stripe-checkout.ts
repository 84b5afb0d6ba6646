/**
 * Checkout Sessions of the fake Stripe (see fake-stripe.ts): creation, expiry, and payment on the
 * hosted page or through the test helpers. The PaymentIntent, card outcomes and events come from
 * the account (fake-stripe-account.ts).
 */
import { ON_PAGE, type Cause, type FakeAccount } from './fake-stripe-account.ts';
import { TEST_CARDS, newPaymentIntent, testCard, type CheckoutSession, type Customer, type PaymentIntent, type PaymentMethod } from './fake-stripe-objects.ts';
import {
  integer, invalidRequest, list, metadataOf, missingParam, newId, noSuch, obj, ok, str,
  type Answer, type Params,
} from './fake-stripe-wire.ts';

/** What a Checkout Session keeps for the PaymentIntent it creates at payment (not part of its JSON). */
export interface SessionPlan {
  items: { name: string; quantity: number; unitAmount: number }[];
  intentMetadata: Record<string, string>;
  setupFutureUsage: 'off_session' | 'on_session' | null;
}

export class FakeCheckout {
  private readonly plans = new Map<string, SessionPlan>();

  constructor(
    private readonly account: FakeAccount,
    private readonly hostedBase: () => string,
  ) {}

  /** The session, expired first if it is open past `expires_at` (so a test can move the clock). */
  session(id: string): CheckoutSession | undefined {
    const session = this.account.find<CheckoutSession>(id, 'checkout.session');
    if (session?.status === 'open' && this.account.now() >= session.expires_at) this.expire(session, ON_PAGE);
    return session;
  }

  plan(sessionId: string): SessionPlan | undefined {
    return this.plans.get(sessionId);
  }

  createSession(params: Params): Answer {
    const mode = str(params, 'mode');
    if (!mode) return missingParam('mode');
    if (mode !== 'payment') return invalidRequest(`This fake only models mode=payment, not ${mode}.`, 'mode');
    const successUrl = str(params, 'success_url');
    if (!successUrl) return missingParam('success_url');
    const lines = list(params, 'line_items');
    if (lines.length === 0) return missingParam('line_items');
    const items: SessionPlan['items'] = [];
    let currency: string | undefined;
    for (const [i, line] of lines.entries()) {
      const at = `line_items[${i}]`;
      const item = typeof line === 'object' && !Array.isArray(line) ? line : {};
      if (str(item, 'price')) return invalidRequest(`This fake models price_data only, not prices (${str(item, 'price')}).`, `${at}[price]`);
      const data = obj(item, 'price_data');
      if (!data) return missingParam(`${at}[price_data]`);
      const lineCurrency = str(data, 'currency')?.toLowerCase();
      if (!lineCurrency) return missingParam(`${at}[price_data][currency]`);
      const name = str(obj(data, 'product_data'), 'name');
      if (!name) return missingParam(`${at}[price_data][product_data][name]`);
      if (str(data, 'unit_amount') === undefined) return missingParam(`${at}[price_data][unit_amount]`);
      const unitAmount = integer(str(data, 'unit_amount'));
      if (unitAmount === undefined || unitAmount < 0) {
        return invalidRequest(`Invalid integer: ${str(data, 'unit_amount')}`, `${at}[price_data][unit_amount]`);
      }
      if (str(item, 'quantity') === undefined) return missingParam(`${at}[quantity]`);
      const quantity = integer(str(item, 'quantity'));
      if (quantity === undefined || quantity < 1) return invalidRequest(`Invalid integer: ${str(item, 'quantity')}`, `${at}[quantity]`);
      if (currency && lineCurrency !== currency) return invalidRequest('All line items must have the same currency.', `${at}[price_data][currency]`);
      currency = lineCurrency;
      items.push({ name, quantity, unitAmount });
    }
    const customer = str(params, 'customer') ?? null;
    if (customer && !this.account.find(customer, 'customer')) return noSuch('customer', customer, 'customer');
    const customerEmail = str(params, 'customer_email') ?? null;
    if (customer && customerEmail) return invalidRequest('You may only specify one of these parameters: customer, customer_email.', 'customer_email');
    const intentData = obj(params, 'payment_intent_data');
    const setupFutureUsage = str(intentData, 'setup_future_usage') ?? null;
    if (setupFutureUsage !== null && setupFutureUsage !== 'off_session' && setupFutureUsage !== 'on_session') {
      return invalidRequest(`Invalid setup_future_usage: ${setupFutureUsage}`, 'payment_intent_data[setup_future_usage]');
    }
    const created = this.account.now();
    const total = items.reduce((sum, item) => sum + item.unitAmount * item.quantity, 0);
    const id = newId('cs_test');
    const session: CheckoutSession = {
      id, object: 'checkout.session', amount_subtotal: total, amount_total: total,
      cancel_url: str(params, 'cancel_url') ?? null, client_reference_id: str(params, 'client_reference_id') ?? null,
      created, currency: currency ?? 'usd', customer, customer_details: null, customer_email: customerEmail,
      // "Checkout Sessions expire 24 hours after creation" (docs.stripe.com/checkout/custom-checkout).
      expires_at: created + 24 * 3600, livemode: false, metadata: metadataOf(params), mode: 'payment',
      // Since API 2022-08-01 the PaymentIntent is created when the customer pays, so null until then.
      payment_intent: null, payment_method_types: ['card'], payment_status: 'unpaid', status: 'open',
      success_url: successUrl, url: `${this.hostedBase()}/c/pay/${id}`,
    };
    this.plans.set(id, { items, intentMetadata: metadataOf(intentData), setupFutureUsage });
    return ok(this.account.keep(session));
  }

  private expire(session: CheckoutSession, cause: Cause) {
    Object.assign(session, { status: 'expired', url: null });
    this.account.emit('checkout.session.expired', session, cause);
  }

  expireSession(id: string, cause: Cause): Answer {
    const session = this.session(id);
    if (!session) return noSuch('checkout.session', id, 'session');
    if (session.status !== 'open') {
      return invalidRequest(`Only Checkout Sessions with a status of open can be expired; ${id} is ${session.status}.`);
    }
    this.expire(session, cause);
    return ok(session);
  }

  /** The session's PaymentIntent, made at the first payment attempt; a saved card needs a customer. */
  private sessionIntent(session: CheckoutSession): PaymentIntent {
    const plan = this.plans.get(session.id)!;
    if (plan.setupFutureUsage && !session.customer) {
      session.customer = this.account.keep<Customer>({
        id: newId('cus'), object: 'customer', created: this.account.now(), email: session.customer_email,
        livemode: false, metadata: {}, name: null,
      }).id;
    }
    const existing = session.payment_intent ? this.account.find<PaymentIntent>(session.payment_intent, 'payment_intent') : undefined;
    if (existing) return existing;
    const intent = this.account.keep(newPaymentIntent({
      amount: session.amount_total, currency: session.currency, customer: session.customer,
      metadata: plan.intentMetadata, setup_future_usage: plan.setupFutureUsage,
    }, this.account.now()));
    session.payment_intent = intent.id;
    return intent;
  }

  /** A customer pays on the hosted page (or a test does through `complete`): the session's card flow. */
  pay(sessionId: string, card: string): { session: CheckoutSession } | { problem: string } {
    const session = this.session(sessionId);
    if (!session) return { problem: `No such checkout session: ${sessionId}` };
    if (session.status !== 'open') return { problem: `This Checkout Session is ${session.status}.` };
    const known = testCard(card);
    if (!known) return { problem: `Unknown test card ${card}; use one of ${Object.keys(TEST_CARDS).join(', ')}.` };
    const intent = this.sessionIntent(session);
    const plan = this.plans.get(sessionId)!;
    const method = this.account.newMethod(card, plan.setupFutureUsage ? session.customer : null);
    // On the page the customer passes 3-D Secure, so only `declined` fails here; a saved 3184 card
    // still asks for authentication on every later off-session payment.
    if (known.behaviour === 'declined') return { problem: this.account.decline(intent, method, 'declined', ON_PAGE).message };
    this.account.succeed(intent, method, ON_PAGE);
    Object.assign(session, { status: 'complete', payment_status: 'paid', url: null, customer_details: this.detailsOf(session) });
    this.account.emit('checkout.session.completed', session, ON_PAGE);
    return { session };
  }

  private detailsOf(session: CheckoutSession) {
    const customer = session.customer ? this.account.find<Customer>(session.customer, 'customer') : undefined;
    return { email: session.customer_email ?? customer?.email ?? null, name: customer?.name ?? null };
  }

  /** Completion with a delayed method: the session completes unpaid and its intent is processing. */
  completeUnpaid(sessionId: string, card: string): CheckoutSession {
    const session = this.session(sessionId);
    if (session?.status !== 'open') throw new Error(`fake Stripe: session ${sessionId} is not open`);
    const intent = this.sessionIntent(session);
    const plan = this.plans.get(sessionId)!;
    const method = this.account.newMethod(card, plan.setupFutureUsage ? session.customer : null);
    Object.assign(intent, { status: 'processing', payment_method: method.id });
    Object.assign(session, { status: 'complete', payment_status: 'unpaid', url: null, customer_details: this.detailsOf(session) });
    this.account.emit('checkout.session.completed', session, ON_PAGE);
    return session;
  }

  /** The delayed payment of a completed, unpaid session settles: paid, or failed. */
  settle(sessionId: string, succeeded: boolean): CheckoutSession {
    const session = this.session(sessionId);
    const intent = session?.payment_intent ? this.account.find<PaymentIntent>(session.payment_intent, 'payment_intent') : undefined;
    if (!session || !intent || intent.status !== 'processing') throw new Error(`fake Stripe: session ${sessionId} has no payment in processing`);
    const method = this.account.find<PaymentMethod>(intent.payment_method ?? '', 'payment_method')!;
    if (succeeded) {
      this.account.succeed(intent, method, ON_PAGE);
      session.payment_status = 'paid';
      this.account.emit('checkout.session.async_payment_succeeded', session, ON_PAGE);
    } else {
      this.account.decline(intent, method, 'declined', ON_PAGE);
      this.account.emit('checkout.session.async_payment_failed', session, ON_PAGE);
    }
    return session;
  }
}
