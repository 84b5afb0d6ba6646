/**
 * Buying credits: Stripe's keys, the packs on sale and who to ask when nothing is on sale. Read once
 * at start-up with the rest of the configuration (config.ts); a bad value stops it with one line
 * naming the variable, and a secret's value is never repeated in it.
 */
import { decimalsOf } from '../money.ts';

export interface CreditPack {
  credits: number;
  /** The price in the currency's smallest unit (cents for usd), as Stripe takes it. */
  amount: number;
  /** The price as written in CREDIT_PACKS ("5.00"), for pages and answers. */
  price: string;
}

export interface StripeConfig {
  secretKey: string;
  webhookSecret: string;
  /** https://api.stripe.com; tests point it at a fake on 127.0.0.1. */
  apiUrl: string;
}

export interface BillingConfig {
  /** null: this instance sells nothing; credits come from the operator (`subpilot credits grant`). */
  stripe: StripeConfig | null;
  /** Cheapest first; empty without Stripe. */
  packs: CreditPack[];
  /** ISO 4217, lower case, as Stripe writes it. */
  currency: string;
  /** Who to ask for credits when nothing is on sale (an email address or a URL); null: "the operator". */
  contact: string | null;
}

type Env = Record<string, string | undefined>;
type Fail = (message: string) => never;

/** Currencies with three decimals (docs.stripe.com/currencies#three-decimal). */
const THREE_DECIMAL = new Set(['bhd', 'jod', 'kwd', 'omr', 'tnd']);

/** `500:5.00,2000:18.00`: credits, a colon, the price in the currency's major unit. */
export function parsePacks(raw: string, currency: string, fail: Fail): CreditPack[] {
  const decimals = decimalsOf(currency);
  const pricePattern = decimals === 0 ? /^\d+$/ : /^\d+(\.\d{1,2})?$/;
  const example = decimals === 0 ? '500:700,2000:2500' : '500:5.00,2000:18.00';
  const packs = raw.split(',').map((entry) => {
    const [credits, price, extra] = entry.trim().split(':');
    if (extra !== undefined || !credits || !price || !/^\d+$/.test(credits) || !pricePattern.test(price)) {
      return fail(`CREDIT_PACKS must be credits:price pairs separated by commas, e.g. ${example}; "${entry.trim()}" is not one`);
    }
    const [whole, fraction = ''] = price.split('.');
    const amount = Number(whole) * 10 ** decimals + Number(fraction.padEnd(decimals, '0') || 0);
    if (Number(credits) < 1 || Number(credits) > 1_000_000_000 || amount < 1 || !Number.isSafeInteger(amount)) {
      return fail(`CREDIT_PACKS: "${entry.trim()}" needs at least 1 credit (at most 1,000,000,000) and a price above 0`);
    }
    return { credits: Number(credits), amount, price: decimals === 0 ? whole! : `${whole}.${fraction.padEnd(2, '0')}` };
  });
  if (new Set(packs.map((pack) => pack.credits)).size !== packs.length) {
    fail('CREDIT_PACKS lists two packs of the same number of credits; a pack is named by its credits');
  }
  return packs.sort((a, b) => a.credits - b.credits);
}

export function billingConfig(env: Env, publicUrl: string | null, apiUrl: string, fail: Fail): BillingConfig {
  const currency = (env.CURRENCY || 'usd').toLowerCase();
  if (!/^[a-z]{3}$/.test(currency)) fail(`CURRENCY must be a three-letter ISO 4217 code such as usd or eur, got "${env.CURRENCY}"`);
  // Stripe counts these in thousandths, yet takes only amounts ending in 0: not worth a third price format.
  if (THREE_DECIMAL.has(currency)) fail(`CURRENCY ${currency} has three decimals, which this service does not price; choose another currency`);
  const contact = env.BILLING_CONTACT?.trim() || null;
  const secretKey = env.STRIPE_SECRET_KEY || '';
  if (!secretKey) {
    if (env.STRIPE_WEBHOOK_SECRET || env.CREDIT_PACKS) fail('STRIPE_SECRET_KEY must be set when STRIPE_WEBHOOK_SECRET or CREDIT_PACKS is set');
    return { stripe: null, packs: [], currency, contact };
  }
  // Restricted keys (rk_) work too; a publishable key (pk_) cannot create a Checkout Session.
  if (!/^(sk|rk)_(test|live)_\S+$/.test(secretKey)) fail('STRIPE_SECRET_KEY must be a secret key starting sk_test_, sk_live_ (or rk_); the value is not shown');
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET || '';
  if (!/^whsec_\S+$/.test(webhookSecret)) fail('STRIPE_WEBHOOK_SECRET must be set to the endpoint\'s signing secret (whsec_…) when STRIPE_SECRET_KEY is set; the value is not shown');
  if (!env.CREDIT_PACKS) fail('CREDIT_PACKS must be set when STRIPE_SECRET_KEY is set, e.g. 500:5.00,2000:18.00,10000:80.00');
  // Stripe sends the buyer back to the dashboard: it needs its public address.
  if (!publicUrl) fail('PUBLIC_URL must be set when STRIPE_SECRET_KEY is set: Checkout sends buyers back to it');
  return { stripe: { secretKey, webhookSecret, apiUrl }, packs: parsePacks(env.CREDIT_PACKS!, currency, fail), currency, contact };
}
