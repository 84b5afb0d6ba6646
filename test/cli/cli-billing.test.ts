import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { openCheckout, PACKS, paymentRows, standing, startBillingApp } from '../support/billing.ts';
import { runCli } from '../support/cli.ts';
import { engines } from '../support/engines.ts';
import type { FakeStripe } from '../support/fake-stripe.ts';

/** What `subpilot serve` is given to sell credits, pointed at the fake Stripe. */
const stripeEnv = (stripe: FakeStripe) => ({
  STRIPE_SECRET_KEY: stripe.secretKey,
  STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
  STRIPE_API_URL: stripe.url,
  CREDIT_PACKS: PACKS,
  PUBLIC_URL: 'https://subpilot.example.com',
});

describe.each(engines)('credits list and credits balance on %s', (engine) => {
  let app: TestApp;
  let stripe: FakeStripe;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ app, stripe, close } = await startBillingApp(engine, { worker: false }));
  });
  afterAll(() => close());

  const subpilot = (args: string[]) => runCli(app.database, args);

  /** A pack bought and paid, its webhook delivered to the app. */
  async function buy(accountId: string, credits: number) {
    const { sessionId } = await openCheckout(app, accountId, credits);
    const session = stripe.complete(sessionId);
    await stripe.settled();
    return String(session.payment_intent);
  }

  it('credits list prints the ledger newest first, one entry a line: when, type, amount, balance after, and the price a purchase was paid', async () => {
    const email = `ledger-${engine}@example.com`;
    const account = await app.services.accounts.createAccount(email);
    expect((await subpilot(['credits', 'grant', '--email', email, '--amount', '100', '--reason', 'trial'])).code).toBe(0);
    await buy(account.id, 500);

    const listed = await subpilot(['credits', 'list', '--email', email]);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    const [header, purchase, grant, end] = listed.stdout.split('\n');
    expect(header).toMatch(/^WHEN +TYPE +AMOUNT +BALANCE AFTER +DESCRIPTION$/);
    expect(purchase).toMatch(/^\d{4}-\d\d-\d\dT\S+ +purchase +\+500 +600 +Purchase for 5\.00 USD$/);
    expect(grant).toMatch(/^\d{4}-\d\d-\d\dT\S+ +grant +\+100 +100 +Operator grant: trial$/);
    expect(end).toBe('');
    expect(purchase!.indexOf('+500')).toBe(header!.indexOf('AMOUNT'));

    const newest = await subpilot(['credits', 'list', '--email', email, '--limit', '1']);
    expect(newest.stdout.trim().split('\n')).toHaveLength(2);
    expect(newest.stderr).toBe('older entries are not shown: --limit (up to 1000) shows more\n');

    const json = JSON.parse((await subpilot(['credits', 'list', '--email', email, '--json'])).stdout);
    expect(json.map((entry: { type: string }) => entry.type)).toEqual(['purchase', 'grant']);
    expect(json[0]).toMatchObject({ amount: 500, balance_after: 600, payment: { amount: 500, currency: 'usd', source: 'checkout' } });
  });

  it('credits balance prints what the account can spend and what it owes, and says where owed credits come from', async () => {
    const email = `owed-${engine}@example.com`;
    const account = await app.services.accounts.createAccount(email);
    const paymentIntentId = await buy(account.id, 500);
    expect(await subpilot(['credits', 'balance', '--email', email])).toEqual({ code: 0, stdout: 'spendable 500\nowed 0\n', stderr: '' });

    // A running job holds all of it while the payment is refunded: nothing spendable to take back, so all of it is owed.
    await app.services.db.updateTable('accounts').set({ held: 500 }).where('id', '=', account.id).execute();
    stripe.refund(paymentIntentId, 500);
    await stripe.settled();
    await app.services.db.updateTable('accounts').set({ held: 0 }).where('id', '=', account.id).execute();
    expect(await standing(app, account.id)).toEqual({ balance: 500, owed: 500 });

    const shown = await subpilot(['credits', 'balance', '--email', email]);
    expect(shown).toMatchObject({ code: 0, stdout: 'spendable 500\nowed 500\n' });
    expect(shown.stderr).toBe('500 credits were taken back by a refund or dispute after they were spent; the next credits bought or granted pay them first\n');
    expect(JSON.parse((await subpilot(['credits', 'balance', '--email', email, '--json'])).stdout)).toEqual({ balance: 500, owed: 500 });

    const granted = await subpilot(['credits', 'grant', '--email', email, '--amount', '200']);
    expect(granted.stdout).toBe(`granted 200 credits to ${email} (${account.id}), 200 of which paid what it owed; balance after: 500\n`);
    expect(await standing(app, account.id)).toEqual({ balance: 500, owed: 300 });
  });

  it.each([
    ['credits list', ['credits', 'list', '--email', 'nobody@example.com'], /^subpilot: No account with email nobody@example\.com/],
    ['credits balance', ['credits', 'balance', '--email', 'nobody@example.com'], /^subpilot: No account with email nobody@example\.com/],
    ['a --limit of 0', ['credits', 'list', '--email', 'nobody@example.com', '--limit', '0'], /--limit must be a whole number from 1 to 1000, got "0"/],
  ])('%s for an unknown account or a bad value exits 1 with one clear line', async (_label, args, message) => {
    const result = await subpilot(args);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
  });
});

describe.each(engines)('billing reconcile on %s', (engine) => {
  let app: TestApp;
  let stripe: FakeStripe;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ app, stripe, close } = await startBillingApp(engine, { worker: false }));
    // No webhook reaches the app: the events are only in Stripe's list, as after an outage.
    stripe.webhookUrl = null;
  });
  afterAll(() => close());

  const subpilot = (args: string[], env: Record<string, string> = stripeEnv(stripe)) =>
    runCli({ ...app.database, env: { ...app.database.env, ...env } }, args);
  const REPORT = /^Stripe listed 2 events since (\S+); applied 1 \(the rest changed nothing or were not ours\)\.\n$/;

  it('credits a paid checkout whose webhook never arrived, once, however often it runs', async () => {
    const account = await app.services.accounts.createAccount(`reconciled-${engine}@example.com`);
    const { sessionId } = await openCheckout(app, account.id, 500);
    stripe.complete(sessionId);
    expect(await standing(app, account.id)).toEqual({ balance: 0, owed: 0 });

    // payment_intent.succeeded and checkout.session.completed; only the completion credits a Checkout.
    const first = await subpilot(['billing', 'reconcile', '--since', '1d']);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    const since = REPORT.exec(first.stdout)?.[1];
    expect(first.stdout).toMatch(REPORT);
    expect(Math.abs(Date.parse(since!) - (Date.now() - 86_400_000))).toBeLessThan(60_000);
    expect(await standing(app, account.id)).toEqual({ balance: 500, owed: 0 });

    const again = await subpilot(['billing', 'reconcile', '--since', '24h']);
    expect(again).toMatchObject({ code: 0, stdout: expect.stringMatching(REPORT) });
    expect(await standing(app, account.id)).toEqual({ balance: 500, owed: 0 });
    expect(await paymentRows(app, account.id)).toEqual([{ kind: 'purchase', amount: 500, owed: 0 }]);
  });

  it.each([
    ['45d', /--since reaches back at most 30d: Stripe keeps events for 30 days, got "45d"/],
    ['721h', /--since reaches back at most 30d/],
    ['0d', /--since is a number of minutes, hours or days such as 30m, 12h or 3d, got "0d"/],
    ['2w', /--since is a number of minutes, hours or days/],
    ['yesterday', /--since is a number of minutes, hours or days/],
  ])('refuses --since %s with one line and exit code 1', async (since, message) => {
    const result = await subpilot(['billing', 'reconcile', '--since', since]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
  });

  it('without Stripe configured it says what to set, with exit code 1', async () => {
    const result = await subpilot(['billing', 'reconcile', '--since', '3d'], { STRIPE_SECRET_KEY: '', STRIPE_WEBHOOK_SECRET: '', CREDIT_PACKS: '' });
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toMatch(/^subpilot: billing reconcile asks Stripe for its events, and STRIPE_SECRET_KEY is not set: .*STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, CREDIT_PACKS, PUBLIC_URL\)\n$/);
  });

  it('when Stripe does not answer it says so in one line and that running it again is safe', async () => {
    // The client tries three times (maxNetworkRetries 2).
    stripe.failNext(500, 3);
    const result = await subpilot(['billing', 'reconcile', '--since', '30m']);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toMatch(/^subpilot: reconciling with Stripe failed, and running it again is safe: .+\n$/);
  });
});
