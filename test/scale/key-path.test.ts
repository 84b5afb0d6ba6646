import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../../src/app/container.ts';
import { buildServer } from '../../src/app/server.ts';
import { loadConfig } from '../../src/shared/config/config.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { eventually } from '../support/receiver.ts';

const unknownKey = `ak_live_${'0'.repeat(64)}`;

/** Another instance of the service on the same database (its own connection), as a deployment with several has. */
async function startInstance(app: TestApp, env: Record<string, string> = {}) {
  const services: Services = await createServices(loadConfig({ ...app.database.env, LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '1000000', AUTH_FAILURES_PER_MINUTE: '1000000', ...env }));
  const server: FastifyInstance = await buildServer(services, { logger: false });
  const url = await server.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    services,
    async close() {
      await server.close();
      await services.close();
    },
  };
}

/** GET /api/v1/balance from a chosen loopback address, so that the flood and the valid key share one. */
function balanceFrom(localAddress: string, url: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/v1/balance`, { localAddress, headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.resume().on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}

/** `bad` unknown-key calls and one call of each valid token in between, all at once from one address; the valid ones' statuses. */
async function floodBeside(url: string, tokens: string[], bad = 200): Promise<{ valid: number[]; flood: Set<number> }> {
  const flood = Array.from({ length: bad }, () => balanceFrom('127.0.0.4', url, unknownKey));
  const valid = Promise.all(tokens.map((token) => balanceFrom('127.0.0.4', url, token)));
  return { valid: await valid, flood: new Set(await Promise.all(flood)) };
}

describe.each(engines)('the key path on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine);
  });
  afterAll(() => app.close());

  it('a flood of bad keys from one address never locks out a valid key behind it, never seen by the process, before or after a restart', async () => {
    const throttled = { AUTH_FAILURES_PER_MINUTE: '10' };
    const main = await app.accountWithKey(1);
    const first = await startInstance(app, throttled);
    try {
      const fresh = await app.accountWithKey(1);
      const round = await floodBeside(first.url, [fresh.token, main.token, fresh.token, main.token]);
      expect(round.valid).toEqual([200, 200, 200, 200]);
      expect(round.flood).toEqual(new Set([401, 429]));
    } finally {
      await first.close();
    }
    // A deploy: the new process has seen no key work, and the flood goes on from the first second.
    const restarted = await startInstance(app, throttled);
    try {
      const another = await app.accountWithKey(1);
      const round = await floodBeside(restarted.url, [main.token, another.token, main.token]);
      expect(round.valid).toEqual([200, 200, 200]);
      expect(round.flood).toEqual(new Set([401, 429]));
    } finally {
      await restarted.close();
    }
  });

  for (const [change, apply] of [
    ['revoked', (a: TestApp, accountId: string, prefix: string) => a.services.keys.revokeKey(accountId, { prefix })],
    ['rolled over', (a: TestApp, accountId: string, prefix: string) => a.services.keys.rollKey(accountId, { prefix }, 'now')],
    ['expired by hand in SQL', (a: TestApp, _accountId: string, prefix: string) =>
      a.database.db.updateTable('api_keys').set({ expires_at: new Date().toISOString() }).where('prefix', '=', prefix).execute()],
  ] as const) {
    it(`a key ${change} on instance A: no request to instance B that starts after the change committed succeeds, while B serves a flood with it`, async () => {
      const { token, accountId } = await app.accountWithKey(1);
      const b = await startInstance(app);
      const calls: { start: number; status: number }[] = [];
      let stop = false;
      const worker = async () => {
        while (!stop) {
          const start = performance.now();
          const response = await fetch(`${b.url}/api/v1/balance`, { headers: { authorization: `Bearer ${token}` } });
          await response.arrayBuffer();
          calls.push({ start, status: response.status });
        }
      };
      const workers = Array.from({ length: 12 }, worker);
      try {
        await eventually(() => calls.filter((call) => call.status === 200).length >= 100);
        await apply(app, accountId, token.slice(0, 16));
        const committed = performance.now();
        await eventually(() => calls.filter((call) => call.start > committed).length >= 200);
        stop = true;
        await Promise.all(workers);
        const after = calls.filter((call) => call.start > committed);
        expect(after.filter((call) => call.status !== 401).map((call) => call.status)).toEqual([]);
        expect(calls.some((call) => call.start < committed && call.status === 200)).toBe(true);
      } finally {
        stop = true;
        await Promise.all(workers);
        await b.close();
      }
    });
  }

  it('the balance read from memory on SQLite is exact: after each grant on instance A, the next read on instance B shows it', async () => {
    const { token, accountId } = await app.accountWithKey(1);
    const b = await startInstance(app);
    try {
      const read = async () => (await (await fetch(`${b.url}/api/v1/balance`, { headers: { authorization: `Bearer ${token}` } })).json()).balance;
      expect(await read()).toBe(1);
      for (let expected = 2; expected <= 30; expected++) {
        await app.services.credits.grant(accountId, 1, 'test');
        expect(await read()).toBe(expected);
        expect(await read()).toBe(expected);
      }
      // And a change made by B's own connection (its own commit moves no data_version) shows on B at once.
      await b.services.credits.grant(accountId, 5, 'test');
      expect(await read()).toBe(35);
    } finally {
      await b.close();
    }
  });
});
