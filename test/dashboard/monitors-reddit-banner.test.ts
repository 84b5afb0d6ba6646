import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';
import { createMonitor, cycle, startMonitorsApp, type PinnedClock } from '../support/monitors.ts';

const PASSWORD = 'correct horse battery';

describe.each(engines)('the Monitors pages while Reddit refuses or fails the app on %s', (engine) => {
  let app: TestApp;
  let clock: PinnedClock;
  let browser: DashboardClient;
  let monitorId: string;
  beforeAll(async () => {
    ({ app, clock } = await startMonitorsApp(engine));
    app.reddit.subreddits.set('watched', 'public');
    const email = uniqueEmail('banner');
    const account = await app.services.accounts.createAccount(email, PASSWORD);
    const { token } = await app.services.keys.createKey(account.id, 'banner');
    browser = new DashboardClient(app.url);
    await browser.logIn(email, PASSWORD);
    monitorId = (await createMonitor(app, token, { subreddits: ['r/watched'], keywords: ['launch'] })).id;
  });
  afterAll(() => app.close());

  const pages = async () => [(await browser.get('/dashboard/monitors')).body, (await browser.get(`/dashboard/monitors/${monitorId}`)).body];
  const minute = () => clock.now().toISOString().slice(0, 16).replace('T', ' ');

  it('show no banner while Reddit answers, and no subreddit as stale', async () => {
    await cycle(app);
    for (const body of await pages()) expect(body).not.toContain('reddit-down');
    expect((await pages())[1]).not.toContain('badge-stale');
  });

  it('say in words, on the list and on the monitor’s page, since when a blocked app reads nothing, and show the subreddit stale', async () => {
    app.reddit.blockApp('html');
    clock.advance(60);
    await cycle(app);
    const since = minute();
    clock.advance(2 * 60);
    await cycle(app);
    const [list, detail] = await pages();
    for (const body of [list, detail]) {
      expect(body).toMatch(
        new RegExp(`<strong>Reddit is refusing this service's app since <time[^>]*>${since} UTC</time>: monitors are not reading.</strong> Nothing is charged meanwhile.`),
      );
      expect(body).toContain('what can no longer be read is recorded as gaps');
    }
    expect(detail).toMatch(/<bdi>r\/watched<\/bdi><\/strong> <span class="badge badge-ok">ok<\/span> <span class="badge badge-stale">stale<\/span>/);
    expect(detail).toContain('Some subreddits have not been read for over two rounds of reading');
    // Nothing read, so "everything new was read" would be untrue.
    expect(detail).toContain('No gaps recorded so far.');
  });

  it('say when every read fails instead, and drop the banner once Reddit answers again', async () => {
    app.reddit.blockApp(null);
    app.reddit.failAlways(503);
    try {
      clock.advance(60);
      await cycle(app);
      const since = minute();
      for (const body of await pages()) {
        expect(body).toMatch(new RegExp(`Reddit has failed every read since <time[^>]*>${since} UTC</time> \\(errors or rate limits\\): monitors are not reading.`));
      }
    } finally {
      app.reddit.failAlways(null);
    }
    clock.advance(60);
    await cycle(app);
    for (const body of await pages()) expect(body).not.toContain('reddit-down');
    expect((await pages())[1]).not.toContain('badge-stale');
  });
});
