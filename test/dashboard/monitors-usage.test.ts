import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { csrfIn, DashboardClient, uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';

const PASSWORD = 'correct horse battery';

describe.each(engines)('the Monitors page’s usage of the account limits on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine, { worker: false, env: { MONITOR_MAX_PER_ACCOUNT: '3', MONITOR_MAX_SUBREDDITS_PER_ACCOUNT: '6' } });
  });
  afterAll(() => app.close());

  async function member() {
    const email = uniqueEmail('usage');
    const account = await app.services.accounts.createAccount(email, PASSWORD);
    const browser = new DashboardClient(app.url);
    await browser.logIn(email, PASSWORD);
    return { browser, accountId: account.id };
  }

  const watch = (accountId: string, subreddits: string[]) =>
    app.services.monitors.create(accountId, { name: 'watch', subreddits, keywords: ['launch'] }, { via: 'dashboard' });

  it('shows how many monitors and different subreddits the account uses against its limits, paused monitors included', async () => {
    const { browser, accountId } = await member();
    expect((await browser.get('/dashboard/monitors')).body).toContain('0 of 3 monitors · 0 of 6 subreddits');
    await watch(accountId, ['r/node', 'r/deno']);
    const paused = await watch(accountId, ['r/NODE', 'r/bun']);
    await app.services.monitors.update(accountId, paused.id, { status: 'paused' });
    expect((await browser.get('/dashboard/monitors')).body).toContain('2 of 3 monitors · 3 of 6 subreddits');
  });

  it('a form that would pass a limit is shown again with the limit and the usage in words, and creates nothing', async () => {
    const { browser, accountId } = await member();
    await watch(accountId, ['r/a1', 'r/a2', 'r/a3', 'r/a4']);
    const csrf = csrfIn((await browser.get('/dashboard/monitors')).body);
    const response = await fetch(`${app.url}/dashboard/monitors`, {
      method: 'POST',
      headers: { cookie: browser.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf, name: 'more', subreddits: 'a5, a6, a7', keywords: 'launch', sources: 'posts' }).toString(),
      redirect: 'manual',
    });
    expect(response.status).toBe(422);
    const body = await response.text();
    expect(body).toContain('This would make your monitors watch 7 different subreddits, and this server allows at most 6 per account');
    expect(body).toContain('a5, a6, a7</textarea>');
    expect(body).toContain('1 of 3 monitors · 4 of 6 subreddits');
    expect((await app.services.monitors.list(accountId, { limit: 10 })).data).toHaveLength(1);
  });
});
