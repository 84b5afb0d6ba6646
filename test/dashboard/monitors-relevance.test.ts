import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';
import { insertMatches, type MatchVerdict } from '../support/monitor-rows.ts';

const PASSWORD = 'correct horse battery';
const QUERY = '("which tool" OR recommend) -hiring';
const INTENT = 'Someone asking which tool to use to watch Reddit';

/** The create form as a person fills it in for a monitor that looks by query and is judged. */
const FORM = {
  name: 'Tool requests',
  subreddits: 'typescript',
  keywords: '',
  query: QUERY,
  intent: INTENT,
  min_relevance: '75',
  sources: 'posts',
};

const UNJUDGED = { code: 'judge_unavailable', message: 'the language model answered HTTP 503' };

/** The titles of the listed matches, in page order. */
const titles = (body: string) => [...body.matchAll(/rel="noopener noreferrer"><bdi>(Match \d+)<\/bdi>/g)].map((m) => m[1]);

describe.each(engines)('the dashboard’s query, intent and relevance on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    // A language model is configured, so an intent is accepted; no worker, so it is never called:
    // the verdicts shown are the rows these tests store.
    app = await startTestApp(engine, { worker: false, env: { LLM_BASE_URL: 'http://127.0.0.1:9/v1', LLM_MODEL: 'fake-model' } });
  });
  afterAll(() => app.close());

  async function member() {
    const email = uniqueEmail('relevance');
    const account = await app.services.accounts.createAccount(email, PASSWORD);
    const browser = new DashboardClient(app.url);
    await browser.logIn(email, PASSWORD);
    return { browser, accountId: account.id };
  }

  async function created(browser: DashboardClient, fields: Record<string, string> = FORM) {
    const answer = await browser.submit('/dashboard/monitors', '/dashboard/monitors', fields);
    expect(answer.status, answer.body).toBe(303);
    return /\/dashboard\/monitors\/(mon_[^?]+)\?done=created$/.exec(answer.location!)![1]!;
  }

  it('offers Query, Intent and Minimum relevance on the create form, and says keywords are optional once a query is given', async () => {
    const { browser } = await member();
    const form = (await browser.get('/dashboard/monitors')).body;
    expect(form).toContain('<textarea name="keywords" rows="4">');
    expect(form).toContain('optional when a query is given');
    expect(form).toMatch(/<textarea name="query" rows="3" maxlength="1000" spellcheck="false" placeholder="\(&quot;which tool&quot; OR recommend\) -hiring type:post"><\/textarea>/);
    expect(form).toContain('<a href="/docs/guides/queries">the query syntax</a>');
    expect(form).toContain('<a href="/docs/guides/relevance">how relevance works</a>');
    expect(form).toMatch(/<textarea name="intent" rows="3" maxlength="500"[^>]*><\/textarea>/);
    expect(form).toContain('Judged matches cost more');
    expect(form).toContain('<input type="number" name="min_relevance" value="60" min="0" max="100" step="1" inputmode="numeric">');
  });

  it('creates a monitor from a query, an intent and a bar without keywords, and shows them on its page and in the list', async () => {
    const { browser, accountId } = await member();
    const id = await created(browser);
    expect(await app.services.monitors.get(accountId, id)).toMatchObject({ keywords: [], query: QUERY, intent: INTENT, min_relevance: 75 });

    const page = (await browser.get(`/dashboard/monitors/${id}`)).body;
    expect(page).toContain('<dt>Query</dt><dd><code class="wrap-anywhere"><bdi>(&quot;which tool&quot; OR recommend) -hiring</bdi></code></dd>');
    expect(page).toContain(`judged against “<bdi>${INTENT}</bdi>”; delivered from 75 of 100`);
    expect(page).toContain('>(&quot;which tool&quot; OR recommend) -hiring</textarea>');
    expect(page).toContain(`>${INTENT}</textarea>`);
    expect(page).toContain('name="min_relevance" value="75"');
    expect((await browser.get('/dashboard/monitors')).body).toContain('<code class="mon-query" title="(&quot;which tool&quot; OR recommend) -hiring">');
  });

  it('shows a query’s syntax error beside the Query field, keeps what was typed, and saves nothing', async () => {
    const { browser, accountId } = await member();
    const refused = await browser.submit('/dashboard/monitors', '/dashboard/monitors', { ...FORM, query: '(recommend OR' });
    expect(refused.status).toBe(422);
    const beside = /<span class="field-error">(.*?)<\/span>\s*<textarea name="query"[^>]*aria-invalid="true">\(recommend OR<\/textarea>/.exec(refused.body);
    expect(beside?.[1]).toBe('Query is not a valid query: at character 14: expected a word, a phrase or <code>(</code> after OR');
    expect(refused.body).toContain('role="alert">Please fix: Query is not a valid query: at character 14');
    expect(refused.body).toContain(`>${INTENT}</textarea>`);
    expect(refused.body).toContain('name="min_relevance" value="75"');
    expect((await app.services.monitors.list(accountId, { limit: 10 })).data).toEqual([]);

    const id = await created(browser);
    const edit = await browser.submit(`/dashboard/monitors/${id}`, `/dashboard/monitors/${id}`, { ...FORM, query: 'title: ' });
    expect(edit.status).toBe(422);
    expect(edit.body).toMatch(/<span class="field-error">Query is not a valid query: at character 7: .*?<\/span>\s*<textarea name="query"/);
    expect((await app.services.monitors.get(accountId, id)).query).toBe(QUERY);
  });

  it('asks for keywords or a query, and for a bar from 0 to 100, each beside its field', async () => {
    const { browser } = await member();
    const neither = await browser.submit('/dashboard/monitors', '/dashboard/monitors', { ...FORM, query: '' });
    expect(neither.status).toBe(422);
    expect(neither.body).toMatch(
      /<span class="field-error">Keywords must name at least one keyword, unless a query is given<\/span>\s*<textarea name="keywords" rows="4" aria-invalid="true">/,
    );
    for (const typed of ['101', 'high']) {
      const bar = await browser.submit('/dashboard/monitors', '/dashboard/monitors', { ...FORM, min_relevance: typed });
      expect(bar.status).toBe(422);
      expect(bar.body).toMatch(
        new RegExp(`<span class="field-error">Minimum relevance is a whole number from 0 to 100</span>\\s*<input type="number" name="min_relevance" value="${typed}"[^>]*aria-invalid="true">`),
      );
    }
  });

  it('shows each judged match’s score and reason, and why an unjudged one was not judged, under Delivered', async () => {
    const { browser, accountId } = await member();
    const id = await created(browser);
    const verdicts: MatchVerdict[] = [
      { relevance: 87, reason: 'The post asks for a pick: "recommend".' },
      { error: UNJUDGED },
      { relevance: 20, reason: 'The post is about cats, not asking for a tool.', filtered: true },
    ];
    await insertMatches(app.database.db, { monitorId: id, accountId, count: 3, verdict: (i) => verdicts[i]! });

    const page = (await browser.get(`/dashboard/monitors/${id}`)).body;
    expect(titles(page)).toEqual(['Match 1', 'Match 0']);
    expect(page).toMatch(
      /<span class="mon-score" role="img" aria-label="relevance 87 of 100" title="relevance 87 of 100, judged by fake-model">87<\/span>\s*<bdi>The post asks for a pick: &quot;recommend&quot;.<\/bdi>/,
    );
    expect(page).toContain('<p class="mon-verdict mon-unjudged">not judged: <bdi>the language model answered HTTP 503</bdi></p>');
    expect(page).toContain(`<a href="/dashboard/monitors/${id}#matches" aria-current="page">Delivered</a>`);
    expect(page).toContain(`<a href="/dashboard/monitors/${id}?view=filtered#matches">Filtered (below 75)</a>`);
  });

  it('lists only the matches judged below the bar under the Filtered tab, with their scores, and keeps the tab while paging', async () => {
    const { browser, accountId } = await member();
    const id = await created(browser);
    // Every odd match was judged below the bar: 30 filtered, 30 delivered.
    const verdict = (i: number): MatchVerdict =>
      i % 2 === 1 ? { relevance: 10 + (i % 50), reason: `Off topic, number ${i}.`, filtered: true } : { relevance: 90, reason: `On topic, number ${i}.` };
    await insertMatches(app.database.db, { monitorId: id, accountId, count: 60, verdict });

    const first = (await browser.get(`/dashboard/monitors/${id}?view=filtered`)).body;
    expect(titles(first)).toEqual(Array.from({ length: 25 }, (_, i) => `Match ${59 - 2 * i}`));
    expect(first).toContain('<h2 id="matches">Filtered matches, newest first</h2>');
    expect(first).toContain(`<a href="/dashboard/monitors/${id}?view=filtered#matches" aria-current="page">Filtered (below 75)</a>`);
    expect(first).toContain('<span class="mon-score mon-score-low" role="img" aria-label="relevance 19 of 100"');
    expect(first).toContain('<bdi>Off topic, number 59.</bdi>');
    expect(first).not.toContain('On topic');

    const older = /href="(\/dashboard\/monitors\/[^"]+)">Older matches →/.exec(first)![1]!.replaceAll('&amp;', '&');
    expect(older).toMatch(new RegExp(`^/dashboard/monitors/${id}\\?view=filtered&cursor=`));
    const second = (await browser.get(older)).body;
    expect(titles(second)).toEqual(['Match 9', 'Match 7', 'Match 5', 'Match 3', 'Match 1']);
    expect(second).toContain(`<a href="/dashboard/monitors/${id}?view=filtered">Newest</a>`);

    const delivered = (await browser.get(`/dashboard/monitors/${id}`)).body;
    expect(titles(delivered)).toEqual(Array.from({ length: 25 }, (_, i) => `Match ${58 - 2 * i}`));
  });

  it('says on a judged monitor’s page and in the list that matches go out unjudged while the judge fails', async () => {
    const { browser } = await member();
    const judged = await created(browser);
    const plain = await created(browser, { ...FORM, name: 'Not judged', intent: '' });
    // The judge's state is the server's, shared by every monitor with an intent: put back once read.
    const failing = { name: 'judge', state: 'failing', since: '2026-01-02T03:04:00.000Z', detail: 'the language model answered HTTP 503' };
    await app.database.db.insertInto('reddit_app_state').values(failing).execute();
    try {
      const page = (await browser.get(`/dashboard/monitors/${judged}`)).body;
      expect(page.replace(/\s+/g, ' ')).toContain(
        'Matches are delivered unjudged, and not charged for judging, since <time datetime="2026-01-02T03:04:00.000Z">2026-01-02 03:04 UTC</time>, because the relevance judge fails: <bdi>the language model answered HTTP 503</bdi>.',
      );
      expect((await browser.get(`/dashboard/monitors/${plain}`)).body).not.toContain('relevance judge fails');
      const list = (await browser.get('/dashboard/monitors')).body;
      expect(list.match(/relevance judge failing/g)).toHaveLength(1);
    } finally {
      await app.database.db.deleteFrom('reddit_app_state').where('name', '=', 'judge').execute();
    }
    expect((await browser.get(`/dashboard/monitors/${judged}`)).body).not.toContain('relevance judge fails');
  });
});
