import { describe, expect, it } from 'vitest';
import { canPayMatch, captureOf, chargeFor, creditsTakenBack, holdFor, matchCost, pricesFor, refundOf } from './credits.prices.ts';

const prices = { scrapePair: 2, generate: 5, publish: 10, monitorMatch: 3, judge: 1 };

describe('the price book', () => {
  it('a scrape holds the price of every subreddit × keyword pair', () => {
    expect(holdFor(prices, { subreddits: 3, keywords: 2 })).toBe(12);
  });

  it('a completed scrape captures its hold less the pairs of its unavailable subreddits', () => {
    expect(captureOf(prices, { held: 12, unavailable: 0, keywords: 2 })).toBe(12);
    expect(captureOf(prices, { held: 12, unavailable: 2, keywords: 2 })).toBe(4);
  });

  it('a draft and a publication cost their price, a monitor’s matches the price of one match each', () => {
    expect(chargeFor(prices, { kind: 'generation', id: 'gen_1' })).toBe(5);
    expect(chargeFor(prices, { kind: 'publication', id: 'pub_1' })).toBe(10);
    expect(chargeFor(prices, { kind: 'monitor', id: 'mon_1', matches: 4 })).toBe(12);
  });

  it('on the demo source Reddit data and the demo model cost nothing, a real model its price, and DEMO_BILLED keeps every price', () => {
    expect(pricesFor(prices, { demo: false, billed: false, demoModel: false })).toEqual(prices);
    expect(pricesFor(prices, { demo: true, billed: false, demoModel: true })).toEqual({ scrapePair: 0, generate: 0, publish: 0, monitorMatch: 0, judge: 0 });
    expect(pricesFor(prices, { demo: true, billed: false, demoModel: false })).toEqual({ scrapePair: 0, generate: 5, publish: 0, monitorMatch: 0, judge: 1 });
    expect(pricesFor(prices, { demo: true, billed: true, demoModel: true })).toEqual(prices);
  });

  it('a failed charge is refunded in full', () => {
    expect(refundOf({ charged: 10 })).toBe(10);
  });

  it('a judged match costs the judging on top of the match, a filtered one the judging only, an unjudged one the match only', () => {
    const judging = { ...prices, judge: 2 };
    expect(matchCost(judging, { judged: true, filtered: false })).toBe(5);
    expect(matchCost(judging, { judged: true, filtered: true })).toBe(2);
    expect(matchCost(judging, { judged: false, filtered: false })).toBe(3);
    expect(chargeFor(judging, { kind: 'monitor', id: 'mon_1', matches: 3, judged: 10 })).toBe(29);
  });

  it('an account can pay again once its balance covers one match, and at price 0 always', () => {
    const at = (monitorMatch: number) => ({ ...prices, monitorMatch });
    expect(canPayMatch(at(1), 0)).toBe(false);
    expect(canPayMatch(at(1), 1)).toBe(true);
    expect(canPayMatch(at(3), 5)).toBe(true);
    expect(canPayMatch(at(3), 2)).toBe(false);
    expect(canPayMatch(at(0), 0)).toBe(true);
  });

  it('a refund takes back its share of the pack rounded down, a dispute all of it, and never more than the pack', () => {
    const pack = { credits: 2000, amount: 1800, disputed: false };
    expect(creditsTakenBack({ ...pack, amountRefunded: 0 })).toBe(0);
    expect(creditsTakenBack({ ...pack, amountRefunded: 450 })).toBe(500);
    expect(creditsTakenBack({ ...pack, amountRefunded: 901 })).toBe(1001);
    expect(creditsTakenBack({ ...pack, amountRefunded: 1800 })).toBe(2000);
    expect(creditsTakenBack({ ...pack, amountRefunded: 9999 })).toBe(2000);
    expect(creditsTakenBack({ ...pack, amountRefunded: 450, disputed: true })).toBe(2000);
  });
});
