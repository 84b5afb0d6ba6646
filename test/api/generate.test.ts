import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';
import { PRICES, startPublishingApp, type PublishingApp } from '../support/publishing.ts';
import { eventually } from '../support/receiver.ts';

const hoursAgo = (h: number) => Math.floor(Date.now() / 1000) - h * 3600;

describe.each(engines)('POST /api/v1/generate on %s', (engine) => {
  let app: PublishingApp;
  beforeAll(async () => {
    app = await startPublishingApp(engine);
    app.reddit.posts.push(
      { id: 'g1', subreddit: 'node', title: 'Which ORM for Postgres?', selftext: 'Prisma feels heavy for us.', created_utc: hoursAgo(2) },
      { id: 'g2', subreddit: 'typescript', title: 'Strict mode pains', selftext: 'Not in any scrape.', created_utc: hoursAgo(3) },
    );
  });
  afterAll(() => app.close());

  const generate = (token: string, body: unknown) => app.api('POST', '/api/v1/generate', { token, body });
  const ledgerMatches = async (accountId: string) =>
    expect(await ledgerSum(app.services.db, accountId)).toBe(await app.services.credits.spendableBalance(accountId));

  it('drafts a reply to a scraped post: the prompt has its title, body and subreddit; charged PRICE_GENERATE', async () => {
    const { token, accountId } = await app.accountWithKey(20);
    const scrape = await app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/node'], keywords: ['orm'] } });
    expect((await scrape.json()).results.map((r: { id: string }) => r.id)).toEqual(['t3_g1']);
    const infoCalls = () => app.reddit.requests.filter((r) => r.path === '/api/info').length;
    const before = infoCalls();

    const response = await generate(token, { type: 'reply', post_id: 't3_g1', instructions: 'Suggest Kysely', tone: 'friendly', max_length: 800 });
    expect(response.status).toBe(200);
    const draft = await response.json();
    expect(draft).toMatchObject({ type: 'reply', status: 'completed', post_id: 't3_g1', subreddit: 'r/node', title: null, model: 'fake-model' });
    expect(draft.id).toMatch(/^gen_[0-9a-f]{28}$/);
    expect(draft.body).toMatch(/^A helpful draft/);
    expect(draft.usage.total_tokens).toBeGreaterThan(0);
    expect(draft.credits).toEqual({ charged: PRICES.generate, balance: 20 - 1 - PRICES.generate });
    expect(infoCalls()).toBe(before); // taken from the stored scrape, Reddit not asked

    const prompt = app.llm.requests.at(-1)!.body.messages.map((m) => m.content).join('\n');
    for (const part of ['Which ORM for Postgres?', 'Prisma feels heavy for us.', 'r/node', 'Suggest Kysely', 'friendly', '800']) {
      expect(prompt).toContain(part);
    }
    await ledgerMatches(accountId);
    const usage = await (await app.api('GET', '/api/v1/usage', { token })).json();
    expect(usage.data[0]).toMatchObject({ type: 'charge', amount: -PRICES.generate, generation_id: draft.id });

    const stored = await app.api('GET', `/api/v1/generations/${draft.id}`, { token });
    expect(await stored.json()).toMatchObject({ id: draft.id, body: draft.body, credits: { charged: PRICES.generate } });
    const other = await app.accountWithKey(0);
    expect((await app.api('GET', `/api/v1/generations/${draft.id}`, { token: other.token })).status).toBe(404);
  });

  it('fetches a post that is not in any scrape from Reddit (GET /api/info)', async () => {
    const { token } = await app.accountWithKey(10);
    const response = await generate(token, { type: 'reply', post_id: 't3_g2', instructions: 'Be kind' });
    expect(response.status).toBe(200);
    expect((await response.json()).subreddit).toBe('r/typescript');
    expect(app.reddit.requests.some((r) => r.path === '/api/info' && r.query.id === 't3_g2')).toBe(true);
    expect(app.llm.requests.at(-1)!.body.messages.at(-1)!.content).toContain('Not in any scrape.');
  });

  it('drafts a post: the first line is the title, the rest the body', async () => {
    const { token } = await app.accountWithKey(10);
    app.llm.reply = () => 'Title: Five Kysely tricks\n\nFirst, use sql`...` sparingly.\nSecond, type your tables.';
    const response = await generate(token, { type: 'post', subreddit: 'r/node', instructions: 'Tips list' });
    app.llm.reply = (request) => `A helpful draft about: ${request.messages.at(-1)?.content.split('\n')[0] ?? ''}`;
    const draft = await response.json();
    expect(draft).toMatchObject({ type: 'post', subreddit: 'r/node', post_id: null, title: 'Five Kysely tricks' });
    expect(draft.body).toBe('First, use sql`...` sparingly.\nSecond, type your tables.');
  });

  it.each([
    ['a post answer of one line (a title, no body)', 'post', 'Five Kysely tricks'],
    ['a post answer whose body is only whitespace', 'post', 'Five Kysely tricks\n\n   \n\t'],
    ['a post answer with a body but no title line', 'post', '\n\n**  **\nThe body alone.'],
    ['a reply answer of only whitespace', 'reply', ' \n\t '],
  ])('%s is a failed generation: 502 generate.empty_draft with generation_id, refunded', async (_name, type, answer) => {
    const { token, accountId } = await app.accountWithKey(10);
    app.llm.reply = () => answer;
    const body = type === 'post' ? { type, subreddit: 'r/node', instructions: 'Tips list' } : { type, post_id: 't3_g1', instructions: 'x' };
    const response = await generate(token, body);
    app.llm.reply = (request) => `A helpful draft about: ${request.messages.at(-1)?.content.split('\n')[0] ?? ''}`;
    expect(response.status).toBe(502);
    const problem = await response.json();
    expect(problem).toMatchObject({ code: 'generate.empty_draft', generation_id: expect.stringMatching(/^gen_/) });
    expect(await app.services.credits.spendableBalance(accountId)).toBe(10);
    await ledgerMatches(accountId);
    const usage = await (await app.api('GET', '/api/v1/usage', { token })).json();
    expect(usage.data[0]).toMatchObject({ type: 'refund', amount: PRICES.generate, generation_id: problem.generation_id });
    const stored = await (await app.api('GET', `/api/v1/generations/${problem.generation_id}`, { token })).json();
    expect(stored).toMatchObject({ status: 'failed', body: null, credits: { charged: 0 } });
  });

  it('an unknown post is a 404 and costs nothing', async () => {
    const { token, accountId } = await app.accountWithKey(10);
    const response = await generate(token, { type: 'reply', post_id: 't3_nosuch', instructions: 'x' });
    expect(response.status).toBe(404);
    expect((await response.json()).code).toBe('generate.post_not_found');
    expect(await app.services.credits.spendableBalance(accountId)).toBe(10);
  });

  it.each([
    ['a reply without reply_to', { type: 'reply', instructions: 'x' }, '/reply_to'],
    ['a post without subreddit', { type: 'post', instructions: 'x' }, '/subreddit'],
    ['instructions over 2,000 characters', { type: 'post', subreddit: 'r/node', instructions: 'x'.repeat(2001) }, '/instructions'],
    ['an unknown field', { type: 'post', subreddit: 'r/node', instructions: 'x', temperature: 2 }, '/temperature'],
  ])('422 for %s, before credits (an account at zero gets 422, not 402)', async (_name, body, path) => {
    const { token } = await app.accountWithKey(0);
    const response = await generate(token, body);
    expect(response.status).toBe(422);
    expect((await response.json()).errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it('a retry with the Idempotency-Key while the model is asked answers 409 generate.in_progress with the id; after the timeout, the first outcome', async () => {
    const { token, accountId } = await app.accountWithKey(20);
    const send = () =>
      app.api('POST', '/api/v1/generate', { token, body: { type: 'post', subreddit: 'r/node', instructions: 'slow one' }, headers: { 'idempotency-key': 'gen-slow' } });
    app.llm.hangNext();
    const asked = app.llm.requests.length;
    const first = send();
    await eventually(() => app.llm.requests.length > asked);
    const during = await send();
    expect(during.status).toBe(409);
    expect(during.headers.get('idempotent-replayed')).toBe('true');
    const inProgress = await during.json();
    expect(inProgress).toMatchObject({ code: 'generate.in_progress' });
    const timedOut = await first;
    expect(timedOut.status).toBe(504);
    const outcome = await timedOut.json();
    expect(outcome.generation_id).toBe(inProgress.generation_id);
    const after = await send();
    expect(after.status).toBe(504);
    expect((await after.json()).generation_id).toBe(outcome.generation_id);
    expect(app.llm.requests.length).toBe(asked + 1);
    expect(await app.services.credits.spendableBalance(accountId)).toBe(20);
    await ledgerMatches(accountId);
  });

  it('402 when the balance is below PRICE_GENERATE; the model is not called', async () => {
    const { token } = await app.accountWithKey(PRICES.generate - 1);
    const calls = app.llm.requests.length;
    const response = await generate(token, { type: 'post', subreddit: 'r/node', instructions: 'x' });
    expect(response.status).toBe(402);
    expect(await response.json()).toMatchObject({ balance: PRICES.generate - 1, required: PRICES.generate });
    expect(app.llm.requests.length).toBe(calls);
  });

  it('a model error is a 502 and a timeout a 504; both refunded, the balance unchanged', async () => {
    const { token, accountId } = await app.accountWithKey(10);
    app.llm.failNext(500);
    const failed = await generate(token, { type: 'post', subreddit: 'r/node', instructions: 'x' });
    expect(failed.status).toBe(502);
    const problem = await failed.json();
    expect(problem).toMatchObject({ code: 'generate.llm_unavailable', generation_id: expect.stringMatching(/^gen_/) });
    expect(failed.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    app.llm.hangNext();
    const timedOut = await generate(token, { type: 'post', subreddit: 'r/node', instructions: 'x' });
    expect(timedOut.status).toBe(504);
    expect(await app.services.credits.spendableBalance(accountId)).toBe(10);
    await ledgerMatches(accountId);
    const stored = await (await app.api('GET', `/api/v1/generations/${problem.generation_id}`, { token })).json();
    expect(stored).toMatchObject({ status: 'failed', credits: { charged: 0 } });
  });
});

describe.each(engines)('POST /api/v1/generate without a language model on %s', (engine) => {
  it('503 "generation is not configured", nothing charged', async () => {
    const app = await startTestApp(engine);
    try {
      const { token, accountId } = await app.accountWithKey(10);
      const response = await app.api('POST', '/api/v1/generate', { token, body: { type: 'post', subreddit: 'r/node', instructions: 'x' } });
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ code: 'generate.not_configured', detail: expect.stringContaining('generation is not configured') });
      expect(await app.services.credits.spendableBalance(accountId)).toBe(10);
    } finally {
      await app.close();
    }
  });
});
