import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../../../test/support/engines.ts';
import { ledgerSum } from '../../../test/support/ledger.ts';
import { matchStore } from '../../../test/support/matches.ts';
import { startMainApp, type MainApp } from '../../../test/support/openapi-contract-apps.ts';
import type { ConnectedAccount } from '../../../test/support/publishing.ts';
import { KEYED, ROUTES, Subpilot, SubpilotError, type OperationId } from '../src/index.ts';

type Doc = { paths: Record<string, Record<string, { operationId: string; parameters?: { in: string; name: string }[] }>> };

/** The document's operations a client calls (HEAD twins left out), with their method, path, and whether they take an Idempotency-Key. */
function operationsOf(doc: Doc) {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([method]) => method !== 'head' && method !== 'parameters')
      .map(([method, op]) => ({ id: op.operationId, method: method.toUpperCase(), path, keyed: (op.parameters ?? []).some((p) => p.in === 'header' && p.name === 'idempotency-key') })),
  );
}

describe.each(engines)('the TypeScript SDK against a running server on %s', (engine) => {
  let app: MainApp;
  let rich: ConnectedAccount;
  let doc: Doc;
  let client: Subpilot;
  beforeAll(async () => {
    app = await startMainApp(engine);
    app.reddit.posts.push({ id: 'c1', subreddit: 'node', title: 'an sdk for node', created_utc: Math.floor(Date.now() / 1000) });
    rich = await app.connectedAccount(1_000);
    doc = (await (await fetch(`${app.url}/openapi.json`)).json()) as Doc;
    client = new Subpilot({ apiKey: rich.token, baseUrl: app.url });
  }, 60_000);
  afterAll(() => app?.close());

  it('has one method per operation of the live document, named by its operationId, at its method and path', () => {
    const operations = operationsOf(doc);
    expect(Object.fromEntries(operations.map((op) => [op.id, [op.method, op.path]]))).toEqual(ROUTES);
    expect(operations.filter((op) => op.keyed).map((op) => op.id).sort()).toEqual([...KEYED].sort());
    for (const op of operations) expect(typeof client[op.id as OperationId], op.id).toBe('function');
  });

  it('calls every operation once, and each answers as the document says', async () => {
    const called = new Set<string>();
    const seen = () => called.add(client.lastResponse!.operation);
    const start = (await client.getBalance()).balance;
    seen();

    const scrape = await client.createScrape({ subreddits: ['r/node'], keywords: ['sdk'] });
    seen();
    expect(scrape).toMatchObject({ status: 'completed', credits: { charged: 1, balance: start - 1 } });
    expect(client.responseOf(scrape)).toMatchObject({ status: 200, creditsCharged: 1, creditsBalance: start - 1, replayed: false, attempts: 1 });
    expect(client.responseOf(scrape)!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect((await client.getScrape(scrape.id)).id).toBe(scrape.id);
    seen();
    expect((await client.listScrapes({ limit: 5 })).data.map((s) => s.id)).toEqual([scrape.id]);
    seen();
    expect((await client.listUsage()).data[0]).toMatchObject({ type: 'charge', amount: -1, scrape_id: scrape.id });
    seen();
    expect((await client.getDailyUsage({ days: 7 })).days).toHaveLength(7);
    seen();

    expect((await client.listCreditPacks()).packs.length).toBeGreaterThan(0);
    seen();
    const checkout = await client.createCheckout({ credits: 500 });
    seen();
    expect((await client.getPayment(checkout.payment.id)).status).toBe('open');
    seen();

    const draft = await client.createGeneration({ type: 'reply', reply_to: 't3_c1', instructions: 'A short tip' });
    seen();
    expect(client.lastResponse).toMatchObject({ creditsCharged: 5, creditsBalance: start - 6 });
    expect((await client.getGeneration(draft.id)).id).toBe(draft.id);
    seen();
    expect((await client.updateGeneration(draft.id, { body: 'Edited by a person.' })).body).toBe('Edited by a person.');
    seen();
    const publication = await client.createPublication({ generation_id: draft.id });
    seen();
    expect(publication).toMatchObject({ status: 'published', credits: { charged: 10, balance: start - 16 } });
    expect((await client.getPublication(publication.id)).status).toBe('published');
    seen();

    const monitor = await client.createMonitor({ name: 'SDK watch', subreddits: ['r/node'], keywords: ['sdk'] });
    seen();
    expect((await client.listMonitors()).data.map((m) => m.id)).toEqual([monitor.id]);
    seen();
    expect((await client.getMonitor(monitor.id)).name).toBe('SDK watch');
    seen();
    expect((await client.updateMonitor(monitor.id, { name: 'Renamed' })).name).toBe('Renamed');
    seen();
    const [matchId] = await matchStore(app.services.db)(monitor.id, rich.accountId, 1);
    expect((await client.listMonitorMatches(monitor.id)).data.map((m) => m.id)).toEqual([matchId]);
    seen();
    expect((await client.listInbox()).data.map((m) => m.id)).toEqual([matchId]);
    seen();
    expect(await client.getStreamCoverage({ hours: 1 })).toMatchObject({ enabled: false, hours: [], gaps: [] });
    seen();
    expect((await client.getMatch(matchId!)).status).toBe('new');
    seen();
    expect((await client.updateMatch(matchId!, { status: 'dismissed' })).status).toBe('dismissed');
    seen();

    const destination = await client.createDestination({ kind: 'discord', name: 'SDK alerts', url: 'http://127.0.0.1:9/api/webhooks/1/sdk' });
    seen();
    expect((await client.listDestinations()).data.map((d) => d.id)).toEqual([destination.id]);
    seen();
    expect((await client.getDestination(destination.id)).name).toBe('SDK alerts');
    seen();
    expect((await client.updateDestination(destination.id, { name: '#leads' })).name).toBe('#leads');
    seen();
    expect((await client.testDestination(destination.id)).subject).toMatch(/^test:/);
    seen();
    expect((await client.listDestinationDeliveries(destination.id)).data.length).toBeGreaterThanOrEqual(1);
    seen();
    await client.routeMonitor(monitor.id, destination.id, { frequency: 'instant' });
    seen();
    expect((await client.listMonitorRoutes(monitor.id)).data).toHaveLength(1);
    seen();
    expect(await client.unrouteMonitor(monitor.id, destination.id)).toBeUndefined();
    seen();
    expect(client.lastResponse!.status).toBe(204);
    await client.deleteDestination(destination.id);
    seen();
    await client.deleteMonitor(monitor.id);
    seen();

    expect([...called].sort()).toEqual(operationsOf(doc).map((op) => op.id).sort());
    expect(await ledgerSum(app.services.db, rich.accountId)).toBe((await client.getBalance()).balance);
  }, 60_000);

  it('throws a SubpilotError with the code, status, detail and problem body of an error answer', async () => {
    const error = await client.getScrape(`scr_${'0'.repeat(28)}`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SubpilotError);
    expect(error).toMatchObject({ status: 404, code: 'scrape.not_found', attempts: 1, problem: { status: 404, code: 'scrape.not_found' } });
    expect((error as SubpilotError).detail).toBe((error as SubpilotError).problem!.detail);
  });

  it('gives a 402 what the call would have cost, from Credits-Required, and the key the call was sent with', async () => {
    const { token } = await app.accountWithKey(0);
    const broke = new Subpilot({ apiKey: token, baseUrl: app.url });
    const error = (await broke.createScrape({ subreddits: ['r/node'], keywords: ['sdk', 'node'] }, { idempotencyKey: 'sdk-402' }).catch((e: unknown) => e)) as SubpilotError;
    expect(error).toMatchObject({ status: 402, code: 'credits.insufficient', creditsRequired: 2, creditsBalance: 0, idempotencyKey: 'sdk-402' });
    expect(error.problem).toMatchObject({ required: 2, balance: 0 });
  });

  it('never shows the key: not when the client is inspected or serialised, nor in an error', async () => {
    const refused = new Subpilot({ apiKey: `ak_live_${'f'.repeat(64)}`, baseUrl: app.url });
    const error = await refused.getBalance().catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401, code: 'auth.invalid_key' });
    const shown = [inspect(refused, { showHidden: true, depth: 5 }), JSON.stringify(refused), String(refused), inspect(error, { showHidden: true, depth: 5 }), JSON.stringify(error)].join('\n');
    expect(shown).not.toContain('f'.repeat(16));
    expect(inspect(client)).toContain(rich.token.slice(0, 16));
    expect(inspect(client)).not.toContain(rich.token.slice(16));
  });

  it('takes the key from SUBPILOT_API_KEY when none is passed, and says what to do when there is none', async () => {
    const saved = process.env.SUBPILOT_API_KEY;
    try {
      process.env.SUBPILOT_API_KEY = rich.token;
      expect((await new Subpilot({ baseUrl: app.url }).getBalance()).balance).toBeGreaterThan(0);
      delete process.env.SUBPILOT_API_KEY;
      expect(() => new Subpilot({ baseUrl: app.url })).toThrow('No API key: pass apiKey, or set SUBPILOT_API_KEY in the environment.');
    } finally {
      if (saved === undefined) delete process.env.SUBPILOT_API_KEY;
      else process.env.SUBPILOT_API_KEY = saved;
    }
  });
});
