import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';
import { eventually } from '../support/receiver.ts';

describe.each(engines)('Idempotency-Key on billable POSTs on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine);
    app.reddit.posts.push({ id: 'i1', subreddit: 'node', title: 'idempotent', created_utc: Math.floor(Date.now() / 1000) });
  });
  afterAll(() => app.close());

  const scrape = (token: string, key: string, body: unknown) =>
    app.api('POST', '/api/v1/scrape', { token, body, headers: { 'idempotency-key': key } });

  it('50 concurrent identical requests with one key: one scrape, one charge, one answer (409 for a twin that lost the race, 202 while it runs)', async () => {
    const { token, accountId } = await app.accountWithKey(10);
    const body = { subreddits: ['r/node'], keywords: ['idempotent'] };
    const first = await Promise.all(Array.from({ length: 50 }, () => scrape(token, 'order-42', body)));
    const answers: string[] = [];
    const ids = new Set<string>();
    // The scrape finishes within seconds; past 10 s of retries something is stuck.
    const maxRetries = 100;
    for (let response of first) {
      for (let retries = 0; response.status === 409 || response.status === 202; retries++) {
        if (retries === maxRetries) throw new Error(`still ${response.status} after ${maxRetries} retries 100 ms apart`);
        const answer = await response.json();
        if (response.status === 409) expect(answer.code).toBe('idempotency.in_progress');
        else ids.add(answer.id);
        await new Promise((resolve) => setTimeout(resolve, 100));
        response = await scrape(token, 'order-42', body);
      }
      expect(response.status).toBe(200);
      const text = await response.text();
      ids.add(JSON.parse(text).id);
      answers.push(text);
    }
    expect(ids.size).toBe(1);
    expect(await app.database.db.selectFrom('scrapes').select('id').where('account_id', '=', accountId).execute()).toHaveLength(1);
    expect(new Set(answers).size).toBe(1);
    expect(await app.services.credits.spendableBalance(accountId)).toBe(9);
    expect(await ledgerSum(app.services.db, accountId)).toBe(9);
    const replay = await scrape(token, 'order-42', body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.text()).toBe(answers[0]);
  });

  it('a retry while the first request still waits for its scrape answers 202 with the same id and Location; after it, the 200', async () => {
    const { token, accountId } = await app.accountWithKey(10);
    const body = { subreddits: ['r/node'], keywords: ['waiting'] };
    app.reddit.delayMs = 1500;
    try {
      const first = scrape(token, 'wait-1', body);
      await eventually(async () => (await app.database.db.selectFrom('scrapes').select('id').where('account_id', '=', accountId).execute()).length === 1);
      const during = await scrape(token, 'wait-1', body);
      expect(during.status).toBe(202);
      expect(during.headers.get('idempotent-replayed')).toBe('true');
      const accepted = await during.json();
      expect(during.headers.get('location')).toBe(`/api/v1/scrapes/${accepted.id}`);
      const done = await first;
      expect(done.status).toBe(200);
      expect((await done.json()).id).toBe(accepted.id);
    } finally {
      app.reddit.delayMs = 0;
    }
    const after = await scrape(token, 'wait-1', body);
    expect(after.status).toBe(200);
    expect((await after.json()).id).toBeDefined();
    expect(await app.database.db.selectFrom('scrapes').select('id').where('account_id', '=', accountId).execute()).toHaveLength(1);
    expect(await ledgerSum(app.services.db, accountId)).toBe(await app.services.credits.spendableBalance(accountId));
  });

  it('the same key with a different body is a 422 and charges nothing', async () => {
    const { token, accountId } = await app.accountWithKey(10);
    expect((await scrape(token, 'k-1', { subreddits: ['r/node'], keywords: ['a'] })).status).toBe(200);
    const reused = await scrape(token, 'k-1', { subreddits: ['r/node'], keywords: ['b'] });
    expect(reused.status).toBe(422);
    expect((await reused.json()).code).toBe('idempotency.key_reused');
    expect(await app.services.credits.spendableBalance(accountId)).toBe(9);
  });

  it('keys are scoped to the account: another account may use the same key', async () => {
    const a = await app.accountWithKey(5);
    const b = await app.accountWithKey(5);
    const body = { subreddits: ['r/node'], keywords: ['idempotent'] };
    const first = await (await scrape(a.token, 'shared', body)).json();
    const second = await (await scrape(b.token, 'shared', body)).json();
    expect(second.id).not.toBe(first.id);
    expect(await app.services.credits.spendableBalance(b.accountId)).toBe(4);
  });

  it('a request that fails validation keeps no key', async () => {
    const { token } = await app.accountWithKey(5);
    expect((await scrape(token, 'fix-me', { subreddits: ['not a subreddit!'], keywords: ['a'] })).status).toBe(422);
    expect((await scrape(token, 'fix-me', { subreddits: ['r/node'], keywords: ['a'] })).status).toBe(200);
  });
});

describe.each(engines)('per-key rate limits on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    // A pinned clock: on the real one, calls that straddle a minute boundary start a fresh window.
    const clock = () => new Date('2026-03-01T12:00:30Z');
    app = await startTestApp(engine, { env: { RATE_LIMIT_PER_MINUTE: '5' }, overrides: { clock } });
  });
  afterAll(() => app.close());

  it('every response carries RateLimit-Policy and RateLimit; past the limit a 429 with Retry-After', async () => {
    const { token } = await app.accountWithKey(5);
    for (let i = 0; i < 5; i++) {
      const response = await app.api('GET', '/api/v1/balance', { token });
      expect(response.status).toBe(200);
      // The per-account policy defaults to five times the per-key one.
      expect(response.headers.get('ratelimit-policy')).toBe('"per-key";q=5;w=60, "per-account";q=25;w=60');
      expect(response.headers.get('ratelimit')).toMatch(new RegExp(`^"per-key";r=${4 - i};t=\\d+, "per-account";r=\\d+;t=\\d+$`));
    }
    const throttled = await app.api('GET', '/api/v1/balance', { token });
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(throttled.headers.get('ratelimit')).toMatch(/r=0/);
    expect((await throttled.json()).code).toBe('rate_limit.exceeded');
  });

  it('a throttled scrape costs nothing, is checked after the key and before the body, and other keys are not affected', async () => {
    const { token, accountId } = await app.accountWithKey(5);
    for (let i = 0; i < 5; i++) await app.api('GET', '/api/v1/balance', { token });
    const throttled = await app.api('POST', '/api/v1/scrape', { token, body: '{broken json' });
    expect(throttled.status).toBe(429);
    expect(await app.services.credits.spendableBalance(accountId)).toBe(5);
    expect((await app.api('GET', '/api/v1/balance', { token: `ak_live_${'1'.repeat(64)}` })).status).toBe(401);
    const other = await app.accountWithKey(1);
    expect((await app.api('GET', '/api/v1/balance', { token: other.token })).status).toBe(200);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
(redisUrl ? describe : describe.skip)('rate-limit counters in Redis (REDIS_URL)', () => {
  it('two instances sharing one Redis count one key together', async () => {
    const env = { RATE_LIMIT_PER_MINUTE: '4', REDIS_URL: redisUrl! };
    const first = await startTestApp('sqlite', { env });
    try {
      const { token } = await first.accountWithKey(1);
      const [key] = await first.services.keys.listKeys((await first.services.keys.authenticate([`Bearer ${token}`], '/')).accountId);
      const second = await startTestApp('sqlite', { env });
      try {
        // The second instance has its own database; only the Redis counter for this key id is shared.
        const statuses: number[] = [];
        for (let i = 0; i < 4; i++) statuses.push((await first.api('GET', '/api/v1/balance', { token })).status);
        expect(statuses).toEqual([200, 200, 200, 200]);
        const state = await second.services.rateLimit.check(key!.id);
        expect(state.exceeded).toEqual({ policy: 'per-key', limit: 4 });
        expect((await first.api('GET', '/api/v1/balance', { token })).status).toBe(429);
      } finally {
        await second.close();
      }
    } finally {
      await first.close();
    }
  });
});
