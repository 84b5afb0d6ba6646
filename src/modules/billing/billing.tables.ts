import type { Generated } from 'kysely';
import type { Via } from '../../shared/via.ts';

/**
 * open: a Checkout Session waits for the buyer; pending: an auto top-up to be charged; paid: Stripe
 * took the money (credited once); failed: declined or not created; expired: the session lapsed unpaid.
 */
export type PaymentStatus = 'open' | 'pending' | 'paid' | 'failed' | 'expired';

/**
 * One purchase of a pack. `credited` and `taken_back` are how many of its credits the ledger has
 * credited and taken back so far: each Stripe event brings them to what Stripe's facts say, so the
 * same event twice, or two events in either order, move each credit once (billing.settle.usecases.ts).
 */
export interface PaymentsTable {
  id: string;
  account_id: string;
  source: 'checkout' | 'topup';
  status: PaymentStatus;
  credits: number;
  /** In the currency's smallest unit. */
  amount: number;
  currency: string;
  checkout_session_id: string | null;
  checkout_url: string | null;
  payment_intent_id: string | null;
  credited: Generated<number>;
  taken_back: Generated<number>;
  /** Why a payment failed, in Stripe's words (a decline), or why it could not be created. */
  failure: string | null;
  via: Via | null;
  created_at: string;
  updated_at: string;
  paid_at: string | null;
}

/** What Stripe said of a PaymentIntent's charge: refunded so far (cumulative, as `charge.refunded` carries it). */
export interface StripePaymentIntentsTable {
  id: string;
  charge_id: string | null;
  amount_refunded: Generated<number>;
  updated_at: string;
}

/** One dispute: its funds withdrawn (the credits go back) and, if won, reinstated (they return). Flags only ever turn on. */
export interface StripeDisputesTable {
  id: string;
  payment_intent_id: string;
  funds_withdrawn: Generated<number>;
  funds_reinstated: Generated<number>;
  updated_at: string;
}

/**
 * An account's opt-in auto top-up: when the spendable balance falls below `threshold`, buy the pack of
 * `pack_credits` with the card saved at a Checkout, at most `monthly_max` times a UTC month. `below`
 * marks a crossing already acted on (one attempt per crossing). A failed charge switches it off and
 * drops the card (`failures`, `last_failure` say so): a card that failed is never charged again until
 * a Checkout replaces it. `awaiting_payment` is the Checkout whose card it waits for (0022).
 */
export interface AutoTopupsTable {
  account_id: string;
  /** 1 on, 0 off (never set up, turned off, waiting for a card, or switched off by a failed charge). */
  enabled: Generated<number>;
  threshold: number;
  pack_credits: number;
  monthly_max: number;
  customer_id: string | null;
  payment_method_id: string | null;
  below: Generated<number>;
  failures: Generated<number>;
  last_failure: string | null;
  /** The payment id of the Checkout that is to save the card; null once it did, or once the owner turned auto top-up off. */
  awaiting_payment: string | null;
  updated_at: string;
}

declare module '../../shared/db/database.ts' {
  interface Tables {
    auto_topups: AutoTopupsTable;
    payments: PaymentsTable;
    stripe_payment_intents: StripePaymentIntentsTable;
    stripe_disputes: StripeDisputesTable;
  }
}
