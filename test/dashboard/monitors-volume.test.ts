import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { csrfIn, DashboardClient, uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';
import { createFirehose } from '../support/fake-reddit-firehose.ts';
import { startMonitorsApp, type PinnedClock } from '../support/monitors.ts';

const PASSWORD = 'correct horse battery';

/**
 * The monitor form on a server with the stream: a rule above MONITOR_PREVIEW_DAILY_LIMIT is refused in
 * the form's words, with the estimate and the box to tick; ticked, the same form creates the monitor.
 */
describe.each(engines)('the monitor form asks before a rule that would match too much on %s', (engine) => {
  let app: TestApp;
  let dashboard: DashboardClient;
  let clock: PinnedClock;
  beforeAll(async () => {
    const started = await startMonitorsApp(engine, { env: { REDDIT_STREAM_SHARE: '0.5', MONITOR_PREVIEW_DAILY_LIMIT: '5' }, waitsMoveClock: true });
    ({ app, clock } = started);
    app.reddit.firehose = createFirehose({ clock: () => started.clock.now().getTime(), perSecond: 20, subreddits: ['node'], words: ['hello', 'world'] });
    for (let t = 0; t < 60; t += 10) {
      started.clock.advance(10);
      await app.services.monitorStream!.runCycle();
    }
    const email = uniqueEmail('volume');
    await app.services.accounts.createAccount(email, PASSWORD);
    dashboard = new DashboardClient(app.url);
    await dashboard.logIn(email, PASSWORD);
  });
  afterAll(() => app?.close());

  const post = async (extra: Record<string, string> = {}) => {
    const csrf = csrfIn((await dashboard.get('/dashboard/monitors')).body);
    return dashboard.post('/dashboard/monitors', { csrf, name: 'Everything', subreddits: 'all', keywords: 'hello', sources: 'posts', ...extra });
  };

  it('refuses with the estimate in words and the box to tick, then creates the monitor once it is ticked', async () => {
    const refused = await post();
    expect(refused.status).toBe(422);
    expect(refused.body).toMatch(/This monitor would have matched [\d,]+ of the [\d,]+ posts and comments the stream read since \d\d:\d\d UTC: about [\d,]+ a day/);
    expect(refused.body).toContain('or tick “Accept this many matches a day” below.');
    expect(refused.body).not.toContain('confirm_volume: true');
    expect(refused.body).toContain('name="confirm_volume"');
    const created = await post({ confirm_volume: 'on' });
    expect(created.status).toBe(303);
    expect(created.location).toMatch(/^\/dashboard\/monitors\/mon_/);
  });

  it('a monitor over all of Reddit says on its page and in the list that the stream has stopped reading', async () => {
    const csrf = csrfIn((await dashboard.get('/dashboard/monitors')).body);
    const created = await dashboard.post('/dashboard/monitors', { csrf, name: 'Rare', subreddits: 'all', keywords: 'never-written', sources: 'posts' });
    expect(created.status).toBe(303);
    expect((await dashboard.get(created.location!)).body).toContain('All of Reddit is read by the site-wide stream, in time.');
    // No cycle for 45 s: no instance reads.
    clock.advance(45);
    const page = (await dashboard.get(created.location!)).body;
    expect(page).toMatch(/stale<\/span> behind: the site-wide stream has read nothing for \d+ s/);
    expect((await dashboard.get('/dashboard/monitors')).body).toContain('all of Reddit, late: the stream is behind');
  });
});
