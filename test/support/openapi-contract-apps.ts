/**
 * The servers the contract test (test/api/openapi-contract.test.ts) drives, and the one way it sends
 * requests to them: every answer comes back as an `Answer` for the contract to check.
 *
 * - `main`: Reddit, a connected Reddit user, a language model and webhooks all configured; short HTTP
 *   timeouts (408 in half a second), a Reddit user client that gives up after 800 ms (504), and a DNS
 *   for webhook hosts that can hold an answer (a request held before it binds its Idempotency-Key,
 *   while a twin binds it: 409); credits sold through a fake Stripe (`stripe`), which can be made to fail (502).
 * - `limits`: two calls a minute per key, one failed key a minute per address, no language model, no
 *   SECRET_KEY (so no webhooks and no Reddit connections) and no Stripe: the 429s, the "not configured"
 *   503s and the 409 of a server that sells no credits. Its
 *   database is the one the test takes away at the end (500, and 503 on PostgreSQL).
 */
import { connect } from 'node:net';
import { createDatabase } from '../../src/shared/db/database.ts';
import { startTestApp, type TestApp } from './app.ts';
import { openTestDatabase, type Engine, type TestDatabase } from './engines.ts';
import { startFakeStripe } from './fake-stripe.ts';
import type { Answer } from './openapi-contract.ts';
import { lateRedditUserClient, startPublishingApp, type PublishingApp } from './publishing.ts';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

export interface Call {
  method: string;
  target: string;
  /** The key to send; null sends none. */
  token?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Sends one request with fetch; a body that is a string is sent as it is, with JSON's content type unless told. */
export async function send(baseUrl: string, call: Call): Promise<Answer> {
  const headers: Record<string, string> = { ...call.headers };
  if (call.token) headers.authorization = `Bearer ${call.token}`;
  if (call.body !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(`${baseUrl}${call.target}`, {
    method: call.method,
    headers,
    body: call.body === undefined ? undefined : typeof call.body === 'string' ? call.body : JSON.stringify(call.body),
  });
  return { method: call.method, target: call.target, status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
}

/**
 * Sends `head` (the request line's version and the headers, complete or not) on a socket of its own and
 * reads one answer: up to its Content-Length, or only its headers for a HEAD, or up to the close.
 */
export function sendRaw(baseUrl: string, method: string, target: string, head: string): Promise<Answer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`${method} ${target} ${head}`));
    let data = '';
    const parse = () => {
      const end = data.indexOf('\r\n\r\n');
      if (end === -1) return null;
      const [statusLine, ...lines] = data.slice(0, end).split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      const body = data.slice(end + 4);
      // server.ts writes its raw-socket answers without a Date; every answer Fastify sends has one.
      return { method, target, status: Number(statusLine!.split(' ')[1]), headers, body, raw: headers.date === undefined };
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      data += chunk;
      const answer = parse();
      if (!answer) return;
      // Fastify's answer to a HEAD gives the length of the body it leaves out; a raw one sends it all.
      const complete = Buffer.byteLength(answer.body) >= Number(answer.headers['content-length'] ?? Infinity);
      if (complete || (method === 'HEAD' && !answer.raw)) socket.end();
    });
    socket.on('error', reject);
    socket.on('close', () => (parse() ? resolve(parse()!) : reject(new Error(`no answer to ${method} ${target}: ${JSON.stringify(data)}`))));
  });
}

/**
 * DNS for webhook hosts: every name is this machine (the main app allows private http receivers, and
 * nothing listens on the port the test names), and `holdNext` keeps the next look-up waiting.
 */
function createDnsGate() {
  let held: Promise<void> | null = null;
  let onReached: () => void = () => undefined;
  return {
    resolve: async () => {
      const wait = held;
      held = null;
      if (wait) {
        onReached();
        await wait;
      }
      return [{ address: '127.0.0.1', family: 4 as const }];
    },
    /** `reached` settles once the next look-up waits; `release` lets it answer. */
    holdNext() {
      let release!: () => void;
      held = new Promise<void>((resolve) => (release = resolve));
      const reached = new Promise<void>((resolve) => (onReached = resolve));
      return { reached, release };
    },
  };
}

/** Where the main app's Slack and Discord webhooks live: port 9 (discard) of this machine, so nothing leaves it. */
export const CONTRACT_CHAT_BASE = 'http://127.0.0.1:9';

export async function startMainApp(engine: Engine) {
  const dns = createDnsGate();
  const stripe = await startFakeStripe();
  const app: PublishingApp = await startPublishingApp(engine, {
    env: {
      HTTP_HEADERS_TIMEOUT_MS: '500',
      HTTP_REQUEST_TIMEOUT_MS: '1000',
      ALLOW_HTTP_WEBHOOKS: 'true',
      ALLOW_PRIVATE_WEBHOOKS: 'true',
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_URL: stripe.url,
      CREDIT_PACKS: '500:5.00,2000:18.00',
      PUBLIC_URL: 'http://127.0.0.1:9',
    },
    overrides: () => ({
      redditUser: lateRedditUserClient(() => app),
      resolveHost: dns.resolve,
      chat: { bases: { slack: [CONTRACT_CHAT_BASE], discord: [CONTRACT_CHAT_BASE] } },
    }),
  });
  const closeApp = app.close.bind(app);
  return Object.assign(app, {
    dns,
    stripe,
    async close() {
      await closeApp();
      await stripe.close();
    },
  });
}

export type MainApp = Awaited<ReturnType<typeof startMainApp>>;

export interface LimitsApp extends TestApp {
  /** Takes the database away as an outage does: unreachable (PostgreSQL only, through a TCP proxy), then closed. */
  unreachable: (() => void) | null;
  closeDatabase(): Promise<void>;
}

export async function startLimitsApp(engine: Engine): Promise<LimitsApp> {
  const env = { RATE_LIMIT_PER_MINUTE: '2', AUTH_FAILURES_PER_MINUTE: '1' };
  if (engine === 'sqlite') {
    const app = await startTestApp(engine, { env, worker: false });
    return Object.assign(app, { unreachable: null, closeDatabase: () => app.database.db.destroy() });
  }
  // On PostgreSQL the service reaches a schema of its own through a proxy that can be taken down (the
  // schema startTestApp opens beside it stays unused, and is dropped with the app).
  const own: TestDatabase = await openTestDatabase('postgres');
  const direct = new URL(own.env.DATABASE_URL!);
  const proxy: TcpProxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
  const viaProxy = new URL(direct);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  const db = createDatabase({ dialect: 'postgres', url: viaProxy.toString() });
  const app = await startTestApp(engine, { env: { ...env, DATABASE_URL: viaProxy.toString() }, worker: false, overrides: { db } });
  const closeApp = app.close.bind(app);
  return Object.assign(app, {
    unreachable: () => proxy.down(),
    async closeDatabase() {
      proxy.up();
      await db.destroy();
    },
    async close() {
      proxy.up();
      await closeApp();
      await db.destroy().catch(() => undefined);
      await proxy.close();
      await own.drop();
    },
  });
}
