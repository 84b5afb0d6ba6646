import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RedditUnavailableError } from '../../src/integrations/reddit/reddit.errors.ts';
import { migrate } from '../../src/shared/db/migrate.ts';
import { STATE_REQUESTS_PER_CYCLE } from '../../src/modules/monitors/poller/poller.usecases.ts';
import type { TestApp } from '../support/app.ts';
import { engines, openTestDatabase } from '../support/engines.ts';
import { createMonitor, cycle, listingRequests, startMonitorsApp, type PinnedClock } from '../support/monitors.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const publicNames = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i}`);

describe.each(engines)('subreddit look-ups on %s', (engine) => {
  let app: TestApp;
  let clock: PinnedClock;
  beforeAll(async () => {
    // Room for the 1,100 subreddits of the poller test in one account.
    ({ app, clock } = await startMonitorsApp(engine, { env: { MONITOR_MAX_SUBREDDITS_PER_ACCOUNT: '2000' } }));
  });
  afterAll(() => app.close());
  beforeEach(() => {
    app.reddit.failWhen = null;
  });

  const infoRequests = () => app.reddit.requests.filter((r) => r.path === '/api/info' && r.query.sr_name !== undefined).length;
  const aboutRequests = (name: string) => app.reddit.requests.filter((r) => r.path === `/r/${name}/about`).length;
  const publish = (names: string[]) => {
    for (const name of names) app.reddit.subreddits.set(name, 'public');
  };

  it('a look-up whose second /api/info request fails keeps the first 100 names it learnt, and the next asks only for the rest', async () => {
    const names = publicNames('kept', 150);
    publish(names);
    let infos = 0;
    app.reddit.failWhen = (path) => (path === '/api/info' && ++infos >= 2 ? 503 : null);
    await expect(app.services.subreddits.lookup(names)).rejects.toBeInstanceOf(RedditUnavailableError);
    expect((await app.services.subreddits.known(names)).map((entry) => entry.name).sort()).toEqual(names.slice(0, 100).sort());

    app.reddit.failWhen = null;
    const before = app.reddit.requests.length;
    const entries = await app.services.subreddits.lookup(names);
    expect(entries.map((entry) => entry.name)).toEqual(names);
    const asked = app.reddit.requests.slice(before).filter((r) => r.path === '/api/info');
    expect(asked.map((r) => r.query.sr_name!.split(','))).toEqual([names.slice(100)]);
  });

  it('a look-up bounded by maxRequests learns a few hundred names a call, leaves the others out, and the next call goes on', async () => {
    const names = publicNames('piece', 250);
    publish(names);
    const before = infoRequests();
    expect(await app.services.subreddits.lookup(names, DAY_MS, { maxRequests: 2 })).toHaveLength(200);
    expect(infoRequests()).toBe(before + 2);
    expect(await app.services.subreddits.lookup(names, DAY_MS, { maxRequests: 2 })).toHaveLength(250);
    expect(infoRequests()).toBe(before + 3);
    expect(await app.services.subreddits.lookup(names, DAY_MS, { maxRequests: 2 })).toHaveLength(250);
    expect(infoRequests()).toBe(before + 3);
  });

  it('a banned subreddit in a monitor shows banned in health, and no later look-up asks its about page again', async () => {
    app.reddit.subreddits.set('fine', 'public');
    app.reddit.subreddits.set('gone', 'banned');
    const { token } = await app.accountWithKey(10);
    const monitor = await createMonitor(app, token, { subreddits: ['r/fine', 'r/gone', 'r/nowhere'], keywords: ['launch'] });
    const health = async () =>
      ((await (await app.api('GET', `/api/v1/monitors/${monitor.id}`, { token })).json()) as { health: { subreddits: { subreddit: string; state: string }[] } })
        .health.subreddits.map(({ subreddit, state }) => [subreddit, state]);

    await cycle(app);
    expect(await health()).toEqual([['r/fine', 'ok'], ['r/gone', 'banned'], ['r/nowhere', 'not_found']]);
    expect([aboutRequests('gone'), aboutRequests('nowhere')]).toEqual([1, 1]);

    // The next cycles: nothing to ask while the entries are fresh; after 10 minutes /api/info alone,
    // which leaves both out again, as their recorded states say it would.
    const info = infoRequests();
    clock.advance(60);
    await cycle(app);
    expect(infoRequests()).toBe(info);
    clock.advance(11 * 60);
    await cycle(app);
    expect(infoRequests()).toBe(info + 1);
    expect([aboutRequests('gone'), aboutRequests('nowhere')]).toEqual([1, 1]);
    expect(await health()).toEqual([['r/fine', 'ok'], ['r/gone', 'banned'], ['r/nowhere', 'not_found']]);
  });

  it('a cycle with 1,100 new subreddits looks up at most 10 groups of them, still reads every listing, and learns the rest next cycle', async () => {
    const names = publicNames('wide', 1100);
    publish(names);
    const { token } = await app.accountWithKey(10);
    for (let start = 0; start < names.length; start += 100) {
      await createMonitor(app, token, { name: `wide ${start}`, subreddits: names.slice(start, start + 100).map((name) => `r/${name}`), keywords: ['launch'] });
    }
    clock.advance(11 * 60); // every older test's entries are due again too; the new names go first
    const info = infoRequests();
    const listings = listingRequests(app).length;
    await cycle(app);
    expect(infoRequests()).toBe(info + STATE_REQUESTS_PER_CYCLE);
    expect(listingRequests(app).length - listings).toBeGreaterThanOrEqual(11);
    expect(await app.services.subreddits.known(names)).toHaveLength(1000);
    clock.advance(60);
    await cycle(app);
    expect(await app.services.subreddits.known(names)).toHaveLength(1100);
  });
});

describe.each(engines)('migration 0016 (names /api/info leaves out) on %s', (engine) => {
  it('forgets the not_found entries recorded without an about page, so banned ones among them are asked again, and keeps the others', async () => {
    const database = await openTestDatabase(engine);
    try {
      await migrate(database.db, '0012_idempotency_outcomes');
      const at = '2026-11-01T00:00:00.000Z';
      await database.db
        .insertInto('subreddits')
        .values([
          { name: 'gone', display_name: 'gone', state: 'not_found', nsfw: 0, checked_at: at },
          { name: 'node', display_name: 'node', state: 'ok', nsfw: 0, checked_at: at },
          { name: 'secret', display_name: 'secret', state: 'private', nsfw: 0, checked_at: at },
        ])
        .execute();
      await migrate(database.db);
      const rows = await database.db.selectFrom('subreddits').select(['name', 'state']).orderBy('name').execute();
      expect(rows).toEqual([
        { name: 'node', state: 'ok' },
        { name: 'secret', state: 'private' },
      ]);
    } finally {
      await database.drop();
    }
  });
});
