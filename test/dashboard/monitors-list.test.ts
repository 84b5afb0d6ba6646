import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';
import { createMonitor, cycle, startMonitorsApp, type PinnedClock } from '../support/monitors.ts';

const PASSWORD = 'correct horse battery';
/** A cell's text without tags, spaces folded. */
const text = (html: string) => html.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim();

/** The Monitors list's rows as { name: cells by column header } read from the HTML. */
function rows(page: string): Map<string, Record<string, string>> {
  const table = /<table class="mon-table">([\s\S]*?)<\/table>/.exec(page);
  if (!table) return new Map();
  const headers = [...table[1]!.matchAll(/<th[^>]*>([\s\S]*?)<\/th>/g)].map((m) => text(m[1]!));
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(table[1]!)![1]!;
  return new Map(
    [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map(([, row]) => {
      const cells = [...row!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) => m[1]!);
      return [text(cells[0]!), Object.fromEntries(headers.map((header, i) => [header, cells[i]!]))];
    }),
  );
}

describe.each(engines)('the Monitors list shows what each monitor did today and how it is reading on %s', (engine) => {
  let app: TestApp;
  let clock: PinnedClock;
  beforeAll(async () => {
    // The poller's cycles are run by hand on a pinned clock, so "today" and "40 s ago" are known.
    ({ app, clock } = await startMonitorsApp(engine));
  });
  afterAll(() => app.close());

  async function member() {
    const email = uniqueEmail('monitor-list');
    const account = await app.services.accounts.createAccount(email, PASSWORD);
    await app.services.credits.grant(account.id, 100, 'monitor list');
    const { token } = await app.services.keys.createKey(account.id, 'monitor list');
    const browser = new DashboardClient(app.url);
    await browser.logIn(email, PASSWORD);
    return { browser, accountId: account.id, token, list: async () => (await browser.get('/dashboard/monitors')).body };
  }

  it('points an empty list to the create form below it, by the form heading’s id', async () => {
    const { list } = await member();
    const page = await list();
    expect(page).toContain('No monitors yet. <a href="#create-monitor">Create your first monitor below ↓</a>');
    expect(page).toContain('<h2 id="create-monitor">Create a monitor</h2>');
    expect(page.indexOf('href="#create-monitor"')).toBeLessThan(page.indexOf('id="create-monitor"'));
  });

  it('counts the matches stored since 00:00 UTC and says how long ago the last one was', async () => {
    const { token, list, accountId } = await member();
    clock.set('2026-11-23T23:58:00.000Z');
    const busy = await createMonitor(app, token, { name: 'Busy', subreddits: ['r/daycount'], keywords: ['launch'] });
    const quiet = await createMonitor(app, token, { name: 'Quiet', subreddits: ['r/daycount'], keywords: ['nothing matches this'] });
    clock.advance(30);
    app.reddit.addPost({ subreddit: 'daycount', title: 'launch before midnight' });
    clock.advance(30);
    await cycle(app);
    clock.set('2026-11-24T00:01:00.000Z');
    app.reddit.addPost({ subreddit: 'daycount', title: 'launch after midnight' });
    app.reddit.addPost({ subreddit: 'daycount', title: 'another launch' });
    clock.advance(30);
    await cycle(app);
    clock.advance(4 * 60);

    const table = rows(await list());
    expect(text(table.get('Busy')!['Matches today']!)).toBe('2');
    expect(table.get('Busy')!['Last match']).toBe('<time datetime="2026-11-24T00:01:30.000Z" title="2026-11-24 00:01 UTC">4 min ago</time>');
    expect(text(table.get('Quiet')!['Matches today']!)).toBe('0');
    expect(text(table.get('Quiet')!['Last match']!)).toBe('none yet');
    // The same counts through the usecase, and nothing of a monitor that is another account's.
    const stranger = await member();
    const activity = await app.services.monitors.activity(accountId, [busy.id, quiet.id]);
    expect(activity).toEqual({
      now: '2026-11-24T00:05:30.000Z',
      monitors: new Map([
        [busy.id, { matches_today: 2, last_match_at: '2026-11-24T00:01:30.000Z' }],
        [quiet.id, { matches_today: 0, last_match_at: null }],
      ]),
    });
    expect((await app.services.monitors.activity(stranger.accountId, [busy.id])).monitors.size).toBe(0);
  });

  it('sums up health in a few words: unavailable subreddits, Reddit errors, recent gaps, and how long ago all were read', async () => {
    const { token, list } = await member();
    clock.set('2026-11-25T12:00:00.000Z');
    app.reddit.subreddits.set('hidden_one', 'private');
    app.reddit.addPost({ subreddit: 'fresh_a', title: 'hello' });
    app.reddit.addPost({ subreddit: 'fresh_b', title: 'hello' });
    app.reddit.addPost({ subreddit: 'flaky_c', title: 'hello' });
    await createMonitor(app, token, { name: 'Fine', subreddits: ['r/fresh_a', 'r/fresh_b'], keywords: ['x'] });
    const mixed = await createMonitor(app, token, { name: 'Mixed', subreddits: ['r/fresh_a', 'r/hidden_one', 'r/flaky_c'], keywords: ['x'] });
    await createMonitor(app, token, { name: 'Single', subreddits: ['r/fresh_b'], keywords: ['x'] });
    await cycle(app);
    clock.advance(20);
    // Reddit failed a later reading of r/flaky_c, as the poller records it (one combined listing
    // reads all these subreddits, so the fake cannot fail one alone).
    await app.database.db
      .updateTable('monitor_cursors')
      .set({ error: 'unavailable', error_at: clock.now().toISOString() })
      .where('subreddit', '=', 'flaky_c')
      .execute();
    const gap = (recordedAt: string) => ({
      monitor_id: mixed.id,
      source: 'posts' as const,
      subreddits: '["r/fresh_a"]',
      from_at: '2026-11-20T00:00:00.000Z',
      to_at: '2026-11-20T00:01:00.000Z',
      recorded_at: recordedAt,
    });
    await app.database.db.insertInto('monitor_gaps').values([gap('2026-11-25T11:00:00.000Z'), gap('2026-11-25T11:30:00.000Z'), gap('2026-11-23T11:00:00.000Z')]).execute();
    clock.advance(20);

    const table = rows(await list());
    const health = (name: string) => text(table.get(name)!.Health!);
    expect(health('Fine')).toBe('all subreddits read 40 s ago');
    expect(health('Single')).toBe('read 40 s ago');
    expect(health('Mixed')).toBe('r/hidden_one private · r/flaky_c Reddit error · 2 gaps in 24 h · 2 of 3 read 40 s ago');
    expect(table.get('Mixed')!.Health).toContain('<span class="mon-problem"><bdi>r/hidden_one</bdi> private</span>');
  });
});
