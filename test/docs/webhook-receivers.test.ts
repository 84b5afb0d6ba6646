import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newWebhookSecret, signWebhook } from '../../src/modules/webhooks/webhooks.signing.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { examplesDirectory } from '../support/examples.ts';
import { eventually } from '../support/receiver.ts';

const commands = {
  'receiver.ts': [process.execPath, ['--import', 'tsx']],
  'receiver.py': ['python3', []],
} as const;
type Receiver = keyof typeof commands;

let files: ReturnType<typeof examplesDirectory>;
const running: ChildProcess[] = [];
beforeAll(() => {
  files = examplesDirectory();
});
afterEach(() => {
  for (const child of running.splice(0)) child.kill();
});
afterAll(() => files?.remove());

/** Starts a receiver of docs/api/webhooks.md with this secret on a free port; resolves once it listens. */
async function startReceiver(name: Receiver, secret: string) {
  const [command, args] = commands[name];
  const child = spawn(command, [...args, join(files.dir, name)], { cwd: files.dir, env: { ...process.env, WEBHOOK_SECRET: secret, PORT: '0' } });
  running.push(child);
  let output = '';
  let errors = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const url = await eventually(() => {
    if (child.exitCode !== null) throw new Error(`${name} exited: ${errors}`);
    return /listening on (http:\/\/\S+)/.exec(output)?.[1];
  }, 30_000);
  return {
    url,
    /** What it printed after it started listening, line by line. */
    lines: () => output.split('\n').slice(1).filter(Boolean),
  };
}

const event = { type: 'webhook.test', timestamp: '2026-11-23T12:00:00.000Z', data: { message: 'A test event sent from the dashboard.' } };

function deliver(url: string, headers: Record<string, string>, body: string) {
  return fetch(`${url}/hooks/subpilot`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
}

function signed(secret: string, body: string, options: { id?: string; at?: number } = {}) {
  const id = options.id ?? `msg_${randomBytes(8).toString('hex')}`;
  const timestamp = options.at ?? Math.floor(Date.now() / 1000);
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signWebhook(secret, id, timestamp, body) };
}

describe.each(Object.keys(commands) as Receiver[])('the webhook receiver %s of the documents', (name) => {
  it('accepts a delivery signed by our signing code, once per webhook-id, and refuses one tampered with', async () => {
    const secret = newWebhookSecret(randomBytes);
    const receiver = await startReceiver(name, secret);
    const body = JSON.stringify(event);
    const headers = signed(secret, body, { id: 'msg_0001' });

    expect((await deliver(receiver.url, headers, body)).status).toBe(204);
    expect((await deliver(receiver.url, headers, body)).status).toBe(204);
    expect(receiver.lines()).toEqual(['webhook.test msg_0001']);

    const tampered = [
      ['another body', headers, body.replace('dashboard', 'attacker')],
      ['another id', { ...headers, 'webhook-id': 'msg_0002' }, body],
      ['another time', { ...headers, 'webhook-timestamp': String(Number(headers['webhook-timestamp']) + 1) }, body],
      ['another secret', signed(newWebhookSecret(randomBytes), body), body],
      ['the secret as text, not decoded', { ...headers, 'webhook-signature': `v1,${signWebhook(`whsec_${Buffer.from(secret).toString('base64')}`, headers['webhook-id'], Number(headers['webhook-timestamp']), body).slice(3)}` }, body],
      ['no signature', { 'webhook-id': 'msg_0003', 'webhook-timestamp': headers['webhook-timestamp'] }, body],
      ['a replay signed 10 minutes ago', signed(secret, body, { at: Math.floor(Date.now() / 1000) - 600 }), body],
    ] as const;
    for (const [what, forged, forgedBody] of tampered) {
      expect((await deliver(receiver.url, forged as Record<string, string>, forgedBody)).status, what).toBe(400);
    }
    expect(receiver.lines().filter((line) => !line.startsWith('refused: '))).toEqual(['webhook.test msg_0001']);
  }, 60_000);

  it('finds the valid one among several signatures in webhook-signature', async () => {
    const secret = newWebhookSecret(randomBytes);
    const receiver = await startReceiver(name, secret);
    const body = JSON.stringify(event);
    const headers = signed(secret, body);
    const other = signed(newWebhookSecret(randomBytes), body, { id: headers['webhook-id'], at: Number(headers['webhook-timestamp']) });
    const both = { ...headers, 'webhook-signature': `${other['webhook-signature']} ${headers['webhook-signature']}` };
    expect((await deliver(receiver.url, both, body)).status).toBe(204);
  }, 60_000);
});

describe.each(engines)('the webhook receivers of the documents, sent a real delivery by the server on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine, { env: { SECRET_KEY: 'd'.repeat(64), ALLOW_HTTP_WEBHOOKS: 'true' } });
    app.reddit.posts.push({ id: 'w1', subreddit: 'node', title: 'kysely', selftext: '', created_utc: Math.floor(Date.now() / 1000) - 60 });
  });
  afterAll(() => app?.close());

  it.each(Object.keys(commands) as Receiver[])('%s verifies the scrape.completed event the server signs with the account\'s secret', async (name) => {
    const { accountId, token } = await app.accountWithKey(10);
    const receiver = await startReceiver(name, await app.services.webhooks.secretFor(accountId));
    const response = await app.api('POST', '/api/v1/scrape', {
      token,
      body: { subreddits: ['r/node'], keywords: ['kysely'], webhook_url: `${receiver.url}/hooks/subpilot` },
    });
    expect(response.status).toBe(200);
    const line = await eventually(() => receiver.lines()[0], 20_000);
    expect(line).toMatch(/^scrape\.completed msg_\w+$/);
  }, 60_000);
});
