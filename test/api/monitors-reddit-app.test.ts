import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../src/app/container.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines, type Engine } from '../support/engines.ts';
import { createMonitor, cycle, pinnedClock, type PinnedClock } from '../support/monitors.ts';

type LogLine = Record<string, unknown>;

/** A pino logger whose JSON lines land in `lines`, as the poller's log would in production. */
const logInto = (lines: LogLine[]) =>
  pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line));
        done();
      },
    }),
  );

const overridesFor = (clock: PinnedClock, lines: LogLine[]) => ({
  clock: clock.now,
  log: logInto(lines),
  // Webhook URLs name a public host that is never called: the tests read the queued deliveries.
  resolveHost: async () => [{ address: '93.184.216.34', family: 4 as const }],
});

/** The service with a pinned clock, its log caught, webhooks on, and no worker: the tests run the cycles. */
async function startApp(engine: Engine, lines: LogLine[] = []) {
  const clock = pinnedClock();
  const app = await startTestApp(engine, { worker: false, env: { SECRET_KEY: 'd'.repeat(64) }, overrides: overridesFor(clock, lines) });
  app.reddit.clock = () => clock.now().getTime();
  return { app, clock };
}

interface Health {
  status: string;
  reddit: { state: string; since: string | null };
  subreddits: { subreddit: string; state: string; stale: boolean; last_read_at: string | null }[];
}

const healthOf = async (app: TestApp, token: string, id: string) =>
  ((await (await app.api('GET', `/api/v1/monitors/${id}`, { token })).json()) as { health: Health }).health;

describe.each(engines)('a monitor’s health says which subreddits are stale on %s', (engine) => {
  let app: TestApp;
  let clock: PinnedClock;
  beforeAll(async () => {
    ({ app, clock } = await startApp(engine));
  });
  afterAll(() => app.close());

  it('a subreddit not read for more than two intervals is stale, and fresh again after a good read', async () => {
    app.reddit.subreddits.set('steady', 'public');
    const { token } = await app.accountWithKey(10);
    const monitor = await createMonitor(app, token, { subreddits: ['r/steady'], keywords: ['x'] });
    await cycle(app);
    const readAt = clock.now().toISOString();
    expect(await healthOf(app, token, monitor.id)).toMatchObject({ status: 'ok', subreddits: [{ stale: false, last_read_at: readAt }] });

    clock.advance(2 * 60);
    expect((await healthOf(app, token, monitor.id)).subreddits[0]!.stale).toBe(false);
    clock.advance(1);
    expect(await healthOf(app, token, monitor.id)).toMatchObject({ status: 'stale', subreddits: [{ state: 'ok', stale: true, last_read_at: readAt }] });

    await cycle(app);
    expect(await healthOf(app, token, monitor.id)).toMatchObject({ status: 'ok', subreddits: [{ stale: false }] });
  });

  it('a monitor never read is counted from when it started watching, and a paused one is never stale', async () => {
    app.reddit.subreddits.set('fresh', 'public');
    const { token } = await app.accountWithKey(10);
    const monitor = await createMonitor(app, token, { subreddits: ['r/fresh'], keywords: ['x'] });
    clock.advance(2 * 60);
    expect(await healthOf(app, token, monitor.id)).toMatchObject({ status: 'ok', subreddits: [{ stale: false, last_read_at: null }] });
    clock.advance(1);
    expect(await healthOf(app, token, monitor.id)).toMatchObject({ status: 'stale', subreddits: [{ stale: true }] });

    await app.api('PATCH', `/api/v1/monitors/${monitor.id}`, { token, body: { status: 'paused' } });
    clock.advance(10 * 60);
    expect(await healthOf(app, token, monitor.id)).toMatchObject({ status: 'ok', subreddits: [{ stale: false }] });
    // Resumed, it watches from now on: stale again only two intervals later.
    await app.api('PATCH', `/api/v1/monitors/${monitor.id}`, { token, body: { status: 'active' } });
    expect(await healthOf(app, token, monitor.id)).toMatchObject({ status: 'ok', subreddits: [{ stale: false }] });
  });

  it('a monitor that watches posts and comments is stale when either of them went unread', async () => {
    app.reddit.subreddits.set('both', 'public');
    const { token } = await app.accountWithKey(10);
    const monitor = await createMonitor(app, token, { subreddits: ['r/both'], keywords: ['x'], sources: ['posts', 'comments'] });
    await cycle(app);
    clock.advance(3 * 60);
    // Only the posts were read since: the comments are three intervals old.
    const at = clock.now().toISOString();
    await app.database.db.updateTable('monitor_cursors').set({ read_at: at }).where('subreddit', '=', 'both').where('source', '=', 'posts').execute();
    expect(await healthOf(app, token, monitor.id)).toMatchObject({ status: 'stale', subreddits: [{ stale: true, last_read_at: at }] });
  });

  it('a subreddit Reddit refuses makes the monitor unavailable rather than stale, while the others are read', async () => {
    app.reddit.subreddits.set('open', 'public');
    app.reddit.subreddits.set('gone', 'private');
    const { token } = await app.accountWithKey(10);
    const monitor = await createMonitor(app, token, { subreddits: ['r/open', 'r/gone'], keywords: ['x'] });
    await cycle(app);
    clock.advance(2 * 60 + 1);
    await cycle(app);
    expect(await healthOf(app, token, monitor.id)).toMatchObject({
      status: 'unavailable',
      subreddits: [
        { subreddit: 'r/open', state: 'ok', stale: false },
        // Refused by Reddit: its state is the news, never also stale (issue 42).
        { subreddit: 'r/gone', state: 'private', stale: false, last_read_at: null },
      ],
    });
  });
});

describe.each(engines)('a blocked or failing Reddit app is told once per change on %s', (engine) => {
  let app: TestApp;
  let clock: PinnedClock;
  const lines: LogLine[] = [];
  beforeAll(async () => {
    ({ app, clock } = await startApp(engine, lines));
    for (const name of ['alpha', 'beta']) app.reddit.subreddits.set(name, 'public');
  });
  afterAll(() => app.close());

  const stateLines = (from: LogLine[]) => from.filter((line) => line.reddit_state !== undefined);
  /** The monitor.health deliveries about Reddit's state, as [monitor id, state, since], in a stable order. */
  const announced = async () =>
    (await app.database.db.selectFrom('webhook_deliveries').select('payload').where('event_type', '=', 'monitor.health').execute())
      .map((row) => (JSON.parse(row.payload) as { data: { monitor_id: string; reddit?: { state: string; since: string } } }).data)
      .flatMap((data) => (data.reddit ? [[data.monitor_id, data.reddit.state, data.reddit.since]] : []))
      .sort((a, b) => `${a[2]}${a[1]}${a[0]}`.localeCompare(`${b[2]}${b[1]}${b[0]}`));
  const hook = { webhook_url: 'https://hooks.example.com/subpilot' };
  let watching: string[] = [];
  let token = '';
  const cycles = async (n: number) => {
    for (let i = 0; i < n; i++) {
      clock.advance(60);
      await cycle(app);
    }
  };

  it('a blocked app logs one warn and sends one monitor.health per active monitor over several cycles, and one more when it recovers', async () => {
    ({ token } = await app.accountWithKey(100));
    const one = await createMonitor(app, token, { ...hook, subreddits: ['r/alpha'], keywords: ['x'] });
    const two = await createMonitor(app, token, { ...hook, subreddits: ['r/beta'], keywords: ['x'] });
    const paused = await createMonitor(app, token, { ...hook, subreddits: ['r/alpha'], keywords: ['x'] });
    await app.api('PATCH', `/api/v1/monitors/${paused.id}`, { token, body: { status: 'paused' } });
    watching = [one.id, two.id].sort();
    await cycles(1);
    expect(stateLines(lines)).toEqual([]);

    app.reddit.blockApp('html');
    await cycles(1);
    const blockedAt = clock.now().toISOString();
    await cycles(3);
    expect(stateLines(lines)).toEqual([expect.objectContaining({ level: 40, reddit_state: 'blocked', previous_state: 'ok', since: blockedAt })]);
    expect(stateLines(lines)[0]!.msg).toMatch(/refusing this service's app/);
    expect(JSON.stringify(lines)).not.toContain(app.reddit.clientSecret);
    expect(await announced()).toEqual(watching.map((id) => [id, 'blocked', blockedAt]));
    const health = await healthOf(app, token, one.id);
    expect(health).toMatchObject({ status: 'stale', reddit: { state: 'blocked', since: blockedAt }, subreddits: [{ stale: true }] });
    // The paused monitor heard nothing, yet its health tells the same state.
    expect((await healthOf(app, token, paused.id)).reddit).toEqual({ state: 'blocked', since: blockedAt });

    app.reddit.blockApp(null);
    await cycles(1);
    const backAt = clock.now().toISOString();
    await cycles(2);
    expect(stateLines(lines).map((line) => [line.reddit_state, line.since])).toEqual([['blocked', blockedAt], ['ok', backAt]]);
    expect(await announced()).toEqual([...watching.map((id) => [id, 'blocked', blockedAt]), ...watching.map((id) => [id, 'ok', backAt])]);
    expect(await healthOf(app, token, one.id)).toMatchObject({ status: 'ok', reddit: { state: 'ok', since: backAt } });
  });

  it('a Reddit failing every read is told once as failing, and a restarted service does not tell it again', async () => {
    const before = await announced();
    app.reddit.failAlways(503);
    await cycles(1);
    const failingAt = clock.now().toISOString();
    await cycles(2);
    expect(stateLines(lines).map((line) => line.reddit_state)).toEqual(['blocked', 'ok', 'failing']);
    expect(await announced()).toEqual([...before, ...watching.map((id) => [id, 'failing', failingAt])]);

    // The service restarts: a new process on the same database, its poller taking the lease over.
    const restartedLines: LogLine[] = [];
    const restarted = await createServices(app.services.config, { ...overridesFor(clock, restartedLines), redditOptions: { sleep: () => Promise.resolve() } });
    try {
      await app.database.db.deleteFrom('poller_leases').execute();
      for (let i = 0; i < 2; i++) {
        clock.advance(60);
        // Both subreddits are read in one request, which fails.
        expect(await restarted.monitorPoller.runCycle()).toMatchObject({ errors: 1 });
      }
      expect(stateLines(restartedLines)).toEqual([]);
      expect(await announced()).toEqual([...before, ...watching.map((id) => [id, 'failing', failingAt])]);

      app.reddit.failAlways(null);
      clock.advance(60);
      await restarted.monitorPoller.runCycle();
      expect(stateLines(restartedLines)).toEqual([expect.objectContaining({ level: 40, reddit_state: 'ok', previous_state: 'failing' })]);
      expect((await announced()).filter(([, state, since]) => state === 'ok' && since === clock.now().toISOString())).toHaveLength(2);
    } finally {
      app.reddit.failAlways(null);
      await restarted.close();
    }
  });
});
