import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/shared/config/config.ts';
import { transaction } from '../../src/shared/db/database.ts';
import { creditsIn } from '../../src/modules/credits/credits.usecases.ts';
import { createLlmClient } from '../../src/integrations/llm/llm.client.ts';
import { MAX_RECOVERY_CHECKS } from '../../src/modules/publish/publish.recovery.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';
import { PRICES, startPublishingApp, type ConnectedAccount, type PublishingApp } from '../support/publishing.ts';
import { insertMatches } from '../support/monitor-rows.ts';
import { createMonitor } from '../support/monitors.ts';
import { eventually } from '../support/receiver.ts';

/**
 * A process that dies while the model or Reddit is being asked is stood in for by a request whose
 * answer is held: its row stays `running`, the pinned clock is moved past the lease, and recovery
 * (what every worker runs every 30 s) settles it. The held request is let go afterwards, as a
 * process presumed dead that wakes up late; it must not settle a second time.
 */
describe.each(engines)('recovery of interrupted generations and publications on %s', (engine) => {
  let app: PublishingApp;
  let nowMs = Date.now();
  beforeAll(async () => {
    app = await startPublishingApp(engine, {
      worker: false, // recovery runs when the test says, not on a timer
      overrides: (llm) => ({
        clock: () => new Date(nowMs),
        // As configured by LLM_TIMEOUT_MS=5000 (the client's one retry included).
        llm: createLlmClient(loadConfig({ LLM_BASE_URL: llm.url, LLM_MODEL: 'fake-model', LLM_API_KEY: llm.apiKey, LLM_TIMEOUT_MS: '5000' }).llm!),
      }),
    });
    app.reddit.user.now = () => Math.floor(nowMs / 1000);
    app.reddit.posts.push({ id: 'r9', subreddit: 'node', title: 'Which query builder?', selftext: 'We use raw SQL.', created_utc: Math.floor(nowMs / 1000) });
  });
  afterAll(() => app.close());

  const db = () => app.services.db;
  const ledgerOf = (accountId: string) => db().selectFrom('credit_ledger').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
  const ledgerMatches = async (accountId: string) =>
    expect(await ledgerSum(app.services.db, accountId)).toBe(await app.services.credits.spendableBalance(accountId));
  const publicationOf = (accountId: string) => db().selectFrom('publications').selectAll().where('account_id', '=', accountId).executeTakeFirst();
  const commentCalls = () => app.reddit.requests.filter((r) => r.path === '/api/comment').length;
  let n = 0;
  /** Publishes a comment and returns once its request is held by the fake Reddit, with the `running` row. */
  async function startPublish(account: ConnectedAccount) {
    const before = commentCalls();
    const body = { type: 'comment', parent: 't3_r1', body: `Recovered text ${++n}` };
    const pending = app.api('POST', '/api/v1/publish', { token: account.token, body });
    await eventually(() => commentCalls() > before);
    const row = (await publicationOf(account.accountId))!;
    expect(row.status).toBe('running');
    return { pending, row };
  }
  const pastLease = (lease: string | null) => (nowMs = Date.parse(lease!) + 1);

  it('a generation running past its lease (LLM_TIMEOUT_MS 5000 × 2 tries + 10 s of retry wait + 30 s) is refunded, once', async () => {
    const { token, accountId } = await app.accountWithKey(10);
    app.llm.hangNext();
    const asked = app.llm.requests.length;
    const pending = app.api('POST', '/api/v1/generate', { token, body: { type: 'post', subreddit: 'r/node', instructions: 'x' } });
    const row = await eventually(() => db().selectFrom('generations').selectAll().where('account_id', '=', accountId).executeTakeFirst());
    await eventually(() => app.llm.requests.length > asked); // the call is held by the fake model
    expect(Date.parse(row.lease_expires_at!) - Date.parse(row.created_at)).toBe(50_000);

    nowMs = Date.parse(row.lease_expires_at!) - 1;
    expect(await app.services.generate.recoverAbandoned()).toBe(0);
    pastLease(row.lease_expires_at);
    expect(await app.services.generate.recoverAbandoned()).toBe(1);
    expect(await app.services.credits.spendableBalance(accountId)).toBe(10);

    app.llm.failNext(500); // the late process's retry fails too; it must not refund again
    app.llm.dropHanging();
    expect((await pending).status).toBe(502);
    const stored = await db().selectFrom('generations').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ status: 'failed', charged: 0 });
    expect((await ledgerOf(accountId)).map((e) => e.kind)).toEqual(['grant', 'charge', 'refund']);
    expect(await app.services.credits.spendableBalance(accountId)).toBe(10);
    await ledgerMatches(accountId);
  });

  it('a publication that Reddit accepted before its process died is charged on recovery and gets its Reddit id', async () => {
    const account = await app.connectedAccount(50);
    app.reddit.user.postWithoutAnswer();
    const { pending, row } = await startPublish(account);
    // Four Reddit calls at most (refresh and post, twice on a refused token) of 10 s each, and 30 s.
    expect(Date.parse(row.lease_expires_at!) - Date.parse(row.created_at)).toBe(70_000);
    const posted = await eventually(() => app.reddit.user.comments.find((c) => c.text === row.body));

    pastLease(row.lease_expires_at);
    expect(await app.services.publish.recoverAbandoned()).toBe(1);
    const recovered = await publicationOf(account.accountId);
    expect(recovered).toMatchObject({ status: 'published', reddit_id: posted.id, charged: PRICES.publish, error: null });
    expect(recovered!.permalink).toMatch(/^https:\/\/www\.reddit\.com\/r\/fake\/comments\//);
    expect(await account.balance()).toBe(50 - PRICES.publish);
    expect(app.reddit.requests.some((r) => r.path === `/user/${account.username}/comments` && r.headers.authorization?.startsWith('bearer '))).toBe(true);

    app.reddit.user.dropHeld();
    const late = await pending;
    expect(late.status).toBe(200);
    expect((await late.json()).reddit.id).toBe(posted.id);
    expect((await ledgerOf(account.accountId)).map((e) => e.kind)).toEqual(['grant', 'charge']);
    await ledgerMatches(account.accountId);
  });

  it('a publication that did not go out has its hold released on recovery: the ledger never mentions it', async () => {
    const account = await app.connectedAccount(50);
    app.reddit.user.hangWithoutPosting();
    const { pending, row } = await startPublish(account);
    pastLease(row.lease_expires_at);
    expect(await app.services.publish.recoverAbandoned()).toBe(1);
    expect(await publicationOf(account.accountId)).toMatchObject({ status: 'failed', reddit_id: null, charged: 0 });
    expect(await account.balance()).toBe(50);

    app.reddit.user.dropHeld();
    expect((await pending).status).toBe(502);
    expect((await ledgerOf(account.accountId)).map((e) => e.kind)).toEqual(['grant']);
    await ledgerMatches(account.accountId);
  });

  it('two workers recovering at once settle it once', async () => {
    const account = await app.connectedAccount(50);
    app.reddit.user.hangWithoutPosting();
    const { pending, row } = await startPublish(account);
    pastLease(row.lease_expires_at);
    const counts = await Promise.all([app.services.publish.recoverAbandoned(), app.services.publish.recoverAbandoned()]);
    expect(counts[0]! + counts[1]!).toBe(1);
    app.reddit.user.dropHeld();
    await pending;
    expect((await ledgerOf(account.accountId)).map((e) => e.kind)).toEqual(['grant']);
    expect(await account.balance()).toBe(50);
    await ledgerMatches(account.accountId);
  });

  it('while Reddit cannot be asked it stays unknown and held; after the last round it is settled unknown and released', async () => {
    const account = await app.connectedAccount(50);
    app.reddit.user.hangWithoutPosting();
    const started = await startPublish(account);
    const pending = started.pending;
    let row = started.row;
    app.reddit.user.failListingsNext(503, MAX_RECOVERY_CHECKS);
    for (let round = 1; round < MAX_RECOVERY_CHECKS; round++) {
      pastLease(row.lease_expires_at);
      expect(await app.services.publish.recoverAbandoned()).toBe(0);
      row = (await publicationOf(account.accountId))!;
      expect(row).toMatchObject({ status: 'unknown', recovery_checks: round, charged: PRICES.publish });
      expect(await account.balance()).toBe(50 - PRICES.publish);
    }
    pastLease(row.lease_expires_at);
    expect(await app.services.publish.recoverAbandoned()).toBe(1);
    expect(await publicationOf(account.accountId)).toMatchObject({ status: 'unknown', charged: 0, lease_expires_at: null });
    expect(await account.balance()).toBe(50);
    app.reddit.user.dropHeld();
    await pending;
    expect((await ledgerOf(account.accountId)).map((e) => e.kind)).toEqual(['grant']);
    await ledgerMatches(account.accountId);
  });

  it('a draft for a monitor match that went out before its process died marks the match published once recovery finds it', async () => {
    const account = await app.connectedAccount(50);
    const draft = await (await app.api('POST', '/api/v1/generate', { token: account.token, body: { type: 'reply', post_id: 't3_r9', instructions: 'Help' } })).json();
    const monitor = await createMonitor(app, account.token, { subreddits: ['r/node'], keywords: ['kysely'] });
    await insertMatches(db(), { monitorId: monitor.id, accountId: account.accountId, count: 1 });
    await db().updateTable('monitor_matches').set({ draft_id: draft.id, status: 'drafted' }).where('monitor_id', '=', monitor.id).execute();
    app.reddit.user.postWithoutAnswer();
    const pending = app.api('POST', '/api/v1/publish', { token: account.token, body: { generation_id: draft.id } });
    await eventually(() => app.reddit.user.comments.some((c) => c.text === draft.body));
    const row = (await publicationOf(account.accountId))!;
    expect(row.status).toBe('running');
    expect(await db().selectFrom('monitor_matches').select('status').where('monitor_id', '=', monitor.id).executeTakeFirst()).toEqual({ status: 'drafted' });

    pastLease(row.lease_expires_at);
    expect(await app.services.publish.recoverAbandoned()).toBe(1);
    const match = await db().selectFrom('monitor_matches').select(['status', 'publication_id']).where('monitor_id', '=', monitor.id).executeTakeFirst();
    expect(match).toEqual({ status: 'published', publication_id: row.id });
    app.reddit.user.dropHeld();
    expect((await pending).status).toBe(200);
    expect((await ledgerOf(account.accountId)).map((e) => [e.kind, e.publication_id])).toEqual([['grant', null], ['charge', null], ['charge', row.id]]);
    await ledgerMatches(account.accountId);
  });

  it('a publication charged when sent, before holds (no text_hash: migration 0020), is refunded, not released, when it did not go out', async () => {
    const account = await app.connectedAccount(50);
    const at = new Date(nowMs).toISOString();
    const id = `pub_${randomBytes(14).toString('hex')}`;
    // What the code before holds wrote: a charge and the running row, in one transaction.
    await transaction(db(), async (trx) => {
      await creditsIn(trx).charge({ accountId: account.accountId, keyId: null, price: PRICES.publish, purchase: { kind: 'publication', id }, at });
      await trx
        .insertInto('publications')
        .values({
          id, account_id: account.accountId, key_id: null, status: 'running', kind: 'comment', target: 't3_old', title: null, body: 'Sent before holds.',
          generation_id: null, idempotency_key: null, request_hash: 'r', reddit_id: null, permalink: null, price: PRICES.publish,
          charged: PRICES.publish, error: null, lease_expires_at: new Date(nowMs + 70_000).toISOString(), created_at: at, completed_at: null,
          author: account.username, recovery_checks: 0, via: 'api', subreddit: null, thread_id: null, text_hash: null,
        })
        .execute();
    });
    expect(await account.balance()).toBe(50 - PRICES.publish);
    nowMs += 70_001;
    expect(await app.services.publish.recoverAbandoned()).toBe(1);
    expect(await publicationOf(account.accountId)).toMatchObject({ status: 'failed', charged: 0 });
    expect((await ledgerOf(account.accountId)).map((e) => e.kind)).toEqual(['grant', 'charge', 'refund']);
    expect(Number((await db().selectFrom('accounts').select('held').where('id', '=', account.accountId).executeTakeFirstOrThrow()).held)).toBe(0);
    expect(await account.balance()).toBe(50);
    await ledgerMatches(account.accountId);
  });
});
