import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';

describe.each(engines)('a scrape on a server without Reddit credentials on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine, { redditConfigured: false });
  });
  afterAll(() => app.close());

  it('answers 503 with a detail that names the variables, says the Reddit app must be approved, and promises no anonymous mode', async () => {
    const { token, accountId } = await app.accountWithKey(5);
    const response = await app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/node'], keywords: ['x'] } });
    expect(response.status).toBe(503);
    const { code, detail } = (await response.json()) as { code: string; detail: string };
    expect(code).toBe('scrape.not_configured');
    expect(detail).toContain('REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET');
    expect(detail).toMatch(/Reddit app approved for API access/);
    expect(detail).toMatch(/no anonymous access/);
    expect(detail).toContain('"web app"');
    expect(detail).toContain('PUBLIC_URL/dashboard/connections/reddit/callback');
    expect(await app.services.credits.spendableBalance(accountId)).toBe(5);
  });
});
