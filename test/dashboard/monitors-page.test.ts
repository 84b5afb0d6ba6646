import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { csrfIn, DashboardClient, uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';
import { insertMatches } from '../support/monitor-rows.ts';

const PASSWORD = 'correct horse battery';

/** The create form as a person fills it in; `sources` repeats, as the checkboxes send it. */
const FORM: [string, string][] = [
  ['name', 'TypeScript mentions'],
  ['subreddits', 'typescript, r/Node\nR/deno'],
  ['keywords', 'type safety\n  bun  \n'],
  ['exclude_keywords', 'hiring'],
  ['match', 'word'],
  ['sources', ''],
  ['sources', 'posts'],
  ['sources', 'comments'],
  ['include_nsfw', 'on'],
  ['webhook_url', ''],
  ['max_matches_per_day', '20'],
];

const withField = (form: [string, string][], name: string, value: string): [string, string][] =>
  form.map(([field, old]) => [field, field === name ? value : old]);

describe.each(engines)('the dashboard Monitors page on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    // No worker: the poller would read the fake Reddit and move the health these tests set. SECRET_KEY
    // turns webhooks on, so a webhook URL is checked (and refused) rather than webhooks being off.
    app = await startTestApp(engine, { worker: false, env: { SECRET_KEY: 'e'.repeat(64) } });
  });
  afterAll(() => app.close());

  async function member() {
    const email = uniqueEmail('monitors');
    const account = await app.services.accounts.createAccount(email, PASSWORD);
    await app.services.credits.grant(account.id, 10, 'monitors page');
    const browser = new DashboardClient(app.url);
    await browser.logIn(email, PASSWORD);
    return { browser, accountId: account.id };
  }

  /** Posts fields (repeats allowed) with the CSRF token of `formPage`, as the browser would. */
  async function send(browser: DashboardClient, formPage: string, action: string, fields: [string, string][]) {
    const csrf = csrfIn((await browser.get(formPage)).body);
    const response = await fetch(app.url + action, {
      method: 'POST',
      headers: { cookie: browser.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams([['csrf', csrf], ...fields]).toString(),
      redirect: 'manual',
    });
    return { status: response.status, location: response.headers.get('location'), body: await response.text() };
  }

  async function created(browser: DashboardClient, form = FORM) {
    const answer = await send(browser, '/dashboard/monitors', '/dashboard/monitors', form);
    expect(answer.status).toBe(303);
    return /\/dashboard\/monitors\/(mon_[^?]+)\?done=created$/.exec(answer.location!)![1]!;
  }

  it('creates a monitor from the form, adding "r/" where it was left out, lists it, and charges nothing', async () => {
    const { browser, accountId } = await member();
    const id = await created(browser);

    expect(await app.services.monitors.get(accountId, id)).toMatchObject({
      name: 'TypeScript mentions',
      status: 'active',
      subreddits: ['r/typescript', 'r/Node', 'r/deno'],
      keywords: ['type safety', 'bun'],
      exclude_keywords: ['hiring'],
      match: 'word',
      sources: ['posts', 'comments'],
      include_nsfw: true,
      webhook_url: null,
      max_matches_per_day: 20,
    });
    const detail = (await browser.get(`/dashboard/monitors/${id}?done=created`)).body;
    expect(detail).toContain('The monitor was created');
    expect(detail).toContain('<textarea name="keywords" rows="4">type safety\nbun</textarea>');
    const list = (await browser.get('/dashboard/monitors')).body;
    expect(list).toContain(`<a href="/dashboard/monitors/${id}"><bdi>TypeScript mentions</bdi></a>`);
    expect(list).toContain('aria-current="page">Monitors</a>');
    expect(await app.services.credits.spendableBalance(accountId)).toBe(10);
    expect(await ledgerSum(app.database.db, accountId)).toBe(10);
  });

  it('shows a refusal beside the form with what to fix, keeps what was typed, and creates nothing', async () => {
    const { browser, accountId } = await member();
    const badCap = await send(browser, '/dashboard/monitors', '/dashboard/monitors', withField(FORM, 'max_matches_per_day', 'lots'));
    expect(badCap.status).toBe(422);
    expect(badCap.body).toContain('Please fix: Daily cap is a whole number from 1 to 1000000');
    expect(badCap.body).toContain('value="lots"');

    const badName = await send(browser, '/dashboard/monitors', '/dashboard/monitors', withField(FORM, 'subreddits', 'typescript\nbad!name, r/x'));
    expect(badName.status).toBe(422);
    // Both bad items named before the rule, which is said once.
    expect(badName.body).toContain(
      'Please fix: Subreddits “bad!name” and “r/x” must be a subreddit: r/name, name, /r/name or a link such as https://www.reddit.com/r/name, ' +
        'its name 2–21 letters, digits or _, not starting with _.',
    );

    const privateHook = await send(browser, '/dashboard/monitors', '/dashboard/monitors', withField(FORM, 'webhook_url', 'https://10.1.2.3/hook'));
    expect(privateHook.status).toBe(422);
    expect(privateHook.body).toContain('role="alert"');
    expect(privateHook.body).toContain('value="https://10.1.2.3/hook"');
    expect(privateHook.body).toContain('typescript, r/Node\nR/deno</textarea>');

    const noSources = await send(browser, '/dashboard/monitors', '/dashboard/monitors', FORM.filter(([f, v]) => f !== 'sources' || v === ''));
    expect(noSources.status).toBe(422);
    expect(noSources.body).toContain('Please fix: Watch (tick posts, comments or both) holds 1 to 2 items');
    expect((await app.services.monitors.list(accountId, { limit: 10 })).data).toEqual([]);
  });

  it('refuses an intent beside its field while no language model is configured, and keeps the form as typed', async () => {
    const { browser, accountId } = await member();
    const refused = await send(browser, '/dashboard/monitors', '/dashboard/monitors', [...FORM, ['intent', 'Someone asking for a tool'], ['min_relevance', '70']]);
    expect(refused.status).toBe(503);
    expect(refused.body).toMatch(/<span class="field-error">Intent cannot be used: this server has no language model configured[^<]*<\/span>\s*<textarea name="intent"[^>]*aria-invalid="true">Someone asking for a tool<\/textarea>/);
    expect(refused.body).toContain('name="min_relevance" value="70"');
    expect((await app.services.monitors.list(accountId, { limit: 10 })).data).toEqual([]);
  });

  it('saves edited settings from the monitor page and shows them there', async () => {
    const { browser, accountId } = await member();
    const id = await created(browser);
    const edited = withField(withField(FORM, 'keywords', 'deno deploy'), 'max_matches_per_day', '');
    const saved = await send(browser, `/dashboard/monitors/${id}`, `/dashboard/monitors/${id}`, edited.filter(([f, v]) => f !== 'include_nsfw' && v !== 'comments'));
    expect(saved).toMatchObject({ status: 303, location: `/dashboard/monitors/${id}?done=saved` });
    expect(await app.services.monitors.get(accountId, id)).toMatchObject({
      keywords: ['deno deploy'],
      sources: ['posts'],
      include_nsfw: false,
      max_matches_per_day: null,
    });
    const page = (await browser.get(saved.location!)).body;
    expect(page).toContain('The changes were saved.');
    expect(page).toContain('>deno deploy</textarea>');
  });

  it('pauses and resumes a monitor, and says in words why a paused one is paused', async () => {
    const { browser, accountId } = await member();
    const id = await created(browser);
    const paused = await send(browser, `/dashboard/monitors/${id}`, `/dashboard/monitors/${id}/pause`, []);
    expect(paused).toMatchObject({ status: 303, location: `/dashboard/monitors/${id}?done=paused` });
    expect(await app.services.monitors.get(accountId, id)).toMatchObject({ status: 'paused', paused_reason: 'user' });
    const page = (await browser.get(paused.location!)).body;
    expect(page).toContain('Paused by you');
    expect(page).toContain(`action="/dashboard/monitors/${id}/resume"`);
    expect((await browser.get('/dashboard/monitors')).body).toContain('Paused by you');

    for (const [reason, words] of [
      ['insufficient_credits', 'Paused: out of credits — it resumes by itself once credits are added, and catches up on what it missed'],
      ['daily_cap', 'Paused until 00:00 UTC: daily cap reached'],
    ] as const) {
      await app.database.db.updateTable('monitors').set({ paused_reason: reason }).where('id', '=', id).execute();
      expect((await browser.get(`/dashboard/monitors/${id}`)).body).toContain(words);
    }

    const resumed = await send(browser, `/dashboard/monitors/${id}`, `/dashboard/monitors/${id}/resume`, []);
    expect(resumed).toMatchObject({ status: 303, location: `/dashboard/monitors/${id}?done=resumed` });
    expect(await app.services.monitors.get(accountId, id)).toMatchObject({ status: 'active', paused_reason: null });
    expect((await browser.get(resumed.location!)).body).toContain(`action="/dashboard/monitors/${id}/pause"`);
  });

  it('shows each subreddit’s health and the gaps, and the matches newest first, 25 a page, linked to Reddit', async () => {
    const { browser, accountId } = await member();
    const id = await created(browser);
    await insertMatches(app.database.db, { monitorId: id, accountId, count: 30 });
    await app.database.db
      .insertInto('monitor_cursors')
      .values({ subreddit: 'typescript', source: 'posts', mark: 't3_zz', mark_at: '2026-01-02T03:00:00.000Z', read_at: '2026-01-02T03:04:00.000Z', error: 'rate_limited', error_at: '2026-01-02T03:05:00.000Z' })
      .execute();
    await app.database.db
      .insertInto('monitor_gaps')
      .values({ monitor_id: id, source: 'comments', subreddits: '["r/deno"]', from_at: '2026-01-02T01:00:00.000Z', to_at: '2026-01-02T01:30:00.000Z', recorded_at: '2026-01-02T01:31:00.000Z' })
      .execute();

    const first = (await browser.get(`/dashboard/monitors/${id}`)).body;
    expect(first).toContain('>2026-01-02 03:04 UTC</time>');
    expect(first).toContain('<code>rate_limited</code>');
    expect(first).toMatch(/comments in <bdi>r\/deno<\/bdi>: <time[^>]*>2026-01-02 01:00 UTC<\/time> to <time[^>]*>2026-01-02 01:30 UTC<\/time>/);
    const titles = (body: string) => [...body.matchAll(/rel="noopener noreferrer"><bdi>(Match \d+)<\/bdi>/g)].map((m) => m[1]);
    expect(titles(first)).toEqual(Array.from({ length: 25 }, (_, i) => `Match ${29 - i}`));
    // Without an intent nothing is judged or filtered: no tabs, no scores.
    expect(first).not.toContain('class="mon-tabs"');
    expect(first).not.toContain('class="mon-verdict');
    expect(first).toContain('<a href="https://www.reddit.com/r/typescript/comments/m29/match_29/" target="_blank" rel="noopener noreferrer">');

    const older = /href="(\/dashboard\/monitors\/[^"]+\?cursor=[^"]+)">Older matches →/.exec(first)![1]!;
    const second = (await browser.get(older.replaceAll('&amp;', '&'))).body;
    expect(titles(second)).toEqual(['Match 4', 'Match 3', 'Match 2', 'Match 1', 'Match 0']);
    expect(second).not.toContain('Older matches →');
  });

  it('escapes what Reddit and the form sent and links only http(s) permalinks', async () => {
    const { browser, accountId } = await member();
    const id = await created(browser, withField(FORM, 'name', '<script>alert(1)</script>'));
    await insertMatches(app.database.db, { monitorId: id, accountId, count: 1, title: '<img src=x onerror=alert(1)>', permalink: 'javascript:alert(1)' });
    const page = (await browser.get(`/dashboard/monitors/${id}`)).body;
    expect(page).not.toContain('<script>alert(1)');
    expect(page).not.toContain('<img src=x');
    expect(page).not.toContain('href="javascript:');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('deletes a monitor only through its confirm step', async () => {
    const { browser, accountId } = await member();
    const id = await created(browser);
    const confirm = (await browser.get(`/dashboard/monitors/${id}/delete`)).body;
    expect(confirm).toContain('Delete the monitor <strong><bdi>TypeScript mentions</bdi></strong>?');
    const deleted = await send(browser, `/dashboard/monitors/${id}/delete`, `/dashboard/monitors/${id}/delete`, []);
    expect(deleted).toMatchObject({ status: 303, location: '/dashboard/monitors?done=deleted' });
    expect((await browser.get(deleted.location!)).body).toContain('The monitor was deleted.');
    await expect(app.services.monitors.get(accountId, id)).rejects.toMatchObject({ status: 404 });
    expect((await browser.get(`/dashboard/monitors/${id}`)).status).toBe(404);
  });

  it('answers 404 for another account’s monitor on every page and action, and leaves it as it was', async () => {
    const owner = await member();
    const id = await created(owner.browser);
    const before = await app.services.monitors.get(owner.accountId, id);
    const stranger = await member();
    for (const path of [`/dashboard/monitors/${id}`, `/dashboard/monitors/${id}/delete`]) {
      expect((await stranger.browser.get(path)).status).toBe(404);
    }
    for (const [action, fields] of [
      [`/dashboard/monitors/${id}`, withField(FORM, 'name', 'taken over')],
      [`/dashboard/monitors/${id}/pause`, []],
      [`/dashboard/monitors/${id}/delete`, []],
    ] as const) {
      const answer = await send(stranger.browser, '/dashboard/monitors', action, [...fields]);
      expect(answer.status, action).toBe(404);
      expect(answer.body).toContain('Page not found');
    }
    expect(await app.services.monitors.get(owner.accountId, id)).toEqual(before);
  });

  it('refuses a POST without the session’s CSRF token and changes nothing', async () => {
    const { browser, accountId } = await member();
    const id = await created(browser);
    const forged = (action: string, fields: Record<string, string>) => browser.post(action, { ...fields, csrf: 'x'.repeat(43) });
    expect((await browser.post('/dashboard/monitors', { name: 'forged', subreddits: 'typescript', keywords: 'x' })).status).toBe(403);
    expect((await forged(`/dashboard/monitors/${id}/pause`, {})).status).toBe(403);
    expect((await forged(`/dashboard/monitors/${id}/delete`, {})).status).toBe(403);
    expect((await forged(`/dashboard/monitors/${id}`, { name: 'forged', subreddits: 'typescript', keywords: 'x' })).status).toBe(403);
    const list = await app.services.monitors.list(accountId, { limit: 10 });
    expect(list.data.map((m) => [m.id, m.name, m.status])).toEqual([[id, 'TypeScript mentions', 'active']]);
  });
});
