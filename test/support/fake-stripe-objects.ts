/**
 * The Stripe objects the fake keeps, trimmed to the fields a credit-pack flow reads. Field names,
 * nullability and id shapes follow stripe/openapi `openapi/fixtures3.json` (@f6c2a48, 2026-08-21)
 * and stripe-node 23.1.0's types; see fake-stripe.ts for the other sources.
 */
import { newId, randomChars } from './fake-stripe-wire.ts';

export type CardBehaviour = 'succeeds' | 'authentication_required' | 'declined';

/**
 * Stripe's test PaymentMethod tokens (docs.stripe.com/testing): 4242 succeeds; 3184 "requires
 * authentication on all transactions", so off-session it declines with authentication_required;
 * 0002 declines with generic_decline.
 */
export const TEST_CARDS: Record<string, { behaviour: CardBehaviour; last4: string }> = {
  pm_card_visa: { behaviour: 'succeeds', last4: '4242' },
  pm_card_authenticationRequired: { behaviour: 'authentication_required', last4: '3184' },
  pm_card_chargeDeclined: { behaviour: 'declined', last4: '0002' },
};

/** The test card a token names, if it names one (own keys only: "constructor" is no card). */
export const testCard = (token: string) => (Object.hasOwn(TEST_CARDS, token) ? TEST_CARDS[token] : undefined);

export interface Customer {
  id: string;
  object: 'customer';
  created: number;
  email: string | null;
  livemode: false;
  metadata: Record<string, string>;
  name: string | null;
}

export interface PaymentMethod {
  id: string;
  object: 'payment_method';
  created: number;
  customer: string | null;
  livemode: false;
  metadata: Record<string, string>;
  type: 'card';
  card: { brand: 'visa'; last4: string; exp_month: number; exp_year: number; funding: 'credit' };
}

export interface CheckoutSession {
  id: string;
  object: 'checkout.session';
  amount_subtotal: number;
  amount_total: number;
  cancel_url: string | null;
  client_reference_id: string | null;
  created: number;
  currency: string;
  customer: string | null;
  customer_details: { email: string | null; name: string | null } | null;
  customer_email: string | null;
  expires_at: number;
  livemode: false;
  metadata: Record<string, string>;
  mode: 'payment';
  payment_intent: string | null;
  payment_method_types: string[];
  payment_status: 'paid' | 'unpaid';
  status: 'open' | 'complete' | 'expired';
  success_url: string;
  /** Only while the session is open (the API reference: "only present when the session is active"). */
  url: string | null;
}

/** The error object Stripe puts in `error` and in a PaymentIntent's `last_payment_error`. */
export interface CardError {
  type: 'card_error';
  code: string;
  decline_code: string;
  message: string;
  charge: string;
  doc_url: string;
  payment_method: PaymentMethod;
}

export interface PaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  capture_method: 'automatic';
  client_secret: string;
  confirmation_method: 'automatic';
  created: number;
  currency: string;
  customer: string | null;
  description: string | null;
  last_payment_error: CardError | null;
  latest_charge: string | null;
  livemode: false;
  metadata: Record<string, string>;
  next_action: { type: 'use_stripe_sdk' } | null;
  payment_method: string | null;
  payment_method_types: string[];
  setup_future_usage: 'off_session' | 'on_session' | null;
  status: 'requires_payment_method' | 'requires_confirmation' | 'requires_action' | 'processing' | 'succeeded';
}

export interface Charge {
  id: string;
  object: 'charge';
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  balance_transaction: string | null;
  captured: boolean;
  created: number;
  currency: string;
  customer: string | null;
  disputed: boolean;
  failure_code: string | null;
  failure_message: string | null;
  livemode: false;
  metadata: Record<string, string>;
  outcome: { network_status: string; reason: string | null; seller_message: string; type: string };
  paid: boolean;
  payment_intent: string;
  payment_method: string;
  payment_method_details: { type: 'card'; card: { brand: 'visa'; last4: string } };
  refunded: boolean;
  status: 'succeeded' | 'failed';
}

export interface Refund {
  id: string;
  object: 'refund';
  amount: number;
  charge: string;
  created: number;
  currency: string;
  metadata: Record<string, string>;
  payment_intent: string;
  reason: string | null;
  status: 'succeeded';
}

export interface Dispute {
  id: string;
  object: 'dispute';
  amount: number;
  charge: string;
  created: number;
  currency: string;
  livemode: false;
  metadata: Record<string, string>;
  payment_intent: string;
  reason: 'general';
  status: 'needs_response' | 'won';
}

export type StripeObject = Customer | PaymentMethod | CheckoutSession | PaymentIntent | Charge | Refund | Dispute;

export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  data: { object: StripeObject };
  livemode: false;
  /** Endpoints not yet delivered to; the fake's one endpoint is `webhookUrl`. */
  pending_webhooks: number;
  /** The API request that caused it; both null when a customer caused it on the hosted page. */
  request: { id: string | null; idempotency_key: string | null };
  type: string;
}

export function newPaymentMethod(card: string, customer: string | null, now: number): PaymentMethod {
  const last4 = testCard(card)?.last4 ?? '4242';
  return {
    id: newId('pm'),
    object: 'payment_method',
    created: now,
    customer,
    livemode: false,
    metadata: {},
    type: 'card',
    card: { brand: 'visa', last4, exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, funding: 'credit' },
  };
}

export function newPaymentIntent(
  fields: Pick<PaymentIntent, 'amount' | 'currency' | 'customer' | 'metadata' | 'setup_future_usage'>,
  now: number,
): PaymentIntent {
  const id = newId('pi');
  return {
    id,
    object: 'payment_intent',
    ...fields,
    amount_received: 0,
    capture_method: 'automatic',
    client_secret: `${id}_secret_${randomChars(25)}`,
    confirmation_method: 'automatic',
    created: now,
    description: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    next_action: null,
    payment_method: null,
    payment_method_types: ['card'],
    status: 'requires_payment_method',
  };
}

/** A charge of `intent` by `method`: succeeded, or failed with `error`'s code and message. */
export function newCharge(intent: PaymentIntent, method: PaymentMethod, now: number, error?: { code: string; message: string }): Charge {
  return {
    id: newId('ch'),
    object: 'charge',
    amount: intent.amount,
    amount_captured: error ? 0 : intent.amount,
    amount_refunded: 0,
    balance_transaction: error ? null : newId('txn'),
    captured: !error,
    created: now,
    currency: intent.currency,
    customer: intent.customer,
    disputed: false,
    failure_code: error?.code ?? null,
    failure_message: error?.message ?? null,
    livemode: false,
    metadata: { ...intent.metadata },
    outcome: error
      ? {
          network_status: 'declined_by_network',
          reason: error.code,
          seller_message: 'The bank did not return any further details with this decline.',
          type: 'issuer_declined',
        }
      : { network_status: 'approved_by_network', reason: null, seller_message: 'Payment complete.', type: 'authorized' },
    paid: !error,
    payment_intent: intent.id,
    payment_method: method.id,
    payment_method_details: { type: 'card', card: { brand: 'visa', last4: method.card.last4 } },
    refunded: false,
    status: error ? 'failed' : 'succeeded',
  };
}

/**
 * The two declines, with the code, decline_code and message Stripe answers (for
 * authentication_required see fake-stripe.ts's sources; docs.stripe.com/automated-testing for
 * card_declined/generic_decline). stripe-samples/charging-a-saved-card reads `err.raw.payment_method`
 * and `err.raw.payment_intent.client_secret` from the same error, so both are full objects.
 */
export const DECLINES: Record<Exclude<CardBehaviour, 'succeeds'>, { code: string; decline_code: string; message: string }> = {
  authentication_required: {
    code: 'authentication_required',
    decline_code: 'authentication_required',
    message: 'Your card was declined. This transaction requires authentication.',
  },
  declined: { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
};
