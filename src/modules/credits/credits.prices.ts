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
  /**
   * What one poll of a monitor stored, paid for together: the matches delivered, and how many matches
   * (delivered or filtered) the relevance judge scored; 0 or absent for a monitor without an intent.
   */
  | { kind: 'monitor'; id: string; matches: number; judged?: number }
  /** Credits bought (a Checkout Session or an auto top-up), or taken back or given back for one. */
  | { kind: 'payment'; id: string };

/**
 * The prices this instance charges: the PRICE_* as set, except on the demo source (issue 44), whose
 * data is never billed as Reddit's unless the operator sets DEMO_BILLED=true. Then a scrape, a match
 * and a simulated publication cost nothing, and so do a draft and a judgement the demo model writes;
 * with LLM_BASE_URL set, a real model writes them, which costs the operator, so they keep their price.
 */
export function pricesFor(prices: Prices, source: { demo: boolean; billed: boolean; demoModel: boolean }): Prices {
  if (!source.demo || source.billed) return prices;
  const model = source.demoModel ? { generate: 0, judge: 0 } : {};
  return { ...prices, scrapePair: 0, monitorMatch: 0, publish: 0, ...model };
}

/** What a scrape holds when it is accepted: the most it can cost, every subreddit × keyword pair. */
export const holdFor = (prices: Prices, scrape: { subreddits: number; keywords: number }) =>
  prices.scrapePair * scrape.subreddits * scrape.keywords;

/** What a completed scrape captures of its hold: all of it but the pairs of the subreddits that turned out unavailable. */
export const captureOf = (prices: Prices, scrape: { held: number; unavailable: number; keywords: number }) =>
  scrape.held - prices.scrapePair * scrape.unavailable * scrape.keywords;

/**
 * What a fixed-price purchase costs: a draft (charged up front), a publication (held up front and
 * captured whole once Reddit accepts it, released whole otherwise), or the matches a monitor stored.
 */
export function chargeFor(prices: Prices, purchase: Exclude<Purchase, { kind: 'scrape' | 'payment' }>): number {
  if (purchase.kind === 'generation') return prices.generate;
  if (purchase.kind === 'publication') return prices.publish;
  return prices.monitorMatch * purchase.matches + prices.judge * (purchase.judged ?? 0);
}

/**
 * What one stored match costs: the match price when it is delivered, and the judge's price when it
 * was judged. A match judged below the bar (filtered) costs the judging only: nobody pays for what
 * was kept out of their way; one the judge could not score costs what an unjudged match costs.
 */
export const matchCost = (prices: Prices, match: { judged: boolean; filtered: boolean }) =>
  (match.filtered ? 0 : prices.monitorMatch) + (match.judged ? prices.judge : 0);

/** What a charge that failed gives back: all of it, never a part. */
export const refundOf = (charge: { charged: number }) => charge.charged;

/** Whether a spendable balance pays for one delivered match (while matches are free, always). */
export const canPayMatch = (prices: Prices, balance: number) => balance >= prices.monitorMatch;

/** Whether a spendable balance pays for one draft (a monitor's draft_replies drafts only what it can pay for). */
export const canPayDraft = (prices: Prices, balance: number) => balance >= prices.generate;

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
