import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { startFakeLlm, type FakeLlm } from '../support/fake-llm.ts';
import { ledgerSum } from '../support/ledger.ts';
import { createMonitor, cycle, startMonitorsApp, type PinnedClock } from '../support/monitors.ts';

// Monitor events are only queued here (no worker runs): a local address saves a DNS look-up.
const HOOK = 'http://127.0.0.1:9/subpilot';
const WEBHOOKS = { SECRET_KEY: 'e'.repeat(64), ALLOW_HTTP_WEBHOOKS: 'true', ALLOW_PRIVATE_WEBHOOKS: 'true' };
const PRICES = { PRICE_MONITOR_MATCH: '2', PRICE_JUDGE: '1' };
const INTENT = 'someone asking which tool to use for monitoring Reddit';

describe.each(engines)('monitors with an intent: judged, delivered or filtered, never lost, on %s', (engine) => {
  let app: TestApp;
  let clock: PinnedClock;
  let llm: FakeLlm;
  beforeAll(async () => {
    llm = await startFakeLlm();
    // One-second interval: the judge gets one second per poll, so a slow model is cut off quickly.
    const env = { ...WEBHOOKS, ...PRICES, LLM_BASE_URL: llm.url, LLM_MODEL: 'judge-1', LLM_API_KEY: llm.apiKey, MONITOR_INTERVAL_SECONDS: '1' };
    ({ app, clock } = await startMonitorsApp(engine, { env }));
  });
  afterAll(async () => {
    await app.close();
    await llm.close();
  });

  /** A monitor with an intent on a subreddit of its own, watching from now, for an account holding `credits`. */
  async function judgedMonitor(subreddit: string, credits: number, body: Record<string, unknown> = {}) {
    app.reddit.subreddits.set(subreddit, 'public');
    const { accountId, token } = await app.accountWithKey(credits);
    const monitor = await createMonitor(app, token, { subreddits: [`r/${subreddit}`], keywords: ['monitoring'], intent: INTENT, webhook_url: HOOK, ...body });
    await cycle(app);
    return { accountId, token, monitor };
  }
  function post(subreddit: string, title: string, selftext = '') {
    clock.advance(5);
    return app.reddit.addPost({ subreddit, title, selftext, created_utc: clock.seconds() - 1 });
  }
  const matches = async (token: string, id: string, query = '') =>
    (await (await app.api('GET', `/api/v1/monitors/${id}/matches?limit=100${query}`, { token })).json()).data as Record<string, any>[];
  async function events(monitorId: string, type: string) {
    const rows = await app.database.db.selectFrom('webhook_deliveries').select('payload').where('event_type', '=', type).orderBy('id').execute();
    return rows.map((row) => JSON.parse(row.payload).data).filter((data) => data.monitor_id === monitorId);
  }
  async function expectExactLedger(accountId: string, balance: number) {
    expect(await app.services.credits.spendableBalance(accountId)).toBe(balance);
    expect(await ledgerSum(app.services.db, accountId)).toBe(balance);
  }
  const health = async (token: string, id: string) => (await (await app.api('GET', `/api/v1/monitors/${id}`, { token })).json()).health;

  it('a match at or above the bar is delivered with its score and reason, one below is kept as filtered, and each costs what it should', async () => {
    const { accountId, token, monitor } = await judgedMonitor('judged', 100);
    const calls = llm.requests.length;
    const wanted = post('judged', 'Which tool do you recommend for monitoring Reddit mentions?');
    const noise = post('judged', 'Monitoring my sourdough starter overnight');
    clock.advance(5);
    await cycle(app);

    // Both matches in one model call, asking for structured JSON, with the intent in the prompt.
    expect(llm.requests.length).toBe(calls + 1);
    const request = llm.requests.at(-1)!.body as { model: string; messages: { content: string }[]; response_format?: { type: string } };
    expect(request.response_format?.type).toBe('json_schema');
    expect(request.messages[0]!.content).toContain(INTENT);

    const delivered = await matches(token, monitor.id);
    expect(delivered.map((m) => m.reddit_id)).toEqual([`t3_${wanted.id}`]);
    expect(delivered[0]).toMatchObject({ relevance: 85, filtered: false, judge_error: null, judge_model: 'judge-1' });
    expect(delivered[0]!.relevance_reason).toMatch(/"/);
    const all = await matches(token, monitor.id, '&include=filtered');
    expect(all.map((m) => [m.reddit_id, m.filtered, m.relevance])).toEqual([
      [`t3_${noise.id}`, true, 20],
      [`t3_${wanted.id}`, false, 85],
    ]);

    // Only the delivered one goes out by webhook.
    await app.services.monitorPoller.runCycle();
    const sent = (await events(monitor.id, 'monitor.matches')).flatMap((data) => data.matches.map((m: { reddit_id: string }) => m.reddit_id));
    expect(sent).toEqual([`t3_${wanted.id}`]);

    // Delivered: a match (2) and its judging (1); filtered: its judging (1) only.
    await expectExactLedger(accountId, 96);
    const usage = await (await app.api('GET', '/api/v1/usage?limit=1', { token })).json();
    expect(usage.data[0]).toMatchObject({ amount: -4, description: 'Monitor “watch”: 1 match, 2 judged for relevance' });

    // The prompt each verdict was judged with is kept, by its hash.
    const row = await app.database.db.selectFrom('monitor_matches').select('judge_prompt').where('monitor_id', '=', monitor.id).executeTakeFirstOrThrow();
    const prompt = await app.database.db.selectFrom('relevance_prompts').select('text').where('id', '=', row.judge_prompt!).executeTakeFirstOrThrow();
    expect(prompt.text).toContain(INTENT);
  });

  it('changing the bar re-sorts the stored verdicts without asking the model again, and charges nothing', async () => {
    const { accountId, token, monitor } = await judgedMonitor('resorted', 100);
    post('resorted', 'Which tool do you recommend for monitoring?');
    post('resorted', 'Monitoring the weather station');
    clock.advance(5);
    await cycle(app);
    const calls = llm.requests.length;
    expect((await matches(token, monitor.id)).length).toBe(1);

    const lowered = await app.api('PATCH', `/api/v1/monitors/${monitor.id}`, { token, body: { min_relevance: 10 } });
    expect(lowered.status).toBe(200);
    expect((await matches(token, monitor.id)).map((m) => m.relevance)).toEqual([20, 85]);
    await app.api('PATCH', `/api/v1/monitors/${monitor.id}`, { token, body: { min_relevance: 90 } });
    expect(await matches(token, monitor.id)).toEqual([]);
    expect((await matches(token, monitor.id, '&include=filtered')).every((m) => m.filtered)).toBe(true);
    expect(llm.requests.length).toBe(calls);
    await expectExactLedger(accountId, 96);
  });

  it('a model that is down: every match delivered unjudged and not charged for judging, the health and one monitor.health event say so', async () => {
    const { accountId, token, monitor } = await judgedMonitor('down', 50);
    llm.down = true;
    try {
      for (const title of ['Monitoring tools, anyone?', 'Monitoring again', 'Still monitoring']) {
        post('down', title);
        clock.advance(5);
        await cycle(app);
      }
      const delivered = await matches(token, monitor.id);
      expect(delivered).toHaveLength(3);
      for (const match of delivered) expect(match).toMatchObject({ relevance: null, judge_error: { code: 'judge_unavailable' } });
      await expectExactLedger(accountId, 44);
      expect((await health(token, monitor.id)).judge).toMatchObject({ state: 'failing', error: expect.stringContaining('503') });
      expect((await events(monitor.id, 'monitor.health')).map((data) => data.judge?.state)).toEqual(['failing']);
    } finally {
      llm.down = false;
    }
    post('down', 'Which tool do you recommend for monitoring?');
    clock.advance(5);
    await cycle(app);
    expect((await health(token, monitor.id)).judge).toMatchObject({ state: 'ok', error: null });
    expect((await events(monitor.id, 'monitor.health')).map((data) => data.judge?.state)).toEqual(['failing', 'ok']);
    await expectExactLedger(accountId, 41);
  });

  it('a model that answers malformed JSON leaves the matches delivered unjudged, saying why, and not charged for judging', async () => {
    const { accountId, token, monitor } = await judgedMonitor('malformed', 50);
    post('malformed', 'Monitoring question one');
    llm.answerNext(completion('{"verdicts": "not a list"}'));
    clock.advance(5);
    await cycle(app);
    const [match] = await matches(token, monitor.id);
    expect(match).toMatchObject({ relevance: null, relevance_reason: null, filtered: false, judge_error: { code: 'judge_malformed' } });
    await expectExactLedger(accountId, 48);
  });

  it('a slow model does not hold matches back: they are delivered unjudged within the poll', async () => {
    const { accountId, token, monitor } = await judgedMonitor('slow', 50);
    post('slow', 'Which tool do you recommend for monitoring?');
    llm.slowMs = 5_000;
    try {
      clock.advance(5);
      await cycle(app);
    } finally {
      llm.slowMs = 0;
    }
    const [match] = await matches(token, monitor.id);
    expect(match).toMatchObject({ relevance: null, filtered: false, judge_error: { code: 'judge_timeout' } });
    await expectExactLedger(accountId, 48);
  });

  it('a filtered match does not use up the daily cap, and a balance that runs out pauses the monitor with the ledger exact', async () => {
    const capped = await judgedMonitor('capped', 100, { max_matches_per_day: 1 });
    const noise = post('capped', 'Monitoring my bread dough');
    const wanted = post('capped', 'Which tool do you recommend for monitoring?');
    post('capped', 'Any tool you recommend for monitoring alerts?');
    clock.advance(5);
    await cycle(app);
    const stored = await matches(capped.token, capped.monitor.id, '&include=filtered');
    expect(stored.map((m) => [m.reddit_id, m.filtered])).toEqual([
      [`t3_${wanted.id}`, false],
      [`t3_${noise.id}`, true],
    ]);
    expect((await (await app.api('GET', `/api/v1/monitors/${capped.monitor.id}`, { token: capped.token })).json()).paused_reason).toBe('daily_cap');
    await expectExactLedger(capped.accountId, 96);

    // 4 credits: one delivered judged match (3), then the next (3) cannot be paid for.
    const poor = await judgedMonitor('poor', 4);
    post('poor', 'Which tool do you recommend for monitoring?');
    post('poor', 'Any tool you recommend for monitoring alerts?');
    clock.advance(5);
    await cycle(app);
    expect(await matches(poor.token, poor.monitor.id)).toHaveLength(1);
    expect((await (await app.api('GET', `/api/v1/monitors/${poor.monitor.id}`, { token: poor.token })).json()).paused_reason).toBe('insufficient_credits');
    await expectExactLedger(poor.accountId, 1);
  });

  it('a monitor without an intent costs what it always did and is never judged', async () => {
    app.reddit.subreddits.set('plain', 'public');
    const { accountId, token } = await app.accountWithKey(10);
    const monitor = await createMonitor(app, token, { subreddits: ['r/plain'], keywords: ['monitoring'] });
    await cycle(app);
    const calls = llm.requests.length;
    post('plain', 'Monitoring question');
    clock.advance(5);
    await cycle(app);
    expect(llm.requests.length).toBe(calls);
    expect(await matches(token, monitor.id)).toEqual([expect.objectContaining({ relevance: null, judge_error: null, filtered: false })]);
    expect((await health(token, monitor.id)).judge).toBeNull();
    await expectExactLedger(accountId, 8);
  });
});

describe.each(engines)('an intent on a server without a language model, on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    ({ app } = await startMonitorsApp(engine));
  });
  afterAll(() => app.close());

  it('is refused with 503 monitors.judge_not_configured, and nothing is created', async () => {
    const { token } = await app.accountWithKey(10);
    const response = await app.api('POST', '/api/v1/monitors', { token, body: { name: 'w', subreddits: ['r/otters'], keywords: ['otter'], intent: INTENT } });
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ code: 'monitors.judge_not_configured' });
    expect((await (await app.api('GET', '/api/v1/monitors', { token })).json()).data).toEqual([]);
  });
});

/** A chat completion whose text is `content`, for answerNext. */
function completion(content: string) {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_764_000_000,
    model: 'judge-1',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}
