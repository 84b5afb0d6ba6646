import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';
import { createMonitor, cycle, startMonitorsApp, type PinnedClock } from '../support/monitors.ts';
import { eventually, startReceiver } from '../support/receiver.ts';

/*
 * Reddit keeps letters of any script in a permalink's slug and, asked with raw_json=1, sends them as
 * they are. Every answer that passes a permalink on must hand it on the same way, not percent-encoded.
 */
const SECRET_KEY = 'd'.repeat(64);
const TITLE = 'Über die Straße nach Köln';
const SLUG = 'über_die_straße_nach_köln';
const KOREAN = '/r/de/comments/k0rea/이것은_웹_페이지입니다/';

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** An account signed up through the dashboard, with credits and an API key. */
async function member(app: TestApp) {
  const browser = new DashboardClient(app.url);
  const email = uniqueEmail('unicode');
  await browser.signUp(email);
  const { id: accountId } = await app.services.accounts.requireByEmail(email);
  await app.services.credits.grant(accountId, 10, 'test');
  const { token } = await app.services.keys.createKey(accountId, 'unicode');
  return { browser, accountId, token };
}

/** The webhook bodies the receiver got, as JSON. */
const bodies = (receiver: Receiver) => receiver.received.map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> });

describe.each(engines)('permalinks with non-ASCII slugs in scrape answers and their webhook on %s', (engine) => {
  let app: TestApp;
  let receiver: Receiver;
  beforeAll(async () => {
    app = await startTestApp(engine, { env: { SECRET_KEY, ALLOW_HTTP_WEBHOOKS: 'true' } });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await app.close();
  });

  it('a scrape answers, stores and announces posts and comments with the permalinks Reddit sent, letters and all', async () => {
    const post = app.reddit.addPost({ subreddit: 'de', title: TITLE });
    app.reddit.posts.push({ id: 'k0rea', subreddit: 'de', title: 'Straße auf Koreanisch', created_utc: post.created_utc - 60, raw: { permalink: KOREAN, url: KOREAN } });
    const comment = app.reddit.addComment({ subreddit: 'de', body: 'Die Straße ist gesperrt', link_id: post.id, created_utc: post.created_utc + 1 });
    const { token, browser } = await member(app);

    const response = await app.api('POST', '/api/v1/scrape', {
      token,
      body: { subreddits: ['r/de'], keywords: ['straße'], sources: ['posts', 'comments'], webhook_url: receiver.url },
    });
    expect(response.status).toBe(200);
    const scrape = (await response.json()) as { id: string; results: { id: string; permalink: string; url: string }[] };
    const postLink = `https://www.reddit.com/r/de/comments/${post.id}/${SLUG}/`;
    const expected = [
      { id: `t1_${comment.id}`, permalink: `${postLink}${comment.id}/`, url: `${postLink}${comment.id}/` },
      { id: `t3_${post.id}`, permalink: postLink, url: postLink },
      { id: 't3_k0rea', permalink: `https://www.reddit.com${KOREAN}`, url: `https://www.reddit.com${KOREAN}` },
    ];
    const shown = (results: typeof scrape.results) => results.map(({ id, permalink, url }) => ({ id, permalink, url }));
    expect(shown(scrape.results)).toEqual(expected);

    const again = await app.api('GET', `/api/v1/scrapes/${scrape.id}`, { token });
    expect(shown(((await again.json()) as typeof scrape).results)).toEqual(expected);

    const [event] = await eventually(() => (receiver.received.length > 0 ? bodies(receiver) : undefined));
    expect(event!.type).toBe('scrape.completed');
    expect(shown(event!.data.results as typeof scrape.results)).toEqual(expected);
    // On the wire as UTF-8 text, not as \u escapes or %-escapes.
    expect(receiver.received[0]!.body).toContain(`/${SLUG}/`);

    // The dashboard links to them as they are, escaped for HTML but not percent-encoded.
    const page = (await browser.get(`/dashboard/scrapes/${scrape.id}`)).body;
    for (const { permalink } of expected) expect(page).toContain(`href="${permalink}"`);
    expect(page).not.toContain('%C3');
  });
});

describe.each(engines)('permalinks with non-ASCII slugs in monitor matches and their webhook on %s', (engine) => {
  let app: TestApp;
  let clock: PinnedClock;
  let receiver: Receiver;
  beforeAll(async () => {
    ({ app, clock } = await startMonitorsApp(engine, { env: { SECRET_KEY, ALLOW_HTTP_WEBHOOKS: 'true' } }));
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await app.close();
  });

  it('a monitor stores, lists and POSTs its matches with the permalinks Reddit sent', async () => {
    const { token, accountId, browser } = await member(app);
    const monitor = await createMonitor(app, token, { subreddits: ['r/de'], keywords: ['straße'], sources: ['posts', 'comments'], webhook_url: receiver.url });
    clock.advance(30);
    const post = app.reddit.addPost({ subreddit: 'de', title: TITLE });
    const comment = app.reddit.addComment({ subreddit: 'de', body: 'Welche Straße genau?', link_id: post.id });
    await cycle(app);

    const postLink = `https://www.reddit.com/r/de/comments/${post.id}/${SLUG}/`;
    const expected = [`${postLink}${comment.id}/`, postLink].sort();
    const response = await app.api('GET', `/api/v1/monitors/${monitor.id}/matches`, { token });
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: { permalink: string }[] };
    expect(data.map((m) => m.permalink).sort()).toEqual(expected);

    const [delivery] = (await app.services.webhooks.recentDeliveries(accountId)).filter((d) => d.event_type === 'monitor.matches');
    await app.services.webhooks.deliver(delivery!.id);
    const [event] = bodies(receiver);
    expect(event!.type).toBe('monitor.matches');
    expect((event!.data.matches as { permalink: string }[]).map((m) => m.permalink).sort()).toEqual(expected);

    const page = (await browser.get(`/dashboard/monitors/${monitor.id}`)).body;
    for (const permalink of expected) expect(page).toContain(`href="${permalink}"`);
    expect(page).not.toContain('%C3');
  });
});
