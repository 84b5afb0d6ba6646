/** An app with a fake language model and Reddit connections configured, and a connected account. */
import { expect } from 'vitest';
import { createLlmClient } from '../../src/integrations/llm/llm.client.ts';
import { createRedditUserClient, type RedditUserClient } from '../../src/integrations/reddit/reddit.user.ts';
import type { Overrides } from '../../src/app/container.ts';
import { startTestApp, type TestApp } from './app.ts';
import { DashboardClient, uniqueEmail } from './dashboard-client.ts';
import type { Engine } from './engines.ts';
import { startFakeLlm, type FakeLlm } from './fake-llm.ts';

export const SECRET_KEY_HEX = 'a'.repeat(16) + '0123456789abcdef'.repeat(3);
export const REDIRECT_URI = 'http://127.0.0.1:9/dashboard/connections/reddit/callback';
export const PRICES = { generate: 5, publish: 10 };

export interface PublishingApp extends TestApp {
  llm: FakeLlm;
  /** An account with credits, an API key and (unless `connect: false`) a connected Reddit user. */
  connectedAccount(balance: number, options?: { username?: string; connect?: boolean }): Promise<ConnectedAccount>;
}

export interface ConnectedAccount {
  accountId: string;
  token: string;
  username: string;
  dashboard: DashboardClient;
  balance(): Promise<number>;
}

export async function startPublishingApp(
  engine: Engine,
  options: { env?: Record<string, string>; overrides?: (llm: FakeLlm) => Overrides; worker?: boolean } = {},
): Promise<PublishingApp> {
  const llm = await startFakeLlm();
  const app = await startTestApp(engine, {
    worker: options.worker,
    env: { SECRET_KEY: SECRET_KEY_HEX, REDDIT_REDIRECT_URI: REDIRECT_URI, ...options.env },
    overrides: {
      // The real client against the fake model; no retries, a short timeout, so failure tests are quick.
      llm: createLlmClient({ baseUrl: llm.url, apiKey: llm.apiKey, model: 'fake-model', timeoutMs: 1000, maxRetries: 0 }),
      ...options.overrides?.(llm),
    },
  });
  let counter = 0;
  const closeApp = app.close.bind(app);
  return Object.assign(app, {
    llm,
    async close() {
      await closeApp();
      await llm.close();
    },
    async connectedAccount(balance: number, { username = `redditor${++counter}`, connect = true } = {}) {
      const email = uniqueEmail('pub');
      const password = 'correct horse battery';
      const account = await app.services.accounts.createAccount(email, password);
      if (balance > 0) await app.services.credits.grant(account.id, balance, 'test');
      const { token } = await app.services.keys.createKey(account.id, 'publisher');
      const dashboard = new DashboardClient(app.url);
      expect((await dashboard.logIn(email, password)).status).toBe(303);
      if (connect) await connectThroughDashboard(app, dashboard, username);
      return { accountId: account.id, token, username, dashboard, balance: () => app.services.credits.spendableBalance(account.id) };
    },
  });
}

/** Walks Reddit's authorization-code flow over HTTP; the fake's approve() stands in for the person. */
export async function connectThroughDashboard(app: TestApp, dashboard: DashboardClient, username: string) {
  const start = await dashboard.submit('/dashboard/connections', '/dashboard/connections/reddit', {});
  expect(start.status).toBe(303);
  const authorize = new URL(start.location!);
  expect(`${authorize.origin}${authorize.pathname}`).toBe(`${app.reddit.url}/api/v1/authorize`);
  const state = authorize.searchParams.get('state')!;
  const code = app.reddit.user.approve(username, authorize.searchParams.get('redirect_uri')!);
  const callback = await dashboard.get(`/dashboard/connections/reddit/callback?state=${encodeURIComponent(state)}&code=${code}`);
  expect(callback.status).toBe(303);
  expect(callback.location).toBe('/dashboard/connections?connected=1');
  return authorize;
}

/**
 * The real user-context Reddit client against the app's fake Reddit, with a short timeout so "Reddit did
 * not answer" is quick to test: below the suites' 1 s delay, and above a loaded machine's pauses (300 ms
 * timed out a connection now and then while the tiers ran side by side). The fake's address is known
 * only once the app started, so the client is built on its first call; `appOf` gives the app by then.
 */
export function lateRedditUserClient(appOf: () => TestApp, timeoutMs = 800): RedditUserClient {
  let client: RedditUserClient | undefined;
  const make = () => {
    const { reddit } = appOf();
    return (client ??= createRedditUserClient({
      clientId: reddit.clientId,
      clientSecret: reddit.clientSecret,
      userAgent: 'subpilot-test',
      apiUrl: reddit.url,
      authUrl: reddit.url,
      redirectUri: REDIRECT_URI,
      timeoutMs,
    }));
  };
  return new Proxy({}, { get: (_target, name) => (...args: unknown[]) => (make() as any)[name](...args) }) as RedditUserClient;
}
