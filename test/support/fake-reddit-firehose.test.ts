import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFirehose, FIRST_COMMENT_ID, FIRST_POST_ID } from './fake-reddit-firehose.ts';
import { startFakeReddit, type FakeReddit } from './fake-reddit.ts';

describe('the fake Reddit firehose', () => {
  let fake: FakeReddit;
  let now = Date.parse('2026-11-23T12:00:00Z');
  let token = '';
  beforeAll(async () => {
    fake = await startFakeReddit();
    fake.clock = () => now;
    fake.firehose = createFirehose({ clock: () => now, perSecond: 20, unavailable: 0.05, late: { share: 0.1, maxSeconds: 10 } });
    const auth = Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString('base64');
    const answer = await fetch(`${fake.url}/api/v1/access_token`, { method: 'POST', headers: { authorization: `Basic ${auth}`, 'user-agent': 'test' }, body: 'grant_type=client_credentials' });
    token = ((await answer.json()) as { access_token: string }).access_token;
  });
  afterAll(() => fake.close());

  const get = async (path: string) => {
    const answer = await fetch(`${fake.url}${path}`, { headers: { authorization: `bearer ${token}`, 'user-agent': 'test' } });
    return (await answer.json()) as { data: { children: { kind: string; data: { name: string } }[] } };
  };

  it('numbers each kind on its own, one by one, at a bursty rate around the mean', () => {
    now += 60_000;
    const items = fake.firehose!.items();
    expect(items.length).toBeGreaterThan(60 * 20 * 0.8);
    expect(items.length).toBeLessThan(60 * 20 * 1.2);
    for (const [kind, first] of [['t3', FIRST_POST_ID], ['t1', FIRST_COMMENT_ID]] as const) {
      const ids = items.filter((item) => item.kind === kind).map((item) => Number.parseInt(item.id, 36));
      expect(ids).toEqual(ids.map((_, i) => first + i));
    }
    const perSecond = new Map<number, number>();
    for (const item of items) perSecond.set(Math.floor(item.createdMs / 1000), (perSecond.get(Math.floor(item.createdMs / 1000)) ?? 0) + 1);
    expect(Math.max(...perSecond.values())).toBeGreaterThan(3 * Math.min(...perSecond.values()));
  });

  it('answers at most 100 ids, in no set order, leaving out the deleted and the not yet visible', async () => {
    const items = fake.firehose!.items();
    const asked = items.slice(0, 150).map((item) => `${item.kind}_${item.id}`);
    const answer = await get(`/api/info?id=${asked.join(',')}&raw_json=1`);
    const names = answer.data.children.map((child) => child.data.name);
    const expected = items.slice(0, 100).filter((item) => item.visibleMs !== null && item.visibleMs <= now).map((item) => `${item.kind}_${item.id}`);
    expect([...names].sort()).toEqual([...expected].sort());
    expect(names).not.toEqual(expected);
    expect(expected.length).toBeLessThan(100);
  });

  it('shows a late item only once its time has come', async () => {
    const fresh = fake.firehose!.items().filter((item) => item.visibleMs !== null && item.visibleMs > now);
    expect(fresh.length).toBeGreaterThan(0);
    const ids = fresh.slice(0, 100).map((item) => `${item.kind}_${item.id}`);
    expect((await get(`/api/info?id=${ids.join(',')}`)).data.children.length).toBeLessThan(ids.length);
    now += 11_000;
    const later = await get(`/api/info?id=${ids.join(',')}`);
    expect(later.data.children.map((child) => child.data.name).sort()).toEqual([...ids].sort());
  });

  it('lists the newest post and comment at the heads of /r/all/new and /r/all/comments', async () => {
    const items = fake.firehose!.items();
    for (const [path, kind] of [['/r/all/new', 't3'], ['/r/all/comments', 't1']] as const) {
      const newest = items.filter((item) => item.kind === kind && item.visibleMs !== null && item.visibleMs <= now).at(-1)!;
      const head = await get(`${path}?limit=5`);
      expect(head.data.children[0]!.data.name).toBe(`${kind}_${newest.id}`);
      expect(head.data.children.every((child) => child.kind === kind)).toBe(true);
    }
  });
});
