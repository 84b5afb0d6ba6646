import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';

describe.each(engines)('the cost on the answer on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine);
    app.reddit.addPost({ subreddit: 'costs', title: 'A question about pricing' });
  });
  afterAll(() => app.close());

  const scrape = (token: string, key?: string) =>
    app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/costs'], keywords: ['pricing', 'question'] }, headers: key ? { 'idempotency-key': key } : {} });

  it('a scrape that paid says what it charged and the balance after in headers, as its body does', async () => {
    const { accountId, token } = await app.accountWithKey(10);
    const answer = await scrape(token);
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { credits: { charged: number; balance: number } };
    expect(body.credits).toEqual({ charged: 2, balance: 8 });
    expect(answer.headers.get('credits-charged')).toBe('2');
    expect(answer.headers.get('credits-balance')).toBe('8');
    expect(await ledgerSum(app.services.db, accountId)).toBe(8);
  });

  it('a replay of an Idempotency-Key repeats the first answer\'s cost and charges nothing', async () => {
    const { accountId, token } = await app.accountWithKey(10);
    const first = await scrape(token, 'cost-replay-1');
    const again = await scrape(token, 'cost-replay-1');
    for (const answer of [first, again]) {
      expect(answer.headers.get('credits-charged')).toBe('2');
      expect(answer.headers.get('credits-balance')).toBe('8');
    }
    expect(await ledgerSum(app.services.db, accountId)).toBe(8);
  });

  it('a 402 says what the call would have cost and the balance that refused it', async () => {
    const { token } = await app.accountWithKey(1);
    const refused = await scrape(token);
    expect(refused.status).toBe(402);
    expect(refused.headers.get('credits-required')).toBe('2');
    expect(refused.headers.get('credits-balance')).toBe('1');
    expect(await refused.json()).toMatchObject({ code: 'credits.insufficient', required: 2, balance: 1 });
  });

  it('the API document declares the cost headers where the body states the balance after, and credits-required on 402s', async () => {
    type Doc = { paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>> };
    const doc = (await (await fetch(`${app.url}/openapi.json`)).json()) as Doc;
    const headersOf = (path: string, method: string, status: string) => Object.keys(doc.paths[path]![method]!.responses[status]!.headers ?? {});
    expect(headersOf('/api/v1/scrape', 'post', '200')).toEqual(expect.arrayContaining(['credits-charged', 'credits-balance']));
    expect(headersOf('/api/v1/scrape', 'post', '402')).toEqual(expect.arrayContaining(['credits-required', 'credits-balance']));
    expect(headersOf('/api/v1/generate', 'post', '402')).toContain('credits-required');
    expect(headersOf('/api/v1/balance', 'get', '200')).not.toContain('credits-charged');
  });

  it('an answer that charged nothing and states no balance carries no cost headers', async () => {
    const { token } = await app.accountWithKey(10);
    const balance = await app.api('GET', '/api/v1/balance', { token });
    expect(balance.headers.get('credits-charged')).toBeNull();
  });
});
