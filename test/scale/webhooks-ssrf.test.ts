import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { eventually, startReceiver } from '../support/receiver.ts';

const SECRET_KEY = 'b'.repeat(64);

/**
 * A DNS that the test scripts: each host has a list of answers, one per lookup, the last one repeated.
 * It counts lookups, so a test can tell how often the service asked.
 */
function scriptedDns() {
  const answers = new Map<string, string[][]>();
  const lookups = new Map<string, number>();
  return {
    answers,
    lookups,
    resolve: async (host: string) => {
      lookups.set(host, (lookups.get(host) ?? 0) + 1);
      const script = answers.get(host);
      if (!script) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      const answer = script.length > 1 ? script.shift()! : script[0]!;
      return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    },
  };
}

/** IPv6 forms that reach an IPv4 address, and IPv6 ranges that are not the public internet. */
const refusedAddresses = [
  ['IPv4-compatible loopback', '::127.0.0.1'],
  ['IPv4-compatible metadata address', '::a9fe:a9fe'],
  ['IPv4-compatible private address', '::10.0.0.1'],
  ['NAT64 of loopback', '64:ff9b::7f00:1'],
  ['NAT64 of the metadata address', '64:ff9b::a9fe:a9fe'],
  ['NAT64 local-use prefix', '64:ff9b:1::a00:1'],
  ['6to4 of loopback', '2002:7f00:1::'],
  ['6to4 of a public address', '2002:5db8:d822::1'],
  ['Teredo', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
  ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
  ['IPv4-mapped metadata address', '::ffff:169.254.169.254'],
  ['IPv6 loopback', '::1'],
  ['the unspecified address', '::'],
  ['unique-local', 'fd12:3456::1'],
  ['site-local', 'fec0::1'],
  ['link-local', 'fe80::1'],
  ['multicast', 'ff02::1'],
  ['documentation', '2001:db8::1'],
  ['IPv4 unspecified', '0.0.0.0'],
  ['IPv4 broadcast', '255.255.255.255'],
] as const;

describe.each(engines)('webhook addresses on %s', (engine) => {
  let app: TestApp;
  const dns = scriptedDns();
  beforeAll(async () => {
    app = await startTestApp(engine, { env: { SECRET_KEY }, overrides: { resolveHost: dns.resolve } });
    app.reddit.posts.push({ id: 'ss1', subreddit: 'node', title: 'ssrf', created_utc: Math.floor(Date.now() / 1000) });
  });
  afterAll(() => app.close());

  const submit = (token: string, url: string) =>
    app.api('POST', '/api/v1/scrape', {
      token,
      body: { subreddits: ['r/node'], keywords: ['ssrf'], webhook_url: url },
      headers: { prefer: 'respond-async' },
    });

  it.each(refusedAddresses)('refuses %s (%s) as a literal webhook host with 422 and charges nothing', async (_label, address) => {
    const { token, accountId } = await app.accountWithKey(5);
    const host = address.includes(':') ? `[${address}]` : address;
    const response = await submit(token, `https://${host}/hook`);
    expect(response.status).toBe(422);
    expect((await response.json()).errors[0].path).toBe('/webhook_url');
    expect(await app.services.credits.spendableBalance(accountId)).toBe(5);
  });

  it.each(refusedAddresses)('refuses a host name that resolves to %s (%s) with 422', async (_label, address) => {
    const { token } = await app.accountWithKey(5);
    const host = `submit-${address.replaceAll(/[:.]/g, '-')}.example.test`;
    dns.answers.set(host, [['93.184.216.34', address]]);
    expect((await submit(token, `https://${host}/hook`)).status).toBe(422);
  });

  it.each(refusedAddresses.slice(0, 8))(
    'a host that resolved to a public address at submit time and to %s (%s) at delivery is not contacted; the attempt is recorded as failed',
    async (_label, address) => {
      const { token, accountId } = await app.accountWithKey(5);
      const host = `later-${address.replaceAll(/[:.]/g, '-')}.example.test`;
      dns.answers.set(host, [['93.184.216.34'], [address]]);
      expect((await submit(token, `https://${host}/hook`)).status).toBe(202);
      const [delivery] = await eventually(async () => {
        const deliveries = await app.services.webhooks.recentDeliveries(accountId);
        return deliveries[0]?.attempts.length ? deliveries : undefined;
      });
      expect(delivery!.attempts[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/private|this machine/) });
      expect(dns.lookups.get(host)).toBe(2);
    },
  );
});

describe.each(engines)('webhook delivery connects only to the address it checked, on %s', (engine) => {
  let app: TestApp;
  const dns = scriptedDns();
  beforeAll(async () => {
    app = await startTestApp(engine, {
      env: { SECRET_KEY, ALLOW_HTTP_WEBHOOKS: 'true' },
      overrides: { resolveHost: dns.resolve },
    });
    app.reddit.posts.push({ id: 'rb1', subreddit: 'node', title: 'rebind', created_utc: Math.floor(Date.now() / 1000) });
  });
  afterAll(() => app.close());

  it('a host whose DNS answer changes after the check is still reached at the checked address, and asked once per attempt', async () => {
    const checked = await startReceiver(0);
    const other = await startReceiver(0, { host: '127.0.0.2', port: checked.port });
    try {
      const { token, accountId } = await app.accountWithKey(5);
      // Submit check, delivery check, then (were it asked again at connect time) somewhere else.
      dns.answers.set('rebind.example.test', [['127.0.0.1'], ['127.0.0.1'], ['127.0.0.2']]);
      const body = { subreddits: ['r/node'], keywords: ['rebind'], webhook_url: `http://rebind.example.test:${checked.port}/hook` };
      expect((await app.api('POST', '/api/v1/scrape', { token, body })).status).toBe(200);
      await eventually(async () => (await app.services.webhooks.recentDeliveries(accountId))[0]?.status === 'delivered');
      expect(checked.received).toHaveLength(1);
      expect(checked.received[0]!.headers.host).toBe(`rebind.example.test:${checked.port}`);
      expect(other.received).toHaveLength(0);
      expect(dns.lookups.get('rebind.example.test')).toBe(2);
    } finally {
      await checked.close();
      await other.close();
    }
  });

  it('a receiver answering 302 is not followed: the attempt is recorded as failed with the 302', async () => {
    const target = await startReceiver(0);
    const redirecting = await startReceiver(0, {
      answer: (res) => res.writeHead(302, { location: target.url }).end(),
    });
    try {
      const { token, accountId } = await app.accountWithKey(5);
      const body = { subreddits: ['r/node'], keywords: ['rebind'], webhook_url: redirecting.url };
      expect((await app.api('POST', '/api/v1/scrape', { token, body })).status).toBe(200);
      const [delivery] = await eventually(async () => {
        const deliveries = await app.services.webhooks.recentDeliveries(accountId);
        return deliveries[0]?.attempts.length ? deliveries : undefined;
      });
      expect(delivery!.status).toBe('pending');
      expect(delivery!.attempts[0]).toMatchObject({ status_code: 302, error: 'receiver answered 302' });
      expect(redirecting.received).toHaveLength(1);
      expect(target.received).toHaveLength(0);
    } finally {
      await target.close();
      await redirecting.close();
    }
  });

  it('over https the pinned connection still names the host (SNI) and verifies its certificate: a self-signed one is refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'subpilot-tls-'));
    const names: string[] = [];
    let requests = 0;
    try {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=tls.example.test',
        '-addext', 'subjectAltName=DNS:tls.example.test', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
      const server = createHttpsServer(
        {
          key: readFileSync(join(dir, 'key.pem')),
          cert: readFileSync(join(dir, 'cert.pem')),
          SNICallback: (name, done) => (names.push(name), done(null, undefined)),
        },
        (_req, res) => (requests++, res.writeHead(200).end()),
      );
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const { token, accountId } = await app.accountWithKey(5);
        dns.answers.set('tls.example.test', [['127.0.0.1']]);
        const port = (server.address() as AddressInfo).port;
        const body = { subreddits: ['r/node'], keywords: ['rebind'], webhook_url: `https://tls.example.test:${port}/hook` };
        expect((await app.api('POST', '/api/v1/scrape', { token, body })).status).toBe(200);
        const [delivery] = await eventually(async () => {
          const deliveries = await app.services.webhooks.recentDeliveries(accountId);
          return deliveries[0]?.attempts.length ? deliveries : undefined;
        });
        expect(delivery!.attempts[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/self-signed certificate/) });
        expect(names).toContain('tls.example.test');
        expect(requests).toBe(0);
      } finally {
        server.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('http:// to an IPv4-compatible or NAT64 form of loopback is refused even with ALLOW_HTTP_WEBHOOKS', async () => {
    const { token } = await app.accountWithKey(5);
    for (const host of ['[::127.0.0.1]', '[64:ff9b::7f00:1]', '[2002:7f00:1::]']) {
      const body = { subreddits: ['r/node'], keywords: ['x'], webhook_url: `http://${host}:9/hook` };
      expect((await app.api('POST', '/api/v1/scrape', { token, body })).status).toBe(422);
    }
  });
});

/** Every way of writing the unspecified address: connecting to any of them reaches this very host. */
const unspecifiedHosts = [
  ['IPv4 unspecified', '0.0.0.0'],
  ['another address of 0.0.0.0/8', '0.1.2.3'],
  ['IPv6 unspecified', '[::]'],
  ['IPv4-mapped unspecified', '[::ffff:0.0.0.0]'],
  ['IPv4-compatible 0.0.0.2', '[::0.0.0.2]'],
  ['IPv4-translated unspecified', '[::ffff:0:0.0.0.0]'],
  ['NAT64 of 0.0.0.0', '[64:ff9b::0.0.0.0]'],
  ['6to4 of 0.0.0.0', '[2002::1]'],
] as const;

/** A TCP listener on every local address (IPv4 and IPv6) that counts the connections it gets. */
async function localListener() {
  const sockets: Socket[] = [];
  const server = createTcpServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '::', ipv6Only: false }, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => sockets.length,
    close: () => new Promise<void>((resolve) => (sockets.forEach((socket) => socket.destroy()), server.close(() => resolve()))),
  };
}

describe.each(engines)('the unspecified address with ALLOW_PRIVATE_WEBHOOKS=true, on %s', (engine) => {
  let app: TestApp;
  let listener: Awaited<ReturnType<typeof localListener>>;
  const dns = scriptedDns();
  beforeAll(async () => {
    listener = await localListener();
    app = await startTestApp(engine, {
      env: { SECRET_KEY, ALLOW_PRIVATE_WEBHOOKS: 'true', ALLOW_HTTP_WEBHOOKS: 'true' },
      overrides: { resolveHost: dns.resolve },
    });
    app.reddit.posts.push({ id: 'un1', subreddit: 'node', title: 'unspecified', created_utc: Math.floor(Date.now() / 1000) });
  });
  afterAll(async () => {
    await app.close();
    await listener.close();
  });

  const submit = (token: string, url: string) =>
    app.api('POST', '/api/v1/scrape', {
      token,
      body: { subreddits: ['r/node'], keywords: ['unspecified'], webhook_url: url },
      headers: { prefer: 'respond-async' },
    });

  it.each(unspecifiedHosts)('refuses %s (%s) as a webhook host with 422 saying why, and contacts nothing on this server', async (_label, host) => {
    const { token, accountId } = await app.accountWithKey(5);
    const response = await submit(token, `https://${host}:${listener.port}/hook`);
    expect(response.status).toBe(422);
    const problem = await response.json();
    expect(problem).toMatchObject({ code: 'webhooks.invalid_url', errors: [{ path: '/webhook_url', message: expect.stringMatching(/unspecified address/) }] });
    expect(problem.detail).toContain('reaches this server itself');
    expect(await app.services.credits.spendableBalance(accountId)).toBe(5);
    expect(listener.connections()).toBe(0);
  });

  it.each([['0.0.0.0'], ['::'], ['::ffff:0.0.0.0']])('refuses a host name that resolves to %s with 422', async (address) => {
    const { token } = await app.accountWithKey(5);
    const host = `unspecified-${address.replaceAll(/[:.]/g, '-')}.example.test`;
    dns.answers.set(host, [['10.0.0.1', address]]);
    expect((await submit(token, `https://${host}:${listener.port}/hook`)).status).toBe(422);
  });

  it.each([['0.0.0.0'], ['::']])(
    'a host that resolved to a private address at submit time and to %s at delivery is not contacted; the attempt says why',
    async (address) => {
      const { token, accountId } = await app.accountWithKey(5);
      const host = `later-unspecified-${address.replaceAll(/[:.]/g, '-')}.example.test`;
      dns.answers.set(host, [['10.0.0.1'], [address]]);
      expect((await submit(token, `https://${host}:${listener.port}/hook`)).status).toBe(202);
      const [delivery] = await eventually(async () => {
        const deliveries = await app.services.webhooks.recentDeliveries(accountId);
        return deliveries[0]?.attempts.length ? deliveries : undefined;
      });
      expect(delivery!.attempts[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/unspecified address/) });
      expect(listener.connections()).toBe(0);
    },
  );
});
