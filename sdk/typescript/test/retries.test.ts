import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { engines } from '../../../test/support/engines.ts';
import { ledgerSum } from '../../../test/support/ledger.ts';
import { pinnedClock } from '../../../test/support/monitors.ts';
import { Subpilot, SubpilotConnectionError, SubpilotError } from '../src/index.ts';
import { startLossyProxy, type LossyProxy } from './lossy-proxy.ts';

/** A client whose waits before a retry return at once and are written down, in milliseconds. */
function waitingClient(options: ConstructorParameters<typeof Subpilot>[0] & { onSleep?: (ms: number) => void }) {
  const waits: number[] = [];
  const client = new Subpilot({
    random: () => 1,
    ...options,
    sleep: async (ms) => {
      waits.push(ms);
      options.onSleep?.(ms);
    },
  });
  return { client, waits };
}

describe.each(engines)('the TypeScript SDK meeting the real rate limit on %s', (engine) => {
  // One call a minute per key, on a clock the test holds two seconds before the minute ends.
  const clock = pinnedClock('2026-11-23T12:00:58.000Z');
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine, { env: { RATE_LIMIT_PER_MINUTE: '1' }, worker: false, overrides: { clock: clock.now } });
  });
  afterAll(() => app?.close());

  it('waits the 2 s a 429 asks in Retry-After, then retries once and gets the answer', async () => {
    clock.set('2026-11-23T12:00:58.000Z');
    const { token } = await app.accountWithKey(10);
    // The wait passes on the server's clock: the retry arrives in the next minute, as it would after a real 2 s.
    const { client, waits } = waitingClient({ apiKey: token, baseUrl: app.url, onSleep: (ms) => clock.advance(ms / 1000) });
    expect((await client.getBalance()).balance).toBe(10);
    expect((await client.getBalance()).balance).toBe(10);
    expect(waits).toEqual([2000]);
    expect(client.lastResponse).toMatchObject({ status: 200, attempts: 2 });
  });

  it('throws a 429 at once when Retry-After asks for longer than the longest wait allowed', async () => {
    clock.set('2026-11-23T12:02:00.000Z');
    const { token } = await app.accountWithKey(10);
    const { client, waits } = waitingClient({ apiKey: token, baseUrl: app.url, maxRetryWaitMs: 30_000 });
    await client.getBalance();
    const error = await client.getBalance().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SubpilotError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limit.exceeded', retryAfterMs: 60_000, attempts: 1 });
    expect(waits).toEqual([]);
  });

  it('gives up after maxRetries, with the last answer', async () => {
    clock.set('2026-11-23T12:04:58.000Z');
    const { token } = await app.accountWithKey(10);
    // Waits that pass no time: every retry meets the same full minute.
    const { client, waits } = waitingClient({ apiKey: token, baseUrl: app.url, maxRetries: 2 });
    await client.getBalance();
    const error = await client.getBalance().catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, code: 'rate_limit.exceeded', attempts: 3 });
    expect(waits).toEqual([2000, 2000]);
  });

  it("stops waiting for a retry when the caller's signal aborts", async () => {
    clock.set('2026-11-23T12:06:58.000Z');
    const { token } = await app.accountWithKey(10);
    const controller = new AbortController();
    // A wait that never ends by itself: only the abort can end the call.
    let waiting!: () => void;
    const waitStarted = new Promise<void>((resolve) => (waiting = resolve));
    const sleep = () => {
      waiting();
      return new Promise<void>(() => undefined);
    };
    const client = new Subpilot({ apiKey: token, baseUrl: app.url, sleep });
    await client.getBalance();
    const call = client.getBalance({ signal: controller.signal });
    await waitStarted;
    controller.abort(new Error('the caller gave up'));
    await expect(call).rejects.toThrow('the caller gave up');
  });
});

describe.each(engines)('the TypeScript SDK when an answer is lost on the way, on %s', (engine) => {
  let app: TestApp;
  let proxy: LossyProxy;
  beforeAll(async () => {
    app = await startTestApp(engine);
    app.reddit.addPost({ subreddit: 'node', title: 'An sdk that retries' });
    proxy = await startLossyProxy(app.url);
  });
  afterAll(async () => {
    await proxy?.close();
    await app?.close();
  });

  it('retries a scrape whose answer was lost with the same Idempotency-Key, and it is charged once', async () => {
    const { accountId, token } = await app.accountWithKey(10);
    const { client, waits } = waitingClient({ apiKey: token, baseUrl: proxy.url });
    const sent = proxy.keys.length;
    proxy.dropAnswers(1);

    const scrape = await client.createScrape({ subreddits: ['r/node'], keywords: ['sdk'] });

    expect(scrape).toMatchObject({ status: 'completed', credits: { charged: 1, balance: 9 } });
    const meta = client.responseOf(scrape)!;
    expect(meta).toMatchObject({ attempts: 2, replayed: true, creditsCharged: 1, creditsBalance: 9 });
    expect(proxy.keys.slice(sent)).toEqual([meta.idempotencyKey, meta.idempotencyKey]);
    expect(waits).toEqual([500]);
    expect((await client.listScrapes()).data).toHaveLength(1);
    expect((await client.listUsage()).data.filter((entry) => entry.type === 'charge')).toHaveLength(1);
    expect((await client.getBalance()).balance).toBe(9);
    expect(await ledgerSum(app.services.db, accountId)).toBe(9);
  });

  it('sends a lost call again only when that cannot do it twice: a GET is retried, a PATCH is thrown', async () => {
    const { token } = await app.accountWithKey(10);
    const { client, waits } = waitingClient({ apiKey: token, baseUrl: proxy.url });
    const monitor = await client.createMonitor({ name: 'Lossy', subreddits: ['r/node'], keywords: ['sdk'] });

    proxy.dropAnswers(1);
    expect((await client.getMonitor(monitor.id)).name).toBe('Lossy');
    expect(client.lastResponse!.attempts).toBe(2);

    proxy.dropAnswers(1);
    const error = await client.updateMonitor(monitor.id, { name: 'Renamed' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SubpilotConnectionError);
    expect(error).toMatchObject({ attempts: 1, idempotencyKey: null });
    // The server did it: the answer alone was lost, which is why the SDK did not guess.
    expect((await client.getMonitor(monitor.id)).name).toBe('Renamed');
    expect(waits).toEqual([500]);
  });

  it('continues a call an earlier run gave up on when given its key: the first outcome, not a second charge', async () => {
    const { accountId, token } = await app.accountWithKey(10);
    const { client } = waitingClient({ apiKey: token, baseUrl: proxy.url, maxRetries: 0 });
    proxy.dropAnswers(1);
    const lost = (await client.createScrape({ subreddits: ['r/node'], keywords: ['sdk'] }).catch((e: unknown) => e)) as SubpilotConnectionError;
    expect(lost).toBeInstanceOf(SubpilotConnectionError);
    expect(lost.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);

    const again = await client.createScrape({ subreddits: ['r/node'], keywords: ['sdk'] }, { idempotencyKey: lost.idempotencyKey! });
    expect(client.responseOf(again)).toMatchObject({ replayed: true, idempotencyKey: lost.idempotencyKey });
    expect(await ledgerSum(app.services.db, accountId)).toBe(9);
  });
});
