/**
 * The demo source (issue 44): a service without Reddit's approval runs scrape, monitors, the judge,
 * drafts and a simulated publish against the demo's server, every item labelled "demo", and none of it
 * charged unless DEMO_BILLED=true. The real clients and the real poller, a pinned clock for the trickle.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { demoAccount, startDemoApp } from '../support/demo.ts';
import { engines } from '../support/engines.ts';
import { callTool, mcpClient, textOf } from '../support/mcp.ts';
import { createMonitor, cycle, type PinnedClock } from '../support/monitors.ts';

const QUICKSTART = { subreddits: ['r/typescript', 'r/node'], keywords: ['kysely'] };

describe.each(engines)('the demo source on %s', (engine) => {
  let app: TestApp;
  let clock: PinnedClock;
  beforeAll(async () => {
    ({ app, clock } = await startDemoApp(engine));
  });
  afterAll(() => app?.close());

  it('a scrape finds the recorded posts and the trickle\'s, each labelled demo, and charges nothing', async () => {
    const { token } = await app.accountWithKey(10);
    const response = await app.api('POST', '/api/v1/scrape', { token, body: QUICKSTART });
    expect(response.status).toBe(200);
    const scrape = await response.json();
    expect(scrape).toMatchObject({ status: 'completed', credits: { charged: 0, balance: 10 } });
    const titles = scrape.results.map((result: { title: string }) => result.title);
    expect(titles).toEqual(expect.arrayContaining(['Kysely or Prisma for a new project in 2026?', 'Sample: first week with Kysely, notes']));
    expect(scrape.results.every((result: { source: string; id: string }) => result.source === 'demo' && /^t3_demo[0-9a-z]{9}$/.test(result.id))).toBe(true);
    expect((await (await app.api('GET', '/api/v1/usage', { token })).json()).data.map((row: { type: string }) => row.type)).toEqual(['grant']);
  });

  it('a monitor finds the trickle\'s new posts and comments as they come, judged by the demo model, free', async () => {
    const { token, accountId } = await app.accountWithKey(10);
    const monitor = await createMonitor(app, token, { ...QUICKSTART, sources: ['posts', 'comments'], intent: 'someone choosing kysely', min_relevance: 1 });
    await cycle(app);
    clock.advance(120);
    await cycle(app);
    const matches = (await (await app.api('GET', `/api/v1/monitors/${monitor.id}/matches?include=filtered`, { token })).json()).data;
    expect(matches.length).toBeGreaterThanOrEqual(2);
    expect(new Set(matches.map((match: { type: string }) => match.type))).toEqual(new Set(['post', 'comment']));
    for (const match of matches) expect(match).toMatchObject({ source: 'demo', judge_model: 'subpilot-demo', relevance: expect.any(Number) });
    expect(await app.services.credits.spendableBalance(accountId)).toBe(10);

    const mcp = await mcpClient(app.url, token);
    const listed = textOf(await callTool(mcp, 'get_monitor_matches', { id: monitor.id }));
    expect(listed).toMatch(/^- \[demo, not real Reddit\] mat_/m);
    await mcp.close();
  });

  it('a draft by the demo model and a simulated publish, after connecting through the demo\'s approval page, labelled and free', async () => {
    const { token, approval } = await demoAccount(app, { connect: true });
    expect(approval).toContain('Demo data — not real Reddit');

    const draft = await (await app.api('POST', '/api/v1/generate', { token, body: { type: 'reply', reply_to: 't3_demo000000001' } })).json();
    expect(draft).toMatchObject({ status: 'completed', model: 'subpilot-demo', credits: { charged: 0 }, body: expect.stringMatching(/^Sample reply written by the demo model/) });
    const published = await app.api('POST', '/api/v1/publish', { token, body: { generation_id: draft.id } });
    const publication = await published.json();
    expect(publication).toMatchObject({ status: 'published', source: 'demo', credits: { charged: 0 }, reddit: { id: expect.stringMatching(/^t1_demo/) } });
  });
});

describe.each(engines)('the demo source with DEMO_BILLED=true on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    ({ app } = await startDemoApp(engine, { DEMO_BILLED: 'true' }));
  });
  afterAll(() => app?.close());

  it('charges a scrape its PRICE_SCRAPE per pair, as for Reddit data', async () => {
    const { token } = await app.accountWithKey(10);
    const scrape = await (await app.api('POST', '/api/v1/scrape', { token, body: QUICKSTART })).json();
    expect(scrape).toMatchObject({ status: 'completed', credits: { charged: 2, balance: 8 } });
    expect(scrape.results[0].source).toBe('demo');
  });
});
