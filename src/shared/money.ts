/**
 * Currencies Stripe takes in whole units, with no minor unit (docs.stripe.com/currencies#zero-decimal):
 * a price in one of them has no decimals.
 */
const ZERO_DECIMAL = new Set(['bif', 'clp', 'djf', 'gnf', 'jpy', 'kmf', 'krw', 'mga', 'pyg', 'rwf', 'ugx', 'vnd', 'vuv', 'xaf', 'xof', 'xpf']);

/** How many decimals an amount in `currency` has: Stripe counts amounts in the smallest unit (cents). */
export const decimalsOf = (currency: string): number => (ZERO_DECIMAL.has(currency.toLowerCase()) ? 0 : 2);

/** `500, 'usd'` → "5.00 USD": an amount in the smallest unit, written for people. */
export function formatMoney(amount: number, currency: string): string {
  const decimals = decimalsOf(currency);
  const whole = decimals === 0 ? String(amount) : (amount / 10 ** decimals).toFixed(decimals);
  return `${whole} ${currency.toUpperCase()}`;
}
