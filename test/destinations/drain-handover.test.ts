import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainDestination, PACE_MS, type DrainDeps } from '../../src/modules/destinations/destinations.delivery.ts';
import { createDestinationsRepository } from '../../src/modules/destinations/destinations.repository.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { startFakeSlack, type FakeChat } from '../support/fake-chat-webhooks.ts';
import { pinnedClock } from '../support/monitors.ts';
import { SECRET_KEY_HEX } from '../support/publishing.ts';

/*
 * One drainer per destination, handed over without a job that bounces every second: the drain is
 * called with the real repository; `requeue` (the job queue) is a list here, so the test sees which
 * jobs a drain asks for and when.
 */
describe.each(engines)('handing a destination from one drainer to the next on %s', (engine) => {
  let app: TestApp;
  let slack: FakeChat;
  let token: string;
  const clock = pinnedClock();

  beforeAll(async () => {
    slack = await startFakeSlack();
    slack.now = () => clock.now().getTime();
    app = await startTestApp(engine, {
      worker: false,
      env: { SECRET_KEY: SECRET_KEY_HEX },
      overrides: { clock: clock.now, sleep: async (ms) => clock.advance(ms / 1000), chat: { bases: { slack: [slack.url], discord: [slack.url] }, timeoutMs: 500 } },
    });
    ({ token } = await app.accountWithKey(0));
  });
  afterAll(async () => {
    await app?.close();
    await slack?.close();
  });

  const destination = async () => {
    const response = await app.api('POST', '/api/v1/destinations', { token, body: { kind: 'slack', name: 'x', url: slack.newWebhook() } });
    return ((await response.json()) as { id: string }).id;
  };
  const queueTest = (id: string) => app.api('POST', `/api/v1/destinations/${id}/test`, { token, body: {} });
  /** The drain as the worker runs it, with the jobs it asks for kept in `jobs` ([destination, start after seconds]). */
  const drainer = (jobs: [string, number][], repo: DrainDeps['repo'] = createDestinationsRepository(app.services.db)) => (id: string) =>
    drainDestination(id, {
      repo,
      clock: clock.now,
      sleep: async (ms) => clock.advance(ms / 1000),
      // Neither case sends: one finds the destination held, the other finds nothing pending until it lets go.
      send: async () => {
        throw new Error('nothing is sent in these cases');
      },
      paceMs: PACE_MS,
      openUrl: () => slack.url,
      requeue: async (destinationId, after = 0) => void jobs.push([destinationId, after]),
      announceOff: async () => undefined,
      log: { info: () => undefined, warn: () => undefined },
    });

  it('a job that finds the destination held comes back when the lease ends, not a second later', async () => {
    const id = await destination();
    const until = new Date(clock.now().getTime() + 45_000).toISOString();
    await app.services.db.updateTable('destinations').set({ draining_until: until }).where('id', '=', id).execute();
    await queueTest(id);
    const jobs: [string, number][] = [];
    await drainer(jobs)(id);
    expect(jobs).toEqual([[id, 45]]);
  });

  it('a message recorded while the drainer lets go is picked up by a job of its own', async () => {
    const id = await destination();
    const repo = createDestinationsRepository(app.services.db);
    let recorded = false;
    // Between the drainer's last look (nothing pending) and its release, another request records a message.
    const racing = {
      ...repo,
      release: async (destinationId: string, nextSendAt: string) => {
        if (!recorded) {
          recorded = true;
          expect((await queueTest(id)).status).toBe(202);
        }
        return repo.release(destinationId, nextSendAt);
      },
    };
    const jobs: [string, number][] = [];
    await drainer(jobs, racing)(id);
    expect(jobs).toEqual([[id, 0]]);
  });
});
