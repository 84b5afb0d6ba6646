import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';

const OWNER_PASSWORD = 'the owner password';
const PROBE_PASSWORD = 'a probing password';

/*
 * Sign-up on a server that sends no mail (no SMTP_URL): the account is made and signed in at once,
 * and an address that has an account is refused (docs/dashboard.md, "Sign-up"). The mailed
 * confirmation is test/dashboard/signup-mail.test.ts.
 */
describe.each(engines)('sign-up without mail on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine, { worker: false });
  });
  afterAll(() => app.close());

  const signUp = (email: string, password: string, browser = new DashboardClient(app.url)) => browser.signUp(email, password);

  it('a new address is signed in at once and lands on the Keys page, welcomed, with no password typed again', async () => {
    const browser = new DashboardClient(app.url);
    const email = uniqueEmail('signup');
    const answer = await signUp(email, OWNER_PASSWORD, browser);
    expect(answer.status).toBe(303);
    expect(answer.location).toBe('/dashboard/keys?welcome=1');
    const keys = await browser.get(answer.location!);
    expect(keys.status).toBe(200);
    expect(keys.body).toContain('<title>API keys</title>');
    expect(keys.body).toContain('Welcome: your account is ready. Create a key, then add credits on the Credits page.');
    expect(keys.body).toContain(email);
  });

  it('an address that has an account is refused in words that send its owner to log in, and its password is unchanged', async () => {
    const email = uniqueEmail('taken');
    await signUp(email, OWNER_PASSWORD);
    const probe = await signUp(email, PROBE_PASSWORD);
    expect(probe.status).toBe(409);
    expect(probe.setCookies.filter((cookie) => cookie.includes('session'))).toEqual([]);
    expect(probe.body).toContain('This address cannot be used to sign up here. If it is yours, log in with its password');
    expect(probe.body).toContain(`value="${email}"`);
    expect((await new DashboardClient(app.url).logIn(email, PROBE_PASSWORD)).status).toBe(400);
    expect((await new DashboardClient(app.url).logIn(email, OWNER_PASSWORD)).location).toBe('/dashboard/keys');
  });

  it('two sign-ups with one address at the same moment make one account: one is signed in, the other refused', async () => {
    const email = uniqueEmail('race');
    const answers = await Promise.all([signUp(email, OWNER_PASSWORD), signUp(email, PROBE_PASSWORD)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 409]);
    expect((await app.services.accounts.listAccounts()).filter((account) => account.email === email)).toHaveLength(1);
  });

  it('with SIGNUP_CREDITS unset a new account starts with nothing: no ledger entry, balance 0', async () => {
    const email = uniqueEmail('none');
    await signUp(email, OWNER_PASSWORD);
    const { id } = await app.services.accounts.requireByEmail(email);
    expect(await app.services.credits.standing(id)).toEqual({ balance: 0, owed: 0 });
    expect((await app.services.credits.usage(id, { limit: 10 })).data).toEqual([]);
  });
});

describe.each(engines)('SIGNUP_CREDITS on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine, { env: { SIGNUP_CREDITS: '25' } });
    app.reddit.posts.push({ id: 'trial1', subreddit: 'typescript', title: 'node tips for a trial', selftext: '', created_utc: 1_700_000_000 });
  });
  afterAll(() => app.close());

  it('the sign-up page says what a new account starts with', async () => {
    expect((await new DashboardClient(app.url).get('/dashboard/signup')).body).toContain('A new account starts with <strong>25 credits</strong> to try the API.');
  });

  it('a new account starts with them as one grant in its ledger, the balance is the ledger sum, and the Keys page example scrapes without a 402', async () => {
    const browser = new DashboardClient(app.url);
    const email = uniqueEmail('trial');
    const answer = await browser.signUp(email, OWNER_PASSWORD);
    expect((await browser.get(answer.location!)).body).toContain('It has 25 credits to try the API: create a key, then run the example below.');

    const { id } = await app.services.accounts.requireByEmail(email);
    expect(await app.services.credits.standing(id)).toEqual({ balance: 25, owed: 0 });
    expect(await ledgerSum(app.database.db, id)).toBe(25);
    const { data } = await app.services.credits.usage(id, { limit: 10 });
    expect(data).toMatchObject([{ type: 'grant', amount: 25, balance_after: 25, description: 'Sign-up credits', via: null }]);

    // The Keys page's curl example, as it is printed there.
    const { token } = await app.services.keys.createKey(id, 'curl');
    const scrape = await app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/typescript'], keywords: ['node'] } });
    expect(scrape.status).toBe(200);
    expect(await app.services.credits.spendableBalance(id)).toBe(24);
    expect(await ledgerSum(app.database.db, id)).toBe(24);
    // One credit is "1 credit" wherever a page counts it.
    expect((await browser.get(`/dashboard/scrapes/${(await scrape.json()).id}`)).body).toContain('<dt>Charged</dt><dd>1 credit</dd>');
  });

  it('an account the operator makes gets none: sign-up credits are for sign-ups', async () => {
    const account = await app.services.accounts.createAccount(uniqueEmail('operator'), OWNER_PASSWORD);
    expect(await app.services.credits.standing(account.id)).toEqual({ balance: 0, owed: 0 });
  });
});
