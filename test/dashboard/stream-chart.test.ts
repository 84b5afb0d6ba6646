import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';
import { createFirehose } from '../support/fake-reddit-firehose.ts';
import { startMonitorsApp, type PinnedClock } from '../support/monitors.ts';

const PASSWORD = 'correct horse battery';
const n = (value: number) => value.toLocaleString('en-US');

/**
 * The Monitors page's chart of all of Reddit: what the site-wide stream covered in the last 24 hours,
 * the same figures as GET /api/v1/stream/coverage, a skipped range included; and no chart on a server
 * whose stream is off and never ran.
 */
describe.each(engines)('the Monitors page shows what the stream covered on %s', (engine) => {
  let app: TestApp;
  let clock: PinnedClock;
  let dashboard: DashboardClient;
  let token: string;
  beforeAll(async () => {
    // 30 calls a minute for the stream against 100 items a second: it falls behind its 60-s bound and skips.
    ({ app, clock } = await startMonitorsApp(engine, {
      env: { REDDIT_STREAM_SHARE: '0.5', REDDIT_REQUESTS_PER_MINUTE: '60', REDDIT_STREAM_MAX_LAG_SECONDS: '60' },
      waitsMoveClock: true,
    }));
    app.reddit.firehose = createFirehose({ clock: () => clock.now().getTime(), perSecond: 100, subreddits: ['node'] });
    for (let t = 0; t < 300; t += 10) {
      clock.advance(10);
      await app.services.monitorStream!.runCycle();
    }
    const email = uniqueEmail('stream-chart');
    const { id } = await app.services.accounts.createAccount(email, PASSWORD);
    token = (await app.services.keys.createKey(id, 'chart')).token;
    dashboard = new DashboardClient(app.url);
    await dashboard.logIn(email, PASSWORD);
  });
  afterAll(() => app?.close());

  it('draws the last 24 hours with the totals the coverage API gives, a gap among them', async () => {
    const coverage = (await (await app.api('GET', '/api/v1/stream/coverage?hours=24', { token })).json()) as {
      hours: { returned: number; unavailable: number; pending: number; skipped: number }[];
      gaps: unknown[];
    };
    const sum = (field: 'returned' | 'unavailable' | 'pending' | 'skipped') => coverage.hours.reduce((total, hour) => total + hour[field], 0);
    const walked = sum('returned') + sum('unavailable') + sum('pending') + sum('skipped');
    expect(sum('skipped')).toBeGreaterThan(0);
    const page = await dashboard.get('/dashboard/monitors');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h2 id="all-of-reddit">All of Reddit</h2>');
    expect(page.body).toContain(`${n(walked)} ids walked, ${n(sum('returned'))} read and matched against every monitor`);
    expect(page.body).toContain(`${n(sum('skipped'))} skipped in ${n(coverage.gaps.length)} gap`);
    expect(page.body.match(/<g><title>/g)).toHaveLength(24);
    expect(page.body).toContain('class="bar stream-skipped"');
  });
});

describe('the Monitors page of a server whose stream is off', () => {
  let app: TestApp;
  beforeAll(async () => {
    ({ app } = await startMonitorsApp('sqlite'));
  });
  afterAll(() => app?.close());

  it('has no chart of all of Reddit', async () => {
    const email = uniqueEmail('no-stream');
    await app.services.accounts.createAccount(email, PASSWORD);
    const dashboard = new DashboardClient(app.url);
    await dashboard.logIn(email, PASSWORD);
    const page = await dashboard.get('/dashboard/monitors');
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('all-of-reddit');
  });
});
