import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { csrfIn, type PageResponse } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';
import { PRICES, startPublishingApp, type ConnectedAccount, type PublishingApp } from '../support/publishing.ts';

const START = 100;
const attemptIn = (body: string) => /name="attempt" value="([^"]+)"/.exec(body)![1]!;
/** The refusal shown beside Confirm, as the page escapes it. */
const alertIn = (body: string) => /<p class="alert alert-error" role="alert">([^<]+)<\/p>/.exec(body)?.[1];
/** The override checkbox the page offers for `flag`, and whether it is ticked. */
const overrideIn = (body: string, flag: string) => new RegExp(`<input type="checkbox" name="${flag}" value="on"( checked)?>`).exec(body);

/**
 * The dashboard's confirm step meeting the two rails a request can lift (docs/api/rails.md): the same
 * text again (`allow_duplicate`) and a second reply in a thread (`allow_second_reply`). The page shows the
 * rail's reason and a box to tick; only a press with it ticked publishes, and is charged once.
 */
describe.each(engines)('the publish confirm step lifting a rail on %s', (engine) => {
  let app: PublishingApp;
  const accounts: ConnectedAccount[] = [];
  let n = 0;
  beforeAll(async () => {
    // The per-subreddit pace would refuse the overridden retry in the same subreddit: off, so only the lifted rails speak.
    app = await startPublishingApp(engine, { env: { PUBLISH_PACE_PER_SUBREDDIT: '0' } });
  });
  afterAll(() => app.close());
  // Every move is written down and nothing is left held: each account's ledger sums to what it can spend.
  afterEach(async () => {
    for (const account of accounts.splice(0)) expect(await ledgerSum(app.services.db, account.accountId)).toBe(await account.balance());
  });

  async function member(): Promise<ConnectedAccount> {
    const account = await app.connectedAccount(START);
    accounts.push(account);
    return account;
  }
  /** A post of its own on the fake Reddit, its t3_ id. */
  function thread(): string {
    const id = `ovr${engine[0]}${++n}`;
    app.reddit.posts.push({ id, subreddit: 'node', title: `Which query builder, ${n}?`, selftext: 'Raw SQL today.', created_utc: Math.floor(Date.now() / 1000) });
    return `t3_${id}`;
  }
  const apiPublish = async (account: ConnectedAccount, body: unknown) => {
    const response = await app.api('POST', '/api/v1/publish', { token: account.token, body });
    expect(response.status).toBe(200);
  };
  /** A completed draft replying to `parent` whose text the fake model writes as `text`. */
  async function draftOf(account: ConnectedAccount, parent: string, text: string): Promise<string> {
    app.llm.reply = () => text;
    const response = await app.api('POST', '/api/v1/generate', { token: account.token, body: { type: 'reply', post_id: parent, instructions: 'Be brief' } });
    expect(response.status).toBe(200);
    return (await response.json()).id;
  }
  /** Presses Confirm on `page` (the confirm step as last shown) with the boxes in `ticked`. */
  const confirm = (account: ConnectedAccount, draftId: string, page: PageResponse, ticked: Record<string, string> = {}) =>
    account.dashboard.post(`/dashboard/drafts/${draftId}/publish`, { csrf: csrfIn(page.body), attempt: attemptIn(page.body), ...ticked });
  const posted = (account: ConnectedAccount) => app.reddit.user.comments.filter((c) => c.author === account.username);

  it('shows the duplicate rail’s reason with a box to publish the same text again, and publishes nothing until it is ticked', async () => {
    const account = await member();
    const text = 'Kysely: typed SQL without an ORM in the way.';
    await apiPublish(account, { type: 'comment', parent: thread(), body: text });
    const draftId = await draftOf(account, thread(), text);
    const before = await account.balance();

    const refused = await confirm(account, draftId, await account.dashboard.get(`/dashboard/drafts/${draftId}/publish`));
    expect(refused.status).toBe(409);
    expect(alertIn(refused.body)).toMatch(/^This account published the same text less than 24 hours ago .*Nothing was recorded or charged\.$/);
    expect(overrideIn(refused.body, 'allow_duplicate')).not.toBeNull();
    expect(overrideIn(refused.body, 'allow_duplicate')![1], 'ticked before the person ticks it').toBeUndefined();
    expect(overrideIn(refused.body, 'allow_second_reply')).toBeNull();
    expect(refused.body).toContain('Publish the same text again');

    // Confirm again without the box: the rail still holds, and nothing goes out or is charged.
    const again = await confirm(account, draftId, refused);
    expect(again.status).toBe(409);
    expect(posted(account)).toHaveLength(1);
    expect(await account.balance()).toBe(before);

    const published = await confirm(account, draftId, again, { allow_duplicate: 'on' });
    expect(published.status, published.body).toBe(303);
    expect(published.location).toMatch(/^\/dashboard\/publications\/pub_[0-9a-f]+$/);
    expect(posted(account).filter((c) => c.text === text)).toHaveLength(2);
    expect(await account.balance()).toBe(before - PRICES.publish);
  });

  it('a second press of the overriding confirmation replays it: one comment on Reddit, one charge', async () => {
    const account = await member();
    const text = 'Drizzle is worth a look too.';
    await apiPublish(account, { type: 'comment', parent: thread(), body: text });
    const draftId = await draftOf(account, thread(), text);
    const before = await account.balance();
    const refused = await confirm(account, draftId, await account.dashboard.get(`/dashboard/drafts/${draftId}/publish`));
    expect(refused.status).toBe(409);

    const first = await confirm(account, draftId, refused, { allow_duplicate: 'on' });
    const second = await confirm(account, draftId, refused, { allow_duplicate: 'on' });
    expect([first.status, second.status]).toEqual([303, 303]);
    expect(second.location).toBe(first.location);
    expect(posted(account).filter((c) => c.text === text)).toHaveLength(2);
    expect(await account.balance()).toBe(before - PRICES.publish);
    const charges = await app.services.db
      .selectFrom('credit_ledger')
      .select('amount')
      .where('account_id', '=', account.accountId)
      .where('kind', '=', 'charge')
      .where('publication_id', 'is not', null)
      .execute();
    // The first publication (through the API) and the overriding one: no third.
    expect(charges).toEqual([{ amount: -PRICES.publish }, { amount: -PRICES.publish }]);
  });

  it('shows the second-reply rail’s reason after the duplicate is lifted, keeps that box ticked, and publishes once with both', async () => {
    const account = await member();
    const parent = thread();
    const text = 'We moved from Knex last year and kept the migrations.';
    await apiPublish(account, { type: 'comment', parent, body: text });
    const draftId = await draftOf(account, parent, text);
    const before = await account.balance();

    const duplicate = await confirm(account, draftId, await account.dashboard.get(`/dashboard/drafts/${draftId}/publish`));
    expect(duplicate.status).toBe(409);
    expect(overrideIn(duplicate.body, 'allow_duplicate')).not.toBeNull();

    const secondReply = await confirm(account, draftId, duplicate, { allow_duplicate: 'on' });
    expect(secondReply.status).toBe(409);
    expect(alertIn(secondReply.body)).toMatch(new RegExp(`^This account already replied in the thread of ${parent} .*Nothing was recorded or charged\\.$`));
    expect(overrideIn(secondReply.body, 'allow_second_reply')![1]).toBeUndefined();
    // What was already lifted stays lifted: the next press must not meet the duplicate rail again.
    expect(overrideIn(secondReply.body, 'allow_duplicate')![1]).toBe(' checked');
    expect(secondReply.body).toContain('Reply in this thread again');
    expect(posted(account)).toHaveLength(1);
    expect(await account.balance()).toBe(before);

    const published = await confirm(account, draftId, secondReply, { allow_duplicate: 'on', allow_second_reply: 'on' });
    expect(published.status, published.body).toBe(303);
    expect(posted(account).map((c) => c.thing_id)).toEqual([parent, parent]);
    expect(await account.balance()).toBe(before - PRICES.publish);
  });

  it('offers no box for a refusal no flag lifts, and a forged press without the CSRF token publishes nothing', async () => {
    const account = await member();
    const draftId = await draftOf(account, thread(), 'A reply nobody has seen yet.');
    const page = await account.dashboard.get(`/dashboard/drafts/${draftId}/publish`);
    expect(overrideIn(page.body, 'allow_duplicate')).toBeNull();
    expect(overrideIn(page.body, 'allow_second_reply')).toBeNull();

    const forged = await account.dashboard.post(`/dashboard/drafts/${draftId}/publish`, { attempt: attemptIn(page.body), allow_duplicate: 'on' });
    expect(forged.status).toBe(403);
    expect(posted(account)).toEqual([]);
    expect(await account.balance()).toBe(START - PRICES.generate);
  });
});
