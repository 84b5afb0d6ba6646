import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWebhookSecret, signWebhook } from '../../src/modules/webhooks/webhooks.signing.ts';
import type { TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { examplesDirectory, runExample, shellQuote, shellSession, type Language } from '../support/examples.ts';
import { documents, examples, fencedBlocks } from '../support/markdown.ts';
import { cycle, startMonitorsApp, storedMatches, type PinnedClock } from '../support/monitors.ts';

/** Every example of the documents, by the test that runs it (the receivers: webhook-receivers.test.ts; client.ts: typescript-examples.test.ts). */
const QUICKSTART = ['quickstart-key.sh', 'quickstart-scrape.sh', 'quickstart-monitor.sh', 'quickstart-matches.sh', 'quickstart-last.sh', 'quickstart-after.sh', 'quickstart-verify.sh'];
const LANGUAGES: Language[] = ['sh', 'ts', 'py'];
const PER_LANGUAGE = ['scrape', 'scrape-async', 'monitor-create', 'matches'];
const ELSEWHERE = ['client.ts', 'receiver.ts', 'receiver.py'];

describe('the examples of the documents', () => {
  it('are all run by a test, each under a name of its own', () => {
    const run = [...QUICKSTART, ...PER_LANGUAGE.flatMap((name) => LANGUAGES.map((language) => `${name}.${language}`)), ...ELSEWHERE];
    expect([...examples().keys()].sort()).toEqual(run.sort());
  });

  it('leave no TypeScript or Python code unmarked, so none of it goes untested', () => {
    const unmarked = documents().flatMap((document) =>
      fencedBlocks(readFileSync(document, 'utf8'))
        // A copy (from=<file>) is run where it comes from: test/architecture/readme.test.ts checks it is one.
        .filter((block) => /^(ts|typescript|js|javascript|python|py)\b/.test(block.info) && !/\b(example|from)=/.test(block.info))
        .map((block) => `${document}: ${block.code.split('\n')[0]}`),
    );
    expect(unmarked).toEqual([]);
  });
});

describe.each(engines)('the examples of the documents, run against a running server on %s', (engine) => {
  let app: TestApp;
  let clock: PinnedClock;
  let files: ReturnType<typeof examplesDirectory>;
  let posts = 0;

  beforeAll(async () => {
    // The pinned clock moves only when a test says so: the poller reads what was posted since the last cycle.
    // Its own loop runs one cycle at start and then waits an hour; the tests run the cycles.
    ({ app, clock } = await startMonitorsApp(engine, { worker: true, env: { MONITOR_INTERVAL_SECONDS: '3600' } }));
    const hoursAgo = (hours: number) => clock.seconds() - hours * 3600;
    app.reddit.posts.push(
      { id: 'ky1', subreddit: 'typescript', title: 'Kysely or Prisma in 2026?', selftext: 'Comparing type safety', created_utc: hoursAgo(30) },
      { id: 'qb1', subreddit: 'node', title: 'Writing a query builder by hand', selftext: '', created_utc: hoursAgo(5) },
      { id: 'ky2', subreddit: 'node', title: 'Migrations', selftext: 'We moved our migrations to kysely', created_utc: hoursAgo(2) },
      { id: 'no1', subreddit: 'node', title: 'Streams', selftext: 'Nothing to see', created_utc: hoursAgo(1) },
    );
    files = examplesDirectory();
  });
  afterAll(async () => {
    files?.remove();
    await app?.close();
  });

  /**
   * New posts in the watched subreddits, then a poller cycle that stores their matches. The posts
   * are gone from Reddit afterwards, so the scrapes of other tests find only the posts above.
   */
  async function postAndPoll(titles: string[]) {
    clock.advance(30);
    const written = titles.map((title) => app.reddit.addPost({ subreddit: ++posts % 2 ? 'typescript' : 'node', title, created_utc: clock.seconds() }));
    clock.advance(30);
    await cycle(app);
    for (const post of written) app.reddit.posts.splice(app.reddit.posts.indexOf(post), 1);
    return written.map((post) => `t3_${post.id}`);
  }

  const ids = (output: string) => output.split('\n').filter(Boolean).map((line) => line.split(/\s+/)[0]);

  it('the quickstart of the README, pasted into one shell, makes a key, scrapes, monitors, reads matches with after= and checks a signature', async () => {
    const session = shellSession(files.workdir(`quickstart-${engine}`), { BASE_URL: app.url, ...app.database.env });
    try {
      const step = (name: string) => session.example(name);
      // The CLI prints the account and the new balance too; the last line is the API's answer.
      expect(JSON.parse((await step('quickstart-key.sh')).trim().split('\n').at(-1)!)).toEqual({ balance: 100, owed: 0 });

      const scrape = JSON.parse(await step('quickstart-scrape.sh'));
      expect(scrape).toMatchObject({ status: 'completed', credits: { charged: 2, balance: 98 } });
      expect(scrape.results.map((result: { permalink: string }) => result.permalink)).toEqual([
        expect.stringContaining('/ky2/'),
        expect.stringContaining('/ky1/'),
      ]);

      const monitorId = await step('quickstart-monitor.sh');
      expect(monitorId).toMatch(/^mon_[0-9a-f]{28}\n$/);
      await cycle(app);
      const first = await postAndPoll(['Kysely 1.0 is out', 'Is kysely fast?']);
      const stored = async () => (await storedMatches(app, monitorId.trim())).map((match) => match.id);

      const newestFirst = await step('quickstart-matches.sh');
      expect(ids(newestFirst)).toEqual((await stored()).reverse());
      expect(newestFirst).toContain(first[0]!.slice(3));

      expect(await step('quickstart-last.sh')).toBe('');
      const [later] = await postAndPoll(['kysely plugins']);
      const after = await step('quickstart-after.sh');
      expect(ids(after)).toEqual((await stored()).slice(-1));
      expect(after).toContain(later!.slice(3));

      const secret = newWebhookSecret(randomBytes);
      const body = JSON.stringify({ type: 'monitor.matches', timestamp: new Date().toISOString(), data: { name: "Kysely's mentions" } });
      const timestamp = Math.floor(Date.now() / 1000);
      const delivery = { WEBHOOK_SECRET: secret, WEBHOOK_ID: 'msg_2hQ6X', WEBHOOK_TIMESTAMP: String(timestamp), BODY: body };
      const signed = { ...delivery, WEBHOOK_SIGNATURE: `v1,${'A'.repeat(43)}= ${signWebhook(secret, delivery.WEBHOOK_ID, timestamp, body)}` };
      const exportAll = (vars: Record<string, string>) => session.run(`export ${Object.entries(vars).map(([k, v]) => `${k}=${shellQuote(v)}`).join(' ')}`);
      await exportAll(signed);
      expect(await step('quickstart-verify.sh')).toBe('valid\n');
      await exportAll({ BODY: body.replace('Kysely', 'Prisma') });
      expect(await step('quickstart-verify.sh')).toBe('not signed by subpilot\n');
    } finally {
      session.close();
    }
  }, 120_000);

  it.each(LANGUAGES)('a scrape in %s prints what it found and what it cost', async (language) => {
    const { token } = await app.accountWithKey(10);
    const output = await runExample(files.dir, `scrape.${language}`, { cwd: files.workdir(`scrape-${language}`), env: { BASE_URL: app.url, SUBPILOT_API_KEY: token } });
    const [summary, ...results] = output.trimEnd().split('\n');
    expect(summary).toBe('completed, 4 credits charged');
    expect(results.map((line) => line.split('  ').slice(0, 2))).toEqual([
      ['t3_ky2', 'r/node'],
      ['t3_qb1', 'r/node'],
      ['t3_ky1', 'r/typescript'],
    ]);
  });

  it.each(LANGUAGES)('a scrape in %s sent with Prefer: respond-async is polled at its Location until it has completed', async (language) => {
    const { token } = await app.accountWithKey(10);
    const output = await runExample(files.dir, `scrape-async.${language}`, { cwd: files.workdir(`scrape-async-${language}`), env: { BASE_URL: app.url, SUBPILOT_API_KEY: token } });
    expect(output).toMatch(/^scr_[0-9a-f]+ completed: 2 results\n$/);
  });

  it.each(LANGUAGES)('a monitor created in %s, and its reader, hand over every match once, oldest first, across runs', async (language) => {
    const { token } = await app.accountWithKey(1000);
    const cwd = files.workdir(`monitor-${language}`);
    const env = { BASE_URL: app.url, SUBPILOT_API_KEY: token };
    const created = await runExample(files.dir, `monitor-create.${language}`, { cwd, env });
    expect(created).toMatch(/^mon_[0-9a-f]{28} active\n$/);
    const monitorId = created.split(' ')[0]!;
    const read = async () => ids(await runExample(files.dir, `matches.${language}`, { cwd, env: { ...env, MONITOR_ID: monitorId } }));
    const stored = async () => (await storedMatches(app, monitorId)).map((match) => match.id);

    await cycle(app);
    expect(await read()).toEqual([]);
    // A backlog of more than one page of 100: the first run reads it newest first and hands it over oldest first.
    await postAndPoll(Array.from({ length: 103 }, (_, i) => `kysely question ${i}`));
    const backlog = await stored();
    expect(backlog).toHaveLength(103);
    expect(await read()).toEqual(backlog);
    expect(await read()).toEqual([]);

    await postAndPoll(['a kysely plugin', 'hiring: kysely developer', 'kyselyish tools']);
    const now = await stored();
    expect(now).toHaveLength(104); // the exclude keyword and match: "word" leave out two
    expect(await read()).toEqual(now.slice(103));
  }, 120_000);
});
