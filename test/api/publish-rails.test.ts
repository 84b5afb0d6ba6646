import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';
import { PRICES, startPublishingApp, type ConnectedAccount, type PublishingApp } from '../support/publishing.ts';

const MINUTE = 60_000;

/**
 * The rails of docs/api/rails.md at their default figures (1 publication per subreddit per 10 minutes,
 * 5 an hour, one reply per thread, no same text within 24 hours), with a clock the tests move. A
 * refusal by a rail records nothing, holds nothing, writes no ledger row and sends nothing to Reddit.
 */
describe.each(engines)('the publishing rails on %s', (engine) => {
  let app: PublishingApp;
  let nowMs = Date.parse('2026-11-02T10:00:00.000Z');
  const accounts: ConnectedAccount[] = [];
  beforeAll(async () => {
    app = await startPublishingApp(engine, { overrides: () => ({ clock: () => new Date(nowMs) }) });
    app.reddit.user.now = () => Math.floor(nowMs / 1000);
    app.reddit.posts.push({ id: 'rl1', subreddit: 'node', title: 'Which query builder?', selftext: 'We use raw SQL.', created_utc: Math.floor(nowMs / 1000) });
    for (const name of ['node', 'deno', 'bun', 'typescript']) app.reddit.subreddits.set(name, 'public');
  });
  afterAll(() => app.close());
  // Every move is written down, and nothing is left held: the ledger sums to what each account can spend.
  afterEach(async () => {
    for (const account of accounts.splice(0)) expect(await ledgerSum(app.services.db, account.accountId)).toBe(await account.balance());
  });

  const later = (minutes: number) => (nowMs += minutes * MINUTE);
  const account = async (balance = 100) => {
    const made = await app.connectedAccount(balance);
    accounts.push(made);
    return made;
  };
  const publish = (who: ConnectedAccount, body: unknown) => app.api('POST', '/api/v1/publish', { token: who.token, body });
  const published = async (who: ConnectedAccount, body: unknown) => {
    const response = await publish(who, body);
    expect(response.status).toBe(200);
    return response.json();
  };
  let n = 0;
  const text = () => `Rail-tested words, number ${++n}.`;
  const comment = (parent: string, body = text()) => ({ type: 'comment', parent, body });
  const post = (subreddit: string, body = text()) => ({ type: 'post', subreddit, title: `Title ${n}`, body });

  const ledgerOf = (who: ConnectedAccount) =>
    app.services.db.selectFrom('credit_ledger').select(['kind', 'amount', 'publication_id']).where('account_id', '=', who.accountId).orderBy('id').execute();
  /** Everything a refusal must leave as it was: the account's publications, ledger and balance, and what Reddit received. */
  const traces = async (who: ConnectedAccount) => ({
    publications: (await app.services.db.selectFrom('publications').select('id').where('account_id', '=', who.accountId).execute()).length,
    ledger: await ledgerOf(who),
    balance: await who.balance(),
    onReddit: app.reddit.user.comments.length + app.reddit.user.submissions.length,
  });
  /** The answer is the rail's problem, and nothing changed anywhere. */
  async function refusedByRail(who: ConnectedAccount, body: unknown, status: number, code: string) {
    const before = await traces(who);
    const response = await publish(who, body);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = await response.json();
    expect(problem).toMatchObject({ code, status, publication_id: expect.stringMatching(/^pub_/) });
    expect(problem.detail).toMatch(/Nothing was recorded or charged\.$/);
    expect(await traces(who)).toEqual(before);
    return { problem, retryAfter: response.headers.get('retry-after') };
  }

  it('a second reply in a thread is refused with 409 publish.second_reply naming the first, and allow_second_reply: true lets it in', async () => {
    const alice = await account();
    const first = await published(alice, comment('t3_th1'));
    const { problem } = await refusedByRail(alice, comment('t3_th1'), 409, 'publish.second_reply');
    expect(problem.publication_id).toBe(first.id);
    expect(problem.detail).toMatch(/already replied in the thread of t3_th1 .*Send allow_second_reply: true/);
    expect((await publish(alice, { ...comment('t3_th1'), allow_second_reply: true })).status).toBe(200);
    expect((await publish(alice, comment('t3_th2'))).status).toBe(200); // another thread was never closed
  });

  it('a reply draft counts in its post\'s thread and subreddit, as the comment and the post that follow it find', async () => {
    const bob = await account();
    const draft = await (await app.api('POST', '/api/v1/generate', { token: bob.token, body: { type: 'reply', post_id: 't3_rl1', instructions: 'Suggest Kysely' } })).json();
    const out = await published(bob, { generation_id: draft.id });
    expect((await refusedByRail(bob, comment('t3_rl1'), 409, 'publish.second_reply')).problem.publication_id).toBe(out.id);
    expect((await refusedByRail(bob, post('r/node'), 429, 'publish.subreddit_pace')).problem.publication_id).toBe(out.id);
  });

  it('a comment under a post the account\'s scrape found is in that post\'s subreddit, so the subreddit\'s pace applies to it', async () => {
    const hana = await account();
    const scrape = await (await app.api('POST', '/api/v1/scrape', { token: hana.token, body: { subreddits: ['r/node'], keywords: ['query builder'] } })).json();
    expect(scrape.results.map((r: { id: string }) => r.id)).toContain('t3_rl1');
    const out = await published(hana, post('r/node'));
    expect((await refusedByRail(hana, comment('t3_rl1'), 429, 'publish.subreddit_pace')).problem.publication_id).toBe(out.id);
    expect((await publish(hana, comment('t3_elsewhere'))).status).toBe(200); // a post it holds nothing of: no known subreddit
  });

  it('a reply Reddit refused does not count: the thread stays open, and the refusal left no ledger row', async () => {
    const carol = await account(50);
    app.reddit.user.rejectNext('THREAD_LOCKED', 'that thread is locked', 'parent');
    const refused = await publish(carol, comment('t3_th3'));
    expect(refused.status).toBe(422);
    const { publication_id } = await refused.json();
    expect(await carol.balance()).toBe(50);
    expect(await ledgerOf(carol)).toEqual([{ kind: 'grant', amount: 50, publication_id: null }]);

    const out = await published(carol, comment('t3_th3'));
    expect(out.id).not.toBe(publication_id);
    expect(await ledgerOf(carol)).toEqual([
      { kind: 'grant', amount: 50, publication_id: null },
      { kind: 'charge', amount: -PRICES.publish, publication_id: out.id },
    ]);
    expect(await carol.balance()).toBe(50 - PRICES.publish);
  });

  it('one publication per subreddit per 10 minutes: 429 publish.subreddit_pace with retry_at and Retry-After, any other subreddit meanwhile', async () => {
    const dave = await account();
    const first = await published(dave, post('r/node'));
    later(4);
    const { problem, retryAfter } = await refusedByRail(dave, post('r/Node'), 429, 'publish.subreddit_pace');
    expect(problem).toMatchObject({ publication_id: first.id, retry_at: new Date(Date.parse(first.created_at) + 10 * MINUTE).toISOString() });
    expect(retryAfter).toBe(String(6 * 60));
    expect(problem.detail).toMatch(/published in r\/Node once within the last 10 minutes.* Try again after \S+Z\./);
    expect((await publish(dave, post('r/deno'))).status).toBe(200);

    nowMs = Date.parse(problem.retry_at) - 1000;
    expect((await refusedByRail(dave, post('r/node'), 429, 'publish.subreddit_pace')).retryAfter).toBe('1');
    nowMs = Date.parse(problem.retry_at);
    expect((await publish(dave, post('r/node'))).status).toBe(200);
  });

  it('five publications in any 60 minutes: the sixth gets 429 publish.hourly_pace until the oldest is an hour old', async () => {
    const erin = await account();
    const out = [];
    for (let i = 0; i < 5; i++) {
      out.push(await published(erin, comment(`t3_hr${i}`)));
      later(2);
    }
    const { problem, retryAfter } = await refusedByRail(erin, comment('t3_hr5'), 429, 'publish.hourly_pace');
    expect(problem).toMatchObject({ publication_id: out[0].id, retry_at: new Date(Date.parse(out[0].created_at) + 60 * MINUTE).toISOString() });
    expect(retryAfter).toBe(String(50 * 60));
    expect(problem.detail).toMatch(/published 5 times within the last 60 minutes/);
    nowMs = Date.parse(problem.retry_at);
    expect((await publish(erin, comment('t3_hr5'))).status).toBe(200);
    // The next one waits for the second oldest, two minutes younger.
    expect((await refusedByRail(erin, comment('t3_hr6'), 429, 'publish.hourly_pace')).problem.publication_id).toBe(out[1].id);
  });

  it('the same text anywhere within 24 hours is 409 publish.duplicate, whitespace aside; allow_duplicate lifts it, and a day later it passes', async () => {
    const frank = await account();
    const words = 'Kysely keeps the SQL you wrote.';
    const first = await published(frank, comment('t3_dp1', words));
    later(23 * 60);
    const { problem } = await refusedByRail(frank, post('r/bun', ` Kysely  keeps the SQL\nyou wrote. `), 409, 'publish.duplicate');
    expect(problem.publication_id).toBe(first.id);
    expect(problem.detail).toMatch(/same text less than 24 hours ago.*Send allow_duplicate: true/);
    expect((await publish(frank, { ...post('r/bun', words), allow_duplicate: true })).status).toBe(200);
    later(61);
    expect((await publish(frank, comment('t3_dp3', words))).status).toBe(409); // the allowed copy is a day younger
    later(24 * 60);
    expect((await publish(frank, comment('t3_dp3', words))).status).toBe(200);
  });

  it('the same text is the same however it is spelled: letter case, composed or decomposed accents, zero-width and format characters, full-width and look-alike letters', async () => {
    const gina = await account();
    const words = 'Café owners: Kysely keeps the SQL you wrote.';
    const first = await published(gina, comment('t3_dv1', words));
    const disguises = [
      words.toUpperCase(), // letter case
      words.normalize('NFD'), // é as e + a combining accent
      words.replace('Kysely', 'Ky\u200bse\u200dly').replace('SQL', 'S\u00adQL'), // zero-width space and joiner, soft hyphen
      words.replace('SQL', '\uff33\uff31\uff2c'), // full-width letters
      words.replace('Kysely', '\u041a\u0443s\u0435ly').replace('owners', '\u043ewners'), // Cyrillic К, у, е, о
    ];
    for (const [i, text] of disguises.entries()) {
      const { problem } = await refusedByRail(gina, comment(`t3_dv${i + 2}`, text), 409, 'publish.duplicate');
      expect(problem.publication_id, JSON.stringify(text)).toBe(first.id);
    }
    expect((await publish(gina, comment('t3_dv9', 'Kysely keeps the SQL you did not write.'))).status).toBe(200);
  });

  it('a rail answers before the credits are looked at: an account that could not pay is told the rail, and 402 where no rail refuses', async () => {
    const grace = await account(PRICES.publish);
    await published(grace, comment('t3_cr1'));
    await refusedByRail(grace, comment('t3_cr1'), 409, 'publish.second_reply');
    const broke = await publish(grace, comment('t3_cr2'));
    expect(broke.status).toBe(402);
    expect(await grace.balance()).toBe(0);
  });
});

describe.each(engines)('rails the operator turned off (0) on %s', (engine) => {
  let app: PublishingApp;
  beforeAll(async () => {
    app = await startPublishingApp(engine, {
      worker: false,
      env: { PUBLISH_PACE_PER_SUBREDDIT: '0', PUBLISH_PACE_PER_HOUR: '0', PUBLISH_DUPLICATE_HOURS: '0' },
    });
    app.reddit.subreddits.set('node', 'public');
  });
  afterAll(() => app.close());

  it('let the same text into one subreddit as often as asked; one reply per thread still holds', async () => {
    const account = await app.connectedAccount(100);
    const publish = (body: unknown) => app.api('POST', '/api/v1/publish', { token: account.token, body });
    for (let i = 0; i < 6; i++) expect((await publish({ type: 'post', subreddit: 'r/node', title: `Again ${i}`, body: 'The same words.' })).status).toBe(200);
    expect((await publish({ type: 'comment', parent: 't3_off1', body: 'The same words.' })).status).toBe(200);
    expect((await (await publish({ type: 'comment', parent: 't3_off1', body: 'Other words.' })).json()).code).toBe('publish.second_reply');
    expect(await account.balance()).toBe(100 - 7 * PRICES.publish);
    expect(await ledgerSum(app.services.db, account.accountId)).toBe(await account.balance());
  });
});

describe.each(engines)('replies per thread set by the operator on %s', (engine) => {
  let app: PublishingApp;
  beforeAll(async () => {
    app = await startPublishingApp(engine, { worker: false, env: { PUBLISH_REPLIES_PER_THREAD: '2', PUBLISH_PACE_PER_SUBREDDIT: '0' } });
  });
  afterAll(() => app.close());

  it('PUBLISH_REPLIES_PER_THREAD=2 lets a second reply into a thread without asking, and refuses the third', async () => {
    const account = await app.connectedAccount(100);
    const comment = (body: string) => app.api('POST', '/api/v1/publish', { token: account.token, body: { type: 'comment', parent: 't3_two1', body } });
    expect((await comment('First.')).status).toBe(200);
    expect((await comment('Second.')).status).toBe(200);
    const third = await comment('Third.');
    expect(third.status).toBe(409);
    expect((await third.json()).code).toBe('publish.second_reply');
    expect(await account.balance()).toBe(100 - 2 * PRICES.publish);
    expect(await ledgerSum(app.services.db, account.accountId)).toBe(await account.balance());
  });
});
