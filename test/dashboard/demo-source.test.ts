/**
 * The dashboard on the demo source (issue 44): a banner on every page of a signed-in account saying the
 * data is not Reddit's and where real access starts, and a "demo" label on every item a page lists
 * (scrape results, a monitor's matches, the inbox), a simulated publication marked so. A service on
 * Reddit shows neither.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { startTestApp } from '../support/app.ts';
import { DashboardClient } from '../support/dashboard-client.ts';
import { demoAccount, startDemoApp } from '../support/demo.ts';
import { engines } from '../support/engines.ts';
import { createMonitor, cycle, type PinnedClock } from '../support/monitors.ts';

const PAGES = ['keys', 'credits', 'scrapes', 'monitors', 'inbox', 'drafts', 'publications', 'destinations', 'webhooks', 'connections'];
const BANNER = /<p class="alert alert-warn demo-banner" role="note"><strong>Demo data — not real Reddit\.<\/strong>[^<]*an app Reddit has approved \(the operator sets\s+REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET\)\.<\/p>/;
const labels = (body: string) => body.match(/<span class="badge badge-demo" title="Demo data — not real Reddit">demo<\/span>/g)?.length ?? 0;

describe.each(engines)('the dashboard on the demo source on %s', (engine) => {
  let app: TestApp;
  let clock: PinnedClock;
  let dashboard: DashboardClient;
  let token: string;
  beforeAll(async () => {
    ({ app, clock } = await startDemoApp(engine));
    ({ dashboard, token } = await demoAccount(app, { connect: true }));
  });
  afterAll(() => app?.close());

  it('shows the banner on every page of a signed-in account, and on its error pages', async () => {
    for (const name of PAGES) {
      const page = await dashboard.get(`/dashboard/${name}`);
      expect(page.status, name).toBe(200);
      expect(page.body, name).toMatch(BANNER);
    }
    expect((await dashboard.get('/dashboard/no-such-page')).body).toMatch(BANNER);
  });

  it('labels every result of a scrape, every match of a monitor and every inbox entry "demo"', async () => {
    const scrape = await (await app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/typescript', 'r/node'], keywords: ['kysely'] } })).json();
    const results = await dashboard.get(`/dashboard/scrapes/${scrape.id}`);
    expect(labels(results.body)).toBe(scrape.results.length);

    const monitor = await createMonitor(app, token, { subreddits: ['r/typescript', 'r/node'], keywords: ['kysely'], sources: ['posts', 'comments'] });
    await cycle(app);
    clock.advance(120);
    await cycle(app);
    const matches = (await (await app.api('GET', `/api/v1/monitors/${monitor.id}/matches`, { token })).json()).data;
    expect(matches.length).toBeGreaterThan(0);
    expect(labels((await dashboard.get(`/dashboard/monitors/${monitor.id}`)).body)).toBe(matches.length);
    expect(labels((await dashboard.get('/dashboard/inbox')).body)).toBe(matches.length);
  });

  it('marks a publication the demo answered as simulated, with no link to Reddit', async () => {
    const published = await (await app.api('POST', '/api/v1/publish', { token, body: { type: 'comment', parent: 't3_demo000000001', body: 'Trying the demo.' } })).json();
    expect(published).toMatchObject({ status: 'published', source: 'demo' });
    const list = await dashboard.get('/dashboard/publications');
    expect(list.body).toContain(`<span class="badge badge-demo" title="Demo data — not real Reddit">simulated</span> <span class="muted">${published.reddit.id}</span>`);
    expect(list.body).not.toContain(`href="${published.reddit.permalink}"`);
  });
});

describe.each(engines)('the dashboard on Reddit on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine);
  });
  afterAll(() => app?.close());

  it('shows no demo banner', async () => {
    const email = `reddit-${Date.now()}@example.com`;
    await app.services.accounts.createAccount(email, 'correct horse battery');
    const dashboard = new DashboardClient(app.url);
    await dashboard.logIn(email, 'correct horse battery');
    const page = await dashboard.get('/dashboard/keys');
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('demo-banner');
  });
});
