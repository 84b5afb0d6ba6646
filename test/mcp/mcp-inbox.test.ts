/**
 * The inbox through MCP (docs/api/mcp.md): list_inbox reads the matches with where they stand, and
 * draft_reply writes a reply from a stored match; posting it is still publish with confirm: true.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';
import { matchStore } from '../support/matches.ts';
import { callTool, mcpClient, textOf } from '../support/mcp.ts';
import { PRICES, startPublishingApp, type ConnectedAccount, type PublishingApp } from '../support/publishing.ts';

type Entry = { id: string; status: string; reddit_id: string; draft: { id: string; status: string } | null; publication: { id: string } | null };

describe.each(engines)('the inbox tools of the MCP server on %s', (engine) => {
  let app: PublishingApp;
  // One store for the suite: it numbers the matches it makes, so two would make the same ids.
  let storeMatches: ReturnType<typeof matchStore>;
  const accounts: ConnectedAccount[] = [];
  const clients: Client[] = [];

  // No worker: no poll reads Reddit behind the tests' backs, so "no Reddit request" is the tools' own doing.
  beforeAll(async () => {
    app = await startPublishingApp(engine, { worker: false });
    storeMatches = matchStore(app.services.db);
  });
  afterAll(() => app.close());
  afterEach(async () => {
    for (const account of accounts.splice(0)) expect(await ledgerSum(app.services.db, account.accountId)).toBe(await account.balance());
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });

  /** A connected account with an MCP client, a monitor, and `count` matches of it stored as the poller stores them (oldest first). */
  async function withMatches(balance: number, count: number) {
    const account = await app.connectedAccount(balance);
    accounts.push(account);
    const client = await mcpClient(app.url, account.token);
    clients.push(client);
    const monitor = await callTool(client, 'create_monitor', { name: 'Inbox', subreddits: ['r/node'], keywords: ['subpilot'] });
    const monitorId = monitor.structuredContent!.id as string;
    return { account, client, monitorId, matchIds: await storeMatches(monitorId, account.accountId, count) };
  }
  const entries = async (client: Client, args: Record<string, unknown> = {}) =>
    (await callTool(client, 'list_inbox', args)).structuredContent!.data as Entry[];

  it('list_inbox lists each match with its status, newest first, and filters by status and monitor', async () => {
    const { account, client, monitorId, matchIds } = await withMatches(0, 2);
    const [older, newer] = matchIds as [string, string];
    await app.services.inbox.setStatus(account.accountId, older, 'dismissed');

    const all = await callTool(client, 'list_inbox', { monitor_id: monitorId });
    expect((all.structuredContent!.data as Entry[]).map((m) => [m.id, m.status, m.draft])).toEqual([
      [newer, 'new', null],
      [older, 'dismissed', null],
    ]);
    expect(textOf(all)).toMatch(/^2 matches in the inbox\./);
    expect(textOf(all)).toContain(`- ${older} [dismissed]`);
    expect(textOf(all)).toContain('Draft a reply to a new one with draft_reply');
    expect((await entries(client, { status: 'new' })).map((m) => m.id)).toEqual([newer]);
    expect(await entries(client, { monitor_id: `mon_${'0'.repeat(28)}` })).toEqual([]);
  });

  it('draft_reply drafts from the stored match without a Reddit request, charged once, and the match becomes drafted', async () => {
    const { account, client } = await withMatches(20, 2);
    const comment = (await entries(client)).find((m) => m.reddit_id.startsWith('t1_'))!;
    const requests = app.reddit.requests.length;
    const posted = app.reddit.user.comments.length;

    const draft = await callTool(client, 'draft_reply', { match_id: comment.id, instructions: 'Be brief.' });
    expect(draft.isError, textOf(draft)).toBeFalsy();
    expect(draft.structuredContent).toMatchObject({ type: 'reply', status: 'completed', reply_to: comment.reddit_id, match_id: comment.id, credits: { charged: PRICES.generate } });
    expect(textOf(draft)).toMatch(/Nothing was posted\. Once a person has approved the text: publish with generation_id gen_\w+ and confirm true\.$/);
    expect(app.reddit.requests.length).toBe(requests);
    expect(app.reddit.user.comments.length).toBe(posted);
    expect(app.llm.requests.at(-1)!.body.messages.at(-1)!.content).toContain('Be brief.');

    const draftId = draft.structuredContent!.id as string;
    const entry = (await entries(client)).find((m) => m.id === comment.id)!;
    expect(entry).toMatchObject({ status: 'drafted', draft: { id: draftId, status: 'completed' } });
    expect((await entries(client)).filter((m) => m.id !== comment.id).map((m) => m.status)).toEqual(['new']);
    expect(await account.balance()).toBe(20 - PRICES.generate);
  });

  it('draft_reply retried with the same idempotency_key answers with the first draft and charges once', async () => {
    const { account, client } = await withMatches(20, 1);
    const [match] = await entries(client);
    const args = { match_id: match!.id, instructions: 'Be brief.', idempotency_key: `draft-${match!.id}` };
    const first = await callTool(client, 'draft_reply', args);
    expect(first.isError, textOf(first)).toBeFalsy();
    expect(await callTool(client, 'draft_reply', args)).toEqual(first);
    const other = await callTool(client, 'draft_reply', { ...args, instructions: 'Be long.' });
    expect(other.structuredContent).toMatchObject({ status: 422, code: 'idempotency.key_reused' });
    expect(await account.balance()).toBe(20 - PRICES.generate);
  });

  it('a draft from draft_reply is posted only by publish with confirm: true, under the matched comment, and the match becomes published', async () => {
    const { account, client } = await withMatches(30, 2);
    const comment = (await entries(client)).find((m) => m.reddit_id.startsWith('t1_'))!;
    const draftId = (await callTool(client, 'draft_reply', { match_id: comment.id })).structuredContent!.id as string;
    const posted = app.reddit.user.comments.length;

    const preview = await callTool(client, 'publish', { generation_id: draftId });
    expect(preview.structuredContent).toMatchObject({ confirmed: false, would_publish: { type: 'comment', target: comment.reddit_id, generation_id: draftId } });
    expect(app.reddit.user.comments.length).toBe(posted);
    expect((await entries(client)).find((m) => m.id === comment.id)!.status).toBe('drafted');

    const published = await callTool(client, 'publish', { generation_id: draftId, confirm: true });
    expect(published.structuredContent, textOf(published)).toMatchObject({ status: 'published', generation_id: draftId });
    expect(app.reddit.user.comments.at(-1)).toMatchObject({ thing_id: comment.reddit_id, author: account.username });
    expect((await entries(client)).find((m) => m.id === comment.id)).toMatchObject({ status: 'published', publication: { id: published.structuredContent!.id } });
    expect(await account.balance()).toBe(30 - PRICES.generate - PRICES.publish);
  });

  it('draft_reply on a match the account does not have is a tool error with its code, and charges nothing', async () => {
    const { matchIds } = await withMatches(0, 1);
    const { account, client } = await withMatches(10, 0);
    for (const matchId of [`mat_${'0'.repeat(28)}`, matchIds[0]!]) {
      const refused = await callTool(client, 'draft_reply', { match_id: matchId });
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent).toMatchObject({ status: 404, code: 'generate.match_not_found' });
      expect(textOf(refused)).toMatch(new RegExp(`^No monitor match ${matchId} in your account.*\\(code generate\\.match_not_found\\)$`));
    }
    expect(await account.balance()).toBe(10);
  });

  it('draft_reply takes a match id only: a post id is refused in the API\'s words, before anything runs', async () => {
    const { account, client } = await withMatches(10, 0);
    const refused = await callTool(client, 'draft_reply', { match_id: 't3_abc' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe('The arguments are not valid: match_id must be a match id: mat_ and 28 hex digits (got "t3_abc"). (code request.invalid)');
    expect(await account.balance()).toBe(10);
  });

  it('a read-only key lists the inbox but cannot draft: draft_reply is a tool error naming the generate scope', async () => {
    const { account, matchIds } = await withMatches(10, 1);
    const { token } = await app.services.keys.createKey(account.accountId, 'reader', { scopes: ['read'] });
    const client = await mcpClient(app.url, token);
    clients.push(client);
    expect((await entries(client)).map((m) => m.id)).toEqual(matchIds);
    const refused = await callTool(client, 'draft_reply', { match_id: matchIds[0] });
    expect(refused.structuredContent).toMatchObject({ status: 403, code: 'auth.insufficient_scope', required_scope: 'generate' });
    expect(await account.balance()).toBe(10);
  });
});
