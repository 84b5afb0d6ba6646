import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';
import { startBillingApp } from '../support/billing.ts';
import type { CheckoutSession, FakeStripe, PaymentIntent } from '../support/fake-stripe.ts';

const PASSWORD = 'correct horse battery';
const formAction = (csp: string | null) => /form-action ([^;]+)/.exec(csp ?? '')?.[1];
const REFRESH = '<meta http-equiv="refresh" content="2">';
const BANNER = /<p class="alert alert-warn topup-failed" role="status">([^<]*)<a href="\/dashboard\/credits#auto-topup">Credits<\/a><\/p>/;

describe.each(engines)('buying credits on the Credits page with Stripe on %s', (engine) => {
  let app: TestApp;
  let stripe: FakeStripe;
  beforeAll(async () => {
    // No worker: a test runs the auto top-up pass itself. A scrape answers 202 at once and holds 100 credits a pair.
    ({ app, stripe } = await startBillingApp(engine, { worker: false, publicUrl: 'self', env: { PRICE_SCRAPE: '100', SCRAPE_SYNC_WAIT_MS: '0' } }));
  });
  afterAll(async () => {
    await app?.close();
    await stripe?.close();
  });

  async function member() {
    const email = uniqueEmail('buy');
    const account = await app.services.accounts.createAccount(email, PASSWORD);
    const browser = new DashboardClient(app.url);
    expect((await browser.logIn(email, PASSWORD)).status).toBe(303);
    return { browser, accountId: account.id };
  }
  const buy = (browser: DashboardClient, credits: string) => browser.submit('/dashboard/credits', '/dashboard/credits/buy', { credits });
  const setTopup = (browser: DashboardClient, fields: { threshold: string; pack: string; monthly_max: string }) =>
    browser.submit('/dashboard/credits', '/dashboard/credits/auto-topup', fields);
  const sessionOf = (location: string | null) => {
    expect(location).toMatch(new RegExp(`^${stripe.url}/c/pay/cs_test_\\w+$`));
    return stripe.object<CheckoutSession>(location!.split('/').pop()!)!;
  };
  /** Pays a session as the hosted page does and waits for Stripe's webhook to land. */
  async function pay(session: CheckoutSession) {
    stripe.complete(session.id);
    await stripe.settled();
  }
  const cardOf = (session: CheckoutSession) => stripe.object<PaymentIntent>(stripe.object<CheckoutSession>(session.id)!.payment_intent!)!.payment_method!;

  it('lists each pack with its price and a Buy button, and only the Credits page may lead to Stripe’s checkout', async () => {
    const { browser } = await member();
    const page = await browser.get('/dashboard/credits');
    expect(page.body).toMatch(/<strong>500<\/strong> credits<\/p>\s*<p class="pack-price">5\.00 USD<\/p>\s*<p class="muted pack-rate">10\.00 USD per 1,000 credits/);
    expect(page.body).toMatch(/<strong>2000<\/strong> credits<\/p>\s*<p class="pack-price">18\.00 USD<\/p>\s*<p class="muted pack-rate">9\.00 USD per 1,000 credits/);
    expect(page.body.match(/action="\/dashboard\/credits\/buy"/g)).toHaveLength(2);
    expect(page.body).toContain('aria-label="Buy 2000 credits for 18.00 USD">Buy</button>');
    expect(formAction(page.headers.get('content-security-policy'))).toBe(`'self' https://checkout.stripe.com ${stripe.url}`);
    for (const path of ['/dashboard/keys', '/dashboard/webhooks', '/dashboard/no-such-page']) {
      expect(formAction((await browser.get(path)).headers.get('content-security-policy')), path).toBe("'self'");
    }
  });

  it('Buy opens a Checkout Session for the pack and sends the browser to Stripe’s page, adding nothing by itself', async () => {
    const { browser, accountId } = await member();
    const bought = await buy(browser, '2000');
    expect(bought.status).toBe(303);
    const session = sessionOf(bought.location);
    expect(session).toMatchObject({ mode: 'payment', amount_total: 1800, currency: 'usd', client_reference_id: accountId, metadata: { credits: '2000' } });
    expect(session.success_url).toMatch(new RegExp(`^${app.url}/dashboard/credits/return\\?payment=pay_\\w+$`));
    expect(session.cancel_url).toBe(`${app.url}/dashboard/credits?checkout=cancelled`);
    expect(await app.services.credits.standing(accountId)).toEqual({ balance: 0, owed: 0 });
  });

  it('the return page says the payment is received and refreshes itself until the webhook lands, then shows the credits and balance', async () => {
    const { browser } = await member();
    const session = sessionOf((await buy(browser, '2000')).location);
    const returnPath = session.success_url.slice(app.url.length);
    const waiting = await browser.get(returnPath);
    expect(waiting.status).toBe(200);
    expect(waiting.body).toContain('Payment received — your credits appear in a moment.');
    expect(waiting.body).toContain(REFRESH);

    await pay(session);
    const credited = await browser.get(returnPath);
    expect(credited.body).toContain('2000 credits added. Balance: 2000 credits.');
    expect(credited.body).not.toContain(REFRESH);
    expect(credited.body).toContain('<a href="/dashboard/credits">Back to Credits</a>');

    const ledger = (await browser.get('/dashboard/credits')).body;
    expect(ledger).toContain('Balance: <strong>2000</strong> credits');
    expect(ledger).toContain(`<a href="${returnPath}"><bdi>Purchase for 18.00 USD</bdi></a>`);
  });

  it('a payment of another account, or none, answers the 404 page', async () => {
    const { browser: owner } = await member();
    const session = sessionOf((await buy(owner, '500')).location);
    const { browser: other } = await member();
    for (const path of [session.success_url.slice(app.url.length), '/dashboard/credits/return?payment=pay_nope']) {
      const page = await other.get(path);
      expect(page.status, path).toBe(404);
      expect(page.body).toContain('This account has no payment with that id.');
    }
  });

  it('a cancelled checkout comes back to the Credits page saying nothing was charged', async () => {
    const { browser } = await member();
    const page = await browser.get('/dashboard/credits?checkout=cancelled');
    expect(page.status).toBe(200);
    expect(page.body).toContain('Checkout cancelled; nothing was charged.');
  });

  it('a pack not on sale, or not a number, is refused on the page, and Stripe failing shows there as a 502', async () => {
    const { browser } = await member();
    for (const bad of ['999', 'abc', '', '2000.5']) {
      const refused = await buy(browser, bad);
      expect(refused.status, bad).toBe(422);
      expect(refused.body).toContain('No pack has that many credits. The packs on sale have 500, 2000 credits.');
      expect(refused.body).toContain('action="/dashboard/credits/buy"');
    }
    expect((await browser.post('/dashboard/credits/buy', { credits: '500' })).status).toBe(403);

    stripe.failNext(500, 3); // the library tries three times
    const failed = await buy(browser, '500');
    expect(failed.status).toBe(502);
    expect(failed.body).toContain('Stripe did not open a checkout page; nothing was charged. Try again in a moment.');
    expect(formAction(failed.headers.get('content-security-policy'))).toBe(`'self' https://checkout.stripe.com ${stripe.url}`);
  });

  it('shows what a dispute could not take back as owed, which the next purchase pays first', async () => {
    const { browser, accountId } = await member();
    const session = sessionOf((await buy(browser, '500')).location);
    await pay(session);
    const { token } = await app.services.keys.createKey(accountId, 'spender');
    const scrape = await app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/node'], keywords: ['node'] } });
    expect(scrape.status).toBe(202); // 100 held: 400 left to take back
    stripe.dispute(stripe.object<CheckoutSession>(session.id)!.payment_intent!, 'funds_withdrawn');
    await stripe.settled();
    const page = (await browser.get('/dashboard/credits')).body;
    expect(page).toContain('Balance: <strong>0</strong> credits');
    expect(page).toContain('100 credits owed from a refund or dispute: the next purchase or grant pays them first.');

    await pay(sessionOf((await buy(browser, '500')).location));
    const settled = (await browser.get('/dashboard/credits')).body;
    expect(settled).toContain('Balance: <strong>400</strong> credits');
    expect(settled).not.toContain('owed from a refund or dispute');
  });

  it('auto top-up is off until set up; saving without a card goes to Stripe, paying there turns it on, and Turn off stops it', async () => {
    const { browser, accountId } = await member();
    const before = (await browser.get('/dashboard/credits')).body;
    expect(before).toContain('<strong>Off.</strong> Nothing is bought unless you set it up below.');
    expect(before).toContain('Save and add a card');
    expect(before).not.toContain('Turn off auto top-up');

    const saved = await setTopup(browser, { threshold: '30', pack: '500', monthly_max: '2' });
    expect(saved.status).toBe(303);
    const session = sessionOf(saved.location);
    expect(session.amount_total).toBe(500);
    const waiting = (await browser.get('/dashboard/credits')).body;
    expect(waiting).toContain('<strong>Waiting for a card:</strong>');
    expect(waiting).toContain('Turn off auto top-up');

    await pay(session);
    const on = (await browser.get('/dashboard/credits')).body;
    expect(on).toMatch(/<strong>On:<\/strong> when the balance you can spend falls below 30 credits, buys\s+500 credits for 5\.00 USD, at most 2 times a month\. This month: 0 of 2 top-ups/);
    expect(on).toContain('Save auto top-up');

    const changed = await setTopup(browser, { threshold: '40', pack: '2000', monthly_max: '3' });
    expect(changed.location).toBe('/dashboard/credits?done=topup');
    const shown = (await browser.get(changed.location!)).body;
    expect(shown).toContain('Auto top-up is on.');
    expect(shown).toContain('name="threshold" value="40"');
    expect(shown).toContain('<option value="2000" selected>2000 credits, 18.00 USD</option>');

    const off = await browser.submit('/dashboard/credits', '/dashboard/credits/auto-topup/off', {});
    expect(off.location).toBe('/dashboard/credits?done=topup_off');
    const offPage = (await browser.get(off.location!)).body;
    expect(offPage).toContain('Auto top-up is off.');
    expect(offPage).toContain('<strong>Off.</strong> Save the form to turn it on again.');
    expect(await app.services.billing.autoTopup.settings(accountId)).toMatchObject({ enabled: false, threshold: 40, packCredits: 2000 });
  });

  it('refuses bad auto top-up input beside the form, refilled, and never answers a 500', async () => {
    const { browser, accountId } = await member();
    const good = { threshold: '30', pack: '500', monthly_max: '2' };
    const cases: [Partial<typeof good>, string][] = [
      [{ threshold: '' }, 'Auto top-up needs a threshold of 1 credit or more and a monthly maximum from 1 to 100 top-ups.'],
      [{ threshold: 'ten' }, 'Auto top-up needs a threshold of 1 credit or more'],
      [{ threshold: '0' }, 'Auto top-up needs a threshold of 1 credit or more'],
      [{ monthly_max: '0' }, 'a monthly maximum from 1 to 100 top-ups'],
      [{ monthly_max: '101' }, 'a monthly maximum from 1 to 100 top-ups'],
      [{ pack: '999' }, 'No pack has that many credits.'],
    ];
    for (const [change, message] of cases) {
      const refused = await setTopup(browser, { ...good, ...change });
      expect(refused.status, JSON.stringify(change)).toBe(422);
      expect(refused.body).toContain(message);
      expect(refused.body).toContain(`name="threshold" value="${change.threshold ?? good.threshold}"`);
    }
    // Longer than any number: the error page says so in words.
    const tooLong = await setTopup(browser, { ...good, threshold: '1'.repeat(21) });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body).toMatch(/The request body is not valid: [^<]*threshold/);
    expect(await app.services.billing.autoTopup.settings(accountId)).toBeNull();
  });

  it('a failed top-up shows a banner on every page saying auto top-up switched itself off, and it goes once it is set up again', async () => {
    const { browser, accountId } = await member();
    const session = sessionOf((await setTopup(browser, { threshold: '450', pack: '500', monthly_max: '10' })).location);
    await pay(session); // 500 bought, card saved, on
    stripe.savedCardBehaviour(cardOf(session), 'declined');
    const { token } = await app.services.keys.createKey(accountId, 'spender');
    const pages = ['/dashboard/keys', '/dashboard/credits', '/dashboard/scrapes', '/dashboard/no-such-page'];

    await app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/node'], keywords: ['node'] } }); // 100 held: 400 < 450
    await app.services.billing.autoTopup.flush();
    for (const path of pages) {
      expect(BANNER.exec((await browser.get(path)).body)?.[1], path).toMatch(/^Auto top-up failed and switched itself off: The card was declined \(generic_decline\): [^<]+ $/);
    }
    const credits = (await browser.get('/dashboard/credits')).body;
    expect(credits).toContain('the saved card failed, so it switched itself off and will not charge that card again.');
    expect(credits).toContain('Save and replace the card');

    // The card that failed is not trusted again: saving goes to a checkout that saves a new one.
    const replaced = sessionOf((await setTopup(browser, { threshold: '10', pack: '500', monthly_max: '10' })).location);
    for (const path of pages) expect((await browser.get(path)).body, path).not.toMatch(BANNER);
    await pay(replaced);
    expect(await app.services.billing.autoTopup.settings(accountId)).toMatchObject({ enabled: true, failures: 0 });
  });
});

describe.each(engines)('the Credits page where nothing is on sale on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine, { env: { BILLING_CONTACT: 'billing@example.com' } });
  });
  afterAll(() => app?.close());

  async function member() {
    const email = uniqueEmail('nosale');
    await app.services.accounts.createAccount(email, PASSWORD);
    const browser = new DashboardClient(app.url);
    expect((await browser.logIn(email, PASSWORD)).status).toBe(303);
    return browser;
  }

  it('says whom to ask for credits, with no Buy button, no auto top-up and no form leading elsewhere', async () => {
    const page = await (await member()).get('/dashboard/credits');
    expect(page.body).toContain('This service does not sell credits online. Ask billing@example.com for credits.');
    expect(page.body).not.toContain('/dashboard/credits/buy');
    expect(page.body).not.toContain('Auto top-up');
    expect(formAction(page.headers.get('content-security-policy'))).toBe("'self'");
  });

  it('a Buy or auto top-up posted anyway is refused on the page in words, and a payment page is a 404', async () => {
    const browser = await member();
    for (const [action, fields] of [
      ['/dashboard/credits/buy', { credits: '500' }],
      ['/dashboard/credits/auto-topup', { threshold: '30', pack: '500', monthly_max: '2' }],
    ] as const) {
      const refused = await browser.submit('/dashboard/credits', action, fields);
      expect(refused.status, action).toBe(409);
      expect(refused.body).toContain('This service does not sell credits.');
    }
    expect((await browser.get('/dashboard/credits/return?payment=pay_nope')).status).toBe(404);
  });
});
