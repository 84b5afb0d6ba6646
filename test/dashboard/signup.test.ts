import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { csrfIn, DashboardClient, uniqueEmail, type PageResponse } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';
import { cheapPasswords } from '../support/passwords.ts';

const OWNER_PASSWORD = 'the owner password';
const PROBE_PASSWORD = 'a probing password';

/** A sign-up answer with what differs between two browsers taken out: the CSRF token and the date. */
function comparable(response: PageResponse) {
  const headers = Object.fromEntries([...response.headers].filter(([name]) => name !== 'date'));
  return { status: response.status, headers, setCookies: response.setCookies, body: response.body.replaceAll(csrfIn(response.body), 'TOKEN') };
}

describe.each(engines)('sign-up reveals nothing about registered emails on %s', (engine) => {
  let app: TestApp;
  // Counts the password hashes sign-up makes: the cost of an answer must not tell a free email from a taken one.
  let hashes = 0;
  const countingPasswords = { ...cheapPasswords, hash: (password: string) => (hashes++, cheapPasswords.hash(password)) };
  beforeAll(async () => {
    app = await startTestApp(engine, { worker: false, overrides: { passwords: countingPasswords } });
  });
  afterAll(() => app.close());

  const signUp = (email: string, password: string) =>
    new DashboardClient(app.url).submit('/dashboard/signup', '/dashboard/signup', { email, password });

  it('signing up with a free email and then with the same, now registered, email gives the same answer byte for byte', async () => {
    const email = uniqueEmail('signup');
    const free = await signUp(email, OWNER_PASSWORD);
    const taken = await signUp(email, PROBE_PASSWORD);
    expect(comparable(taken)).toEqual(comparable(free));

    expect(free.status).toBe(200);
    expect(free.setCookies).toEqual([]);
    expect(free.body).toContain('<title>Log in</title>');
    expect(free.body).toContain(`value="${email}"`);
    expect(free.body).toContain(`If ${email} was free, its account is ready`);
    expect(free.body).toContain('subpilot accounts set-password');
  });

  it('the first sign-up made the account with its password; a second one changed nothing', async () => {
    const email = uniqueEmail('owner');
    await signUp(email, OWNER_PASSWORD);
    await signUp(email, PROBE_PASSWORD);
    expect((await new DashboardClient(app.url).logIn(email, PROBE_PASSWORD)).status).toBe(400);
    const owner = new DashboardClient(app.url);
    expect((await owner.logIn(email, OWNER_PASSWORD)).location).toBe('/dashboard/keys');
    expect((await owner.get('/dashboard/keys')).status).toBe(200);
  });

  it('signing up hashes the password whether or not the email is registered', async () => {
    const email = uniqueEmail('cost');
    hashes = 0;
    await signUp(email, OWNER_PASSWORD);
    expect(hashes).toBe(1);
    hashes = 0;
    await signUp(email, PROBE_PASSWORD);
    expect(hashes).toBe(1);
  });

  it('two sign-ups with one email at the same moment both get the same answer and make one account', async () => {
    const email = uniqueEmail('race');
    const answers = await Promise.all([signUp(email, OWNER_PASSWORD), signUp(email, PROBE_PASSWORD)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(comparable(answers[1]!)).toEqual(comparable(answers[0]!));
    expect((await app.services.accounts.listAccounts()).filter((account) => account.email === email)).toHaveLength(1);
  });
});
