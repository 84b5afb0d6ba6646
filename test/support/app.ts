import { createServer, type AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/shared/config/config.ts';
import { createServices, type Overrides, type Services } from '../../src/app/container.ts';
import { buildServer } from '../../src/app/server.ts';
import { openTestDatabase, type Engine, type TestDatabase } from './engines.ts';
import { startFakeReddit, type FakeReddit } from './fake-reddit.ts';
import { cheapPasswords } from './passwords.ts';

export interface TestApp {
  url: string;
  services: Services;
  server: FastifyInstance;
  reddit: FakeReddit;
  database: TestDatabase;
  /** An account with `balance` credits and one active key; returns its token. */
  accountWithKey(balance: number, email?: string): Promise<{ accountId: string; token: string; email: string }>;
  api(method: string, path: string, options?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<Response>;
  close(): Promise<void>;
}

let counter = 0;

/** A port free on 127.0.0.1 now: the OS picks it, then it is let go for the app to take. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * The real server on an ephemeral port, a fresh database, and a fake Reddit on 127.0.0.1.
 * `publicUrl: 'self'` sets PUBLIC_URL to the server's own address, for flows that send a browser
 * away and back to it (Stripe Checkout's success URL): the port is chosen before the config is read.
 */
export async function startTestApp(
  engine: Engine,
  options: { env?: Record<string, string>; overrides?: Overrides; redditConfigured?: boolean; worker?: boolean; publicUrl?: 'self' } = {},
): Promise<TestApp> {
  const database = await openTestDatabase(engine, { migrated: true });
  const reddit = await startFakeReddit();
  const configured = options.redditConfigured ?? true;
  const port = options.publicUrl === 'self' ? await freePort() : 0;
  const config = loadConfig({
    ...database.env,
    PORT: '0',
    LOG_LEVEL: 'silent',
    // Suites that test the limit set their own; the others fire hundreds of calls from one key.
    RATE_LIMIT_PER_MINUTE: '1000000',
    // Likewise for failed keys: every suite's clients share the address 127.0.0.1.
    AUTH_FAILURES_PER_MINUTE: '1000000',
    // And for the shared Reddit budget: only its own suite (test/scale/reddit-budget.test.ts) runs short of it.
    REDDIT_REQUESTS_PER_MINUTE: '100000',
    REDDIT_API_URL: reddit.url,
    REDDIT_AUTH_URL: reddit.url,
    // Without credentials the source would be the demo's; these suites test Reddit switched off.
    ...(configured ? { REDDIT_CLIENT_ID: reddit.clientId, REDDIT_CLIENT_SECRET: reddit.clientSecret } : { REDDIT_SOURCE: 'reddit' }),
    ...options.env,
    ...(options.publicUrl === 'self' ? { PUBLIC_URL: `http://127.0.0.1:${port}` } : {}),
  });
  // The real client (built by the container, with the shared budget) against the fake server; only its back-off sleeps are shortened.
  const services = await createServices(config, {
    db: database.db,
    passwords: cheapPasswords,
    redditOptions: { sleep: () => Promise.resolve(), timeoutMs: 2000 },
    ...options.overrides,
  });
  const stopWorker = options.worker === false ? undefined : await services.startWorker();
  const server = await buildServer(services, { logger: false });
  const address = await server.listen({ port, host: '127.0.0.1' });

  return {
    url: address,
    services,
    server,
    reddit,
    database,
    async accountWithKey(balance, email = `user${++counter}-${Date.now()}@example.com`) {
      const account = await services.accounts.createAccount(email);
      if (balance > 0) await services.credits.grant(account.id, balance, 'test');
      const { token } = await services.keys.createKey(account.id, `key-${++counter}`);
      return { accountId: account.id, token, email };
    },
    api(method, path, { token, body, headers = {} } = {}) {
      const allHeaders: Record<string, string> = { ...headers };
      if (token) allHeaders.authorization = `Bearer ${token}`;
      if (body !== undefined) allHeaders['content-type'] ??= 'application/json';
      return fetch(`${address}${path}`, {
        method,
        headers: allHeaders,
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
    },
    async close() {
      stopWorker?.();
      await server.close();
      await services.close();
      await reddit.close();
      await database.drop();
    },
  };
}
