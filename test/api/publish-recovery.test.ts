import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/shared/config/config.ts';
import { createLlmClient } from '../../src/integrations/llm/llm.client.ts';
import { MAX_RECOVERY_CHECKS } from '../../src/modules/publish/publish.recovery.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';
import { PRICES, startPublishingApp, type ConnectedAccount, type PublishingApp } from '../support/publishing.ts';
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

  it('a publication that did not go out is refunded on recovery', async () => {
    const account = await app.connectedAccount(50);
    app.reddit.user.hangWithoutPosting();
    const { pending, row } = await startPublish(account);
    pastLease(row.lease_expires_at);
    expect(await app.services.publish.recoverAbandoned()).toBe(1);
    expect(await publicationOf(account.accountId)).toMatchObject({ status: 'failed', reddit_id: null, charged: 0 });
    expect(await account.balance()).toBe(50);

    app.reddit.user.dropHeld();
    expect((await pending).status).toBe(502);
    expect((await ledgerOf(account.accountId)).map((e) => e.kind)).toEqual(['grant', 'charge', 'refund']);
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
    expect((await ledgerOf(account.accountId)).map((e) => e.kind)).toEqual(['grant', 'charge', 'refund']);
    expect(await account.balance()).toBe(50);
    await ledgerMatches(account.accountId);
  });

  it('while Reddit cannot be asked it stays unknown and charged; after the last round it is refunded as unknown', async () => {
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
    await ledgerMatches(account.accountId);
  });
});
