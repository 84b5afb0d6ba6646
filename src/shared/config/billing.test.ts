import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const stripe = {
  STRIPE_SECRET_KEY: 'sk_test_51Habc',
  STRIPE_WEBHOOK_SECRET: 'whsec_abc',
  CREDIT_PACKS: '2000:18.00,500:5,10000:80.00',
  PUBLIC_URL: 'https://subpilot.example.com',
};

describe('the billing configuration', () => {
  it('without Stripe sells nothing and keeps the contact to ask', () => {
    expect(loadConfig({ BILLING_CONTACT: 'billing@example.com' }).billing).toEqual({ stripe: null, packs: [], currency: 'usd', contact: 'billing@example.com' });
  });

  it('reads the packs cheapest first, in the currency\'s smallest unit', () => {
    const { billing } = loadConfig(stripe);
    expect(billing.packs).toEqual([
      { credits: 500, amount: 500, price: '5.00' },
      { credits: 2000, amount: 1800, price: '18.00' },
      { credits: 10000, amount: 8000, price: '80.00' },
    ]);
    expect(billing.stripe).toEqual({ secretKey: 'sk_test_51Habc', webhookSecret: 'whsec_abc', apiUrl: 'https://api.stripe.com' });
  });

  it('takes a zero-decimal currency in whole units', () => {
    expect(loadConfig({ ...stripe, CURRENCY: 'JPY', CREDIT_PACKS: '500:700' }).billing).toMatchObject({ currency: 'jpy', packs: [{ credits: 500, amount: 700, price: '700' }] });
    expect(() => loadConfig({ ...stripe, CURRENCY: 'jpy', CREDIT_PACKS: '500:7.00' })).toThrow(/CREDIT_PACKS .* e\.g\. 500:700/);
  });

  it.each([
    ['500-5.00', /CREDIT_PACKS must be credits:price pairs .*"500-5.00" is not one/],
    ['500:5.00,', /CREDIT_PACKS must be credits:price pairs/],
    ['500:5.001', /CREDIT_PACKS must be credits:price pairs/],
    ['0:5.00', /CREDIT_PACKS: "0:5.00" needs at least 1 credit/],
    ['500:0', /needs at least 1 credit .* and a price above 0/],
    ['500:5.00,500:4.00', /two packs of the same number of credits/],
  ])('a bad pack list (%s) stops start-up with one line naming CREDIT_PACKS', (packs, message) => {
    expect(() => loadConfig({ ...stripe, CREDIT_PACKS: packs })).toThrow(ConfigError);
    expect(() => loadConfig({ ...stripe, CREDIT_PACKS: packs })).toThrow(message);
  });

  it.each([
    [{ STRIPE_SECRET_KEY: 'pk_test_abc' }, /STRIPE_SECRET_KEY must be a secret key/],
    [{ STRIPE_WEBHOOK_SECRET: '' }, /STRIPE_WEBHOOK_SECRET must be set/],
    [{ CREDIT_PACKS: '' }, /CREDIT_PACKS must be set when STRIPE_SECRET_KEY is set/],
    [{ PUBLIC_URL: '' }, /PUBLIC_URL must be set when STRIPE_SECRET_KEY is set/],
    [{ CURRENCY: 'dollars' }, /CURRENCY must be a three-letter ISO 4217 code/],
    [{ STRIPE_API_URL: 'ftp://x' }, /STRIPE_API_URL must be an http\(s\) URL/],
  ])('a half-done Stripe set-up (%o) is refused, never showing a secret', (change, message) => {
    expect(() => loadConfig({ ...stripe, ...change })).toThrow(message);
    try {
      loadConfig({ ...stripe, ...change });
    } catch (error) {
      expect(String(error)).not.toContain('sk_test_51Habc');
      expect(String(error)).not.toContain('whsec_abc');
    }
  });

  it('refuses packs or a webhook secret without the key they belong to', () => {
    expect(() => loadConfig({ CREDIT_PACKS: '500:5.00' })).toThrow(/STRIPE_SECRET_KEY must be set when/);
  });
});
