import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';
import { startSubpilot } from '../support/processes.ts';
import { startPublishingApp, type PublishingApp } from '../support/publishing.ts';

describe.each(engines)('scrape against a Reddit that blocks the app on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine);
    app.reddit.posts.push({ id: 'ts1', subreddit: 'typescript', title: 'saas', created_utc: 1_700_000_000 });
  });
  afterAll(() => app.close());

  const expectBlocked = async (mode: 'html' | 401 | 403) => {
    const { token, accountId } = await app.accountWithKey(5);
    app.reddit.blockApp(mode);
    try {
      const response = await app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/typescript'], keywords: ['saas'] } });
      expect(response.status).toBe(503);
      const problem = await response.json();
      expect(problem.code).toBe('scrape.reddit_blocked');
      expect(problem.detail).toMatch(/REDDIT_CLIENT_ID/);
      expect(problem.detail).toMatch(/User-Agent/);
      expect(problem.detail).not.toMatch(/private/i);
      expect(JSON.stringify(problem)).not.toContain(app.reddit.clientSecret);
      expect(await app.services.credits.spendableBalance(accountId)).toBe(5);
      expect(await ledgerSum(app.services.db, accountId)).toBe(5);
      const stored = await (await app.api('GET', `/api/v1/scrapes/${problem.scrape_id}`, { token })).json();
      expect(stored).toMatchObject({ status: 'failed', credits: { charged: 0 }, unavailable: [] });
    } finally {
      app.reddit.blockApp(null);
    }
  };

  it('fails with scrape.reddit_blocked and charges nothing when every call answers the HTML block page', () => expectBlocked('html'));
  it('fails with scrape.reddit_blocked when the token endpoint answers 401', () => expectBlocked(401));
  it('fails with scrape.reddit_blocked when the token endpoint answers 403', () => expectBlocked(403));
});

describe.each(engines)('a scrape run by another process against a Reddit that blocks the app on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine, { worker: false });
  });
  afterAll(() => app.close());

  it('still answers scrape.reddit_blocked, told by the stored error', async () => {
    const { token, accountId } = await app.accountWithKey(5);
    app.reddit.blockApp('html');
    const { child } = await startSubpilot(['worker'], {
      ...app.database.env,
      REDDIT_CLIENT_ID: app.reddit.clientId,
      REDDIT_CLIENT_SECRET: app.reddit.clientSecret,
      REDDIT_API_URL: app.reddit.url,
      REDDIT_AUTH_URL: app.reddit.url,
    });
    try {
      const response = await app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/typescript'], keywords: ['saas'] } });
      expect(response.status).toBe(503);
      expect((await response.json()).code).toBe('scrape.reddit_blocked');
      expect(await ledgerSum(app.services.db, accountId)).toBe(5);
    } finally {
      child.kill('SIGKILL');
      app.reddit.blockApp(null);
    }
  });
});

describe.each(engines)('generate against a Reddit that blocks the app on %s', (engine) => {
  let app: PublishingApp;
  beforeAll(async () => {
    app = await startPublishingApp(engine);
    app.reddit.posts.push({ id: 'p1', subreddit: 'node', title: 'A post', created_utc: 1_700_000_000 });
  });
  afterAll(() => app.close());

  it('fails with generate.reddit_blocked, not "post not found", and charges nothing when Reddit blocks the app', async () => {
    const { token, accountId } = await app.accountWithKey(20);
    app.reddit.blockApp('html');
    try {
      const response = await app.api('POST', '/api/v1/generate', { token, body: { type: 'reply', post_id: 't3_p1', instructions: 'Reply' } });
      expect(response.status).toBe(503);
      const problem = await response.json();
      expect(problem.code).toBe('generate.reddit_blocked');
      expect(problem.detail).toMatch(/REDDIT_CLIENT_ID/);
      expect(await app.services.credits.spendableBalance(accountId)).toBe(20);
      expect(await ledgerSum(app.services.db, accountId)).toBe(20);
    } finally {
      app.reddit.blockApp(null);
    }
  });
});
