/**
 * The price book: what every hold, charge, capture and refund amounts to, from what was bought and
 * the prices (`config.prices`, the PRICE_* variables). Pure, so each rule is tested on its own:
 * features say what they sell, this says what it costs, and creditsIn (credits.usecases.ts) moves the money.
 */
import type { Prices } from '../../shared/config/config.ts';

/** What a ledger row pays for; credits.repository.ts turns it into the row's columns. */
export type Purchase =
  | { kind: 'scrape'; id: string }
  | { kind: 'generation'; id: string }
  | { kind: 'publication'; id: string }
  /** The matches one poll of a monitor stored, paid for together. */
  | { kind: 'monitor'; id: string; matches: number }
  /** Credits bought (a Checkout Session or an auto top-up), or taken back or given back for one. */
  | { kind: 'payment'; id: string };

/** What a scrape holds when it is accepted: the most it can cost, every subreddit × keyword pair. */
export const holdFor = (prices: Prices, scrape: { subreddits: number; keywords: number }) =>
  prices.scrapePair * scrape.subreddits * scrape.keywords;

/** What a completed scrape captures of its hold: all of it but the pairs of the subreddits that turned out unavailable. */
export const captureOf = (prices: Prices, scrape: { held: number; unavailable: number; keywords: number }) =>
  scrape.held - prices.scrapePair * scrape.unavailable * scrape.keywords;

/** What a fixed-price purchase is charged up front: a draft, a publication, or the matches a monitor stored. */
export function chargeFor(prices: Prices, purchase: Exclude<Purchase, { kind: 'scrape' | 'payment' }>): number {
  if (purchase.kind === 'generation') return prices.generate;
  if (purchase.kind === 'publication') return prices.publish;
  return prices.monitorMatch * purchase.matches;
}

/** What a charge that failed gives back: all of it, never a part. */
export const refundOf = (charge: { charged: number }) => charge.charged;

/** How many matches a spendable balance pays for: every one while matches are free. */
export const matchesAffordable = (prices: Prices, balance: number) =>
  prices.monitorMatch > 0 ? Math.floor(balance / prices.monitorMatch) : Infinity;

/** Whether a spendable balance pays for one match (while matches are free, always). */
export const canPayMatch = (prices: Prices, balance: number) => matchesAffordable(prices, balance) >= 1;

/**
 * The credits a payment's refunds and disputes take back, in all: every credit while a dispute holds
 * the money (funds withdrawn, not reinstated), else the refunded share of the pack, rounded down so a
 * partial refund never takes back a credit more than was paid back. Cumulative, like Stripe's
 * `amount_refunded`: the caller moves only the difference from what it took back before.
 */
export function creditsTakenBack(payment: { credits: number; amount: number; amountRefunded: number; disputed: boolean }): number {
  if (payment.disputed) return payment.credits;
  const refunded = Math.min(Math.max(payment.amountRefunded, 0), payment.amount);
  return Math.floor((payment.credits * refunded) / payment.amount);
}
