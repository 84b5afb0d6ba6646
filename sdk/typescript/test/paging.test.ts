import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { engines } from '../../../test/support/engines.ts';
import { matchStore } from '../../../test/support/matches.ts';
import { Subpilot } from '../src/index.ts';

/** Collects what an async iterator yields. */
async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const collected: T[] = [];
  for await (const item of items) collected.push(item);
  return collected;
}

describe.each(engines)('the TypeScript SDK paging over 250 matches on %s', (engine) => {
  let app: TestApp;
  let client: Subpilot;
  let requests: URL[];
  let monitorId: string;
  let stored: string[];
  let store: ReturnType<typeof matchStore>;
  let accountId: string;
  beforeAll(async () => {
    app = await startTestApp(engine, { worker: false });
    const account = await app.accountWithKey(0);
    accountId = account.accountId;
    requests = [];
    // The real fetch, with every URL asked written down, to count the pages.
    const counting: typeof fetch = (input, init) => {
      requests.push(new URL(String(input)));
      return fetch(input, init);
    };
    client = new Subpilot({ apiKey: account.token, baseUrl: app.url, fetch: counting });
    monitorId = (await client.createMonitor({ name: 'Busy', subreddits: ['r/node'], keywords: ['subpilot'] })).id;
    store = matchStore(app.services.db);
    stored = await store(monitorId, accountId, 250);
  }, 60_000);
  afterAll(() => app?.close());

  it("yields each of a monitor's matches once, newest first, following next_cursor page after page", async () => {
    requests.length = 0;
    const matches = await all(client.iterateMonitorMatches(monitorId, { limit: 100 }));
    expect(matches.map((m) => m.id)).toEqual([...stored].reverse());
    expect(requests.map((url) => url.searchParams.get('cursor') !== null)).toEqual([false, true, true]);
  });

  it('yields each match stored after a given one once, oldest first, and goes on from the last one seen', async () => {
    requests.length = 0;
    const after = await all(client.iterateMonitorMatchesAfter(monitorId, stored[0]!, { limit: 100 }));
    expect(after.map((m) => m.id)).toEqual(stored.slice(1));
    expect(requests.map((url) => url.searchParams.get('after'))).toEqual([stored[0], stored[100], stored[200]]);

    const newer = await store(monitorId, accountId, 3);
    const next = await all(client.iterateMonitorMatchesAfter(monitorId, after.at(-1)!.id));
    expect(next.map((m) => m.id)).toEqual(newer);
    expect(await all(client.iterateMonitorMatchesAfter(monitorId, newer.at(-1)!))).toEqual([]);
    stored.push(...newer);
  });

  it('yields each item of the inbox once, across pages of the default size', async () => {
    requests.length = 0;
    const items = await all(client.iterateInbox());
    expect(items.map((m) => m.id)).toEqual([...stored].reverse());
    expect(new Set(items.map((m) => m.id)).size).toBe(stored.length);
    expect(requests).toHaveLength(Math.ceil(stored.length / 20));
  });

  it('stops where the caller stops: breaking out of the loop asks for no further page', async () => {
    requests.length = 0;
    for await (const match of client.iterateMonitorMatches(monitorId, { limit: 10 })) {
      if (match.id === stored.at(-5)) break;
    }
    expect(requests).toHaveLength(1);
  });
});
