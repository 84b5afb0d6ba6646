import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { csrfIn, type PageResponse } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';
import type { ConnectedAccount } from '../support/publishing.ts';
import { foundMatches, startInboxApp, type Found, type InboxApp } from './inbox-fixture.ts';

const PRICE = { match: 1, draft: 5, publish: 10 };
const START = 100;

/** What the page shows of a text: escaped as the `html` template escapes it. */
const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
const attemptIn = (body: string) => /name="attempt" value="([^"]+)"/.exec(body)![1]!;

describe.each(engines)('the dashboard’s Inbox on %s', (engine) => {
  let inboxApp: InboxApp;
  const accounts: ConnectedAccount[] = [];
  beforeAll(async () => {
    inboxApp = await startInboxApp(engine);
  });
  afterAll(() => inboxApp.app.close());
  // Every move is written down and nothing is left held: each account's ledger sums to what it can spend.
  afterEach(async () => {
    for (const account of accounts.splice(0)) expect(await ledgerSum(inboxApp.app.services.db, account.accountId)).toBe(await account.balance());
  });

  async function member(): Promise<{ account: ConnectedAccount; found: Found }> {
    const account = await inboxApp.app.connectedAccount(START);
    accounts.push(account);
    return { account, found: await foundMatches(inboxApp, account) };
  }
  const item = (account: ConnectedAccount, matchId: string) => inboxApp.app.services.inbox.get(account.accountId, matchId);
  const post = (account: ConnectedAccount, action: string, fields: Record<string, string>) => account.dashboard.submit('/dashboard/inbox', action, fields);
  /** Drafts a reply to the match through its form and follows the answer back to the inbox. */
  async function drafted(account: ConnectedAccount, matchId: string, fields: Record<string, string> = {}): Promise<PageResponse> {
    const answer = await post(account, `/dashboard/inbox/${matchId}/draft`, { return_to: '/dashboard/inbox', instructions: '', ...fields });
    expect(answer.status, answer.body).toBe(303);
    return account.dashboard.get(answer.location!);
  }

  it('lists a new match with its context, after Monitors in the menu, with Draft reply and Dismiss', async () => {
    const { account, found } = await member();
    const page = await account.dashboard.get('/dashboard/inbox');
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/>Monitors<\/a>\s*<a href="\/dashboard\/inbox" aria-current="page">Inbox<\/a>/);
    expect(page.body).toContain(`<li class="inbox-entry" id="${found.comment.matchId}">`);
    expect(page.body).toContain('Comment by <span class="redditor">u/<bdi>curious_dev</bdi></span> on “<bdi>Which query builder for Node?</bdi>”');
    expect(page.body).toContain(escaped(found.comment.body));
    expect(page.body).toContain(`<bdi>${found.post.title}</bdi>`);
    expect(page.body).toContain('<span class="badge badge-new">new</span>');
    expect(page.body).toContain(`action="/dashboard/inbox/${found.comment.matchId}/draft"`);
    expect(page.body).toContain('>Dismiss</button>');
    const tab = await account.dashboard.get('/dashboard/inbox?status=drafted');
    expect(tab.body).toContain('No matches here');
    expect(tab.body).toContain('<a href="/dashboard/inbox?status=drafted" aria-current="page">Drafted</a>');
    expect(await account.balance()).toBe(START - 2 * PRICE.match);
  });

  it('drafts a reply from the stored comment (no Reddit read), charged once, and shows it for editing on a drafted match', async () => {
    const { account, found } = await member();
    const reads = inboxApp.app.reddit.requests.length;
    const answer = await post(account, `/dashboard/inbox/${found.comment.matchId}/draft`, {
      return_to: '/dashboard/inbox?status=new',
      instructions: 'Mention the migration guide.',
    });
    expect(answer.status, answer.body).toBe(303);
    expect(answer.location).toBe(`/dashboard/inbox?status=new&done=drafted&match=${found.comment.matchId}#${found.comment.matchId}`);
    expect(inboxApp.app.reddit.requests.length).toBe(reads);

    const match = await item(account, found.comment.matchId);
    expect(match).toMatchObject({ status: 'drafted', draft: { status: 'completed', edited_at: null } });
    const prompt = inboxApp.app.llm.requests.at(-1)!.body.messages.at(-1)!.content;
    expect(prompt).toContain(`"comment_author":"u/curious_dev","comment_body":${JSON.stringify(found.comment.body)}`);
    expect(prompt).toContain('Instructions: Mention the migration guide.');

    // The "New" tab no longer holds it: the entry is shown above the list, with the draft in its text box.
    const page = await account.dashboard.get(answer.location!);
    expect(page.body).toContain('The draft is written');
    expect(page.body).toContain('No longer in this list');
    expect(page.body).toContain(`${escaped(match.draft!.body!)}</textarea>`);
    expect(page.body).toContain('>Approve and publish…</button>');
    expect(await account.balance()).toBe(START - 2 * PRICE.match - PRICE.draft);
  });

  it('refuses instructions over 2,000 characters in words, keeping what was typed, and charges nothing: the rule the API and MCP apply', async () => {
    const { account, found } = await member();
    const long = 'Mention the guide. '.repeat(106); // 2,014 characters
    const before = await account.balance();
    const refused = await post(account, `/dashboard/inbox/${found.comment.matchId}/draft`, { return_to: '/dashboard/inbox', instructions: long });
    expect(refused.status).toBe(422);
    expect(refused.body).toContain('The draft is not valid: instructions is 1 to 2000 characters long.');
    expect(refused.body).toContain(long.trim());
    expect(await account.balance()).toBe(before);
    expect((await item(account, found.comment.matchId)).status).toBe('new');
  });

  it('saves an edited draft with the line breaks typed, and refuses an empty one in words without changing it', async () => {
    const { account, found } = await member();
    await drafted(account, found.post.matchId);
    const draftId = (await item(account, found.post.matchId)).draft!.id;
    // A browser posts a text box's line breaks as CRLF.
    const saved = await post(account, `/dashboard/inbox/${found.post.matchId}/reply`, { return_to: '/dashboard/inbox', then: 'save', body: 'Worth it:\r\ntypes all the way.' });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`/dashboard/inbox?done=saved&match=${found.post.matchId}#${found.post.matchId}`);
    const draft = await inboxApp.app.services.generate.get(account.accountId, draftId);
    expect(draft).toMatchObject({ body: 'Worth it:\ntypes all the way.', edited_at: expect.any(String) });
    expect((await account.dashboard.get(saved.location!)).body).toContain('Worth it:\ntypes all the way.</textarea>');

    const empty = await post(account, `/dashboard/inbox/${found.post.matchId}/reply`, { return_to: '/dashboard/inbox', then: 'save', body: '  ' });
    expect(empty.status).toBe(422);
    expect(empty.body).toContain('The reply is empty: write something, or dismiss the match.');
    expect((await inboxApp.app.services.generate.get(account.accountId, draftId)).body).toBe('Worth it:\ntypes all the way.');
  });

  it('dismisses a match and restores it, and a drafted match comes back drafted', async () => {
    const { account, found } = await member();
    const dismissed = await post(account, `/dashboard/inbox/${found.post.matchId}/status`, { return_to: '/dashboard/inbox', status: 'dismissed' });
    expect(dismissed.status).toBe(303);
    expect((await item(account, found.post.matchId)).status).toBe('dismissed');
    const tab = await account.dashboard.get('/dashboard/inbox?status=dismissed');
    expect(tab.body).toContain(`id="${found.post.matchId}"`);
    expect(tab.body).not.toContain(`id="${found.comment.matchId}"`);
    expect(tab.body).toContain('>Restore</button>');
    expect((await post(account, `/dashboard/inbox/${found.post.matchId}/status`, { return_to: '/dashboard/inbox', status: 'new' })).status).toBe(303);
    expect((await item(account, found.post.matchId)).status).toBe('new');

    await drafted(account, found.comment.matchId);
    await post(account, `/dashboard/inbox/${found.comment.matchId}/status`, { return_to: '/dashboard/inbox', status: 'dismissed' });
    await post(account, `/dashboard/inbox/${found.comment.matchId}/status`, { return_to: '/dashboard/inbox', status: 'new' });
    expect((await item(account, found.comment.matchId)).status).toBe('drafted');
  });

  it('publishes an approved draft through the confirm step, under the comment it answers, and shows the match published with its link', async () => {
    const { account, found } = await member();
    await drafted(account, found.comment.matchId);
    const draftId = (await item(account, found.comment.matchId)).draft!.id;
    const text = 'Yes: we run Kysely on PostgreSQL 16, and the migration guide helped.';
    const approved = await post(account, `/dashboard/inbox/${found.comment.matchId}/reply`, { return_to: '/dashboard/inbox?status=drafted', then: 'publish', body: text });
    expect(approved.status).toBe(303);
    expect(approved.location).toBe(`/dashboard/drafts/${draftId}/publish?return_to=${encodeURIComponent('/dashboard/inbox?status=drafted')}`);

    const confirm = await account.dashboard.get(approved.location!);
    expect(confirm.status).toBe(200);
    expect(confirm.body).toContain('<h1>Publish this reply?</h1>');
    expect(confirm.body).toContain(`<div class="written-text"><bdi>${escaped(text)}</bdi></div>`);
    expect(confirm.body).toContain(`A reply to the comment by <span class="redditor">u/<bdi>curious_dev</bdi></span> (<a href="https://www.reddit.com/r/`);
    expect(confirm.body).toContain(`<code>${found.comment.redditId}</code></a>) on “<bdi>Which query builder for Node?</bdi>”`);
    expect(confirm.body).toContain(`As</dt><dd><span class="redditor">u/<bdi>${account.username}</bdi></span>`);
    expect(confirm.body).toContain(`${PRICE.publish} credits, charged only once Reddit takes it`);
    expect(inboxApp.app.reddit.user.comments.filter((c) => c.author === account.username)).toEqual([]);

    const fields = { csrf: csrfIn(confirm.body), return_to: '/dashboard/inbox?status=drafted', attempt: attemptIn(confirm.body) };
    const published = await account.dashboard.post(`/dashboard/drafts/${draftId}/publish`, fields);
    expect(published.status, published.body).toBe(303);
    expect(published.location).toBe(`/dashboard/inbox?status=drafted&done=published&match=${found.comment.matchId}#${found.comment.matchId}`);
    // A second press of the same confirmation is its replay: nothing more is posted or charged.
    expect((await account.dashboard.post(`/dashboard/drafts/${draftId}/publish`, fields)).status).toBe(303);
    const posted = inboxApp.app.reddit.user.comments.filter((c) => c.author === account.username);
    expect(posted).toEqual([expect.objectContaining({ thing_id: found.comment.redditId, text })]);

    const match = await item(account, found.comment.matchId);
    expect(match).toMatchObject({ status: 'published', publication: { status: 'published', author: account.username } });
    const page = await account.dashboard.get(published.location!);
    expect(page.body).toContain('Published on Reddit.');
    expect(page.body).toContain('<span class="badge badge-published">published</span>');
    expect(page.body).toContain(`Published as <span class="redditor">u/<bdi>${account.username}</bdi></span>: <a href="${match.publication!.permalink}" target="_blank" rel="noopener noreferrer">the reply on Reddit</a>`);
    expect(await account.balance()).toBe(START - 2 * PRICE.match - PRICE.draft - PRICE.publish);
  });

  it('offers the same confirm step from a draft’s own page, which then leads to the publication’s page', async () => {
    const { account, found } = await member();
    await drafted(account, found.post.matchId);
    const draftId = (await item(account, found.post.matchId)).draft!.id;
    expect((await account.dashboard.get(`/dashboard/drafts/${draftId}`)).body).toContain(`<a href="/dashboard/drafts/${draftId}/publish">Review and publish…</a>`);
    const confirm = await account.dashboard.get(`/dashboard/drafts/${draftId}/publish`);
    expect(confirm.body).toContain(`A comment on the post “<bdi>${found.post.title}</bdi>” by`);
    expect(confirm.body).toContain(`<a href="/dashboard/drafts/${draftId}">Cancel</a>`);
    const published = await account.dashboard.post(`/dashboard/drafts/${draftId}/publish`, { csrf: csrfIn(confirm.body), attempt: attemptIn(confirm.body) });
    expect(published.status).toBe(303);
    expect(published.location).toMatch(/^\/dashboard\/publications\/pub_[0-9a-f]+$/);
    expect((await item(account, found.post.matchId)).status).toBe('published');
  });

  it('shows a rail’s refusal beside Confirm and charges nothing for it', async () => {
    const { account, found } = await member();
    for (const { matchId } of [found.comment, found.post]) await drafted(account, matchId);
    // Its own words: the same text twice would meet the duplicate rail first.
    await post(account, `/dashboard/inbox/${found.post.matchId}/reply`, { return_to: '/dashboard/inbox', then: 'save', body: 'Worth it for the types alone.' });
    const publish = async (matchId: string) => {
      const draftId = (await item(account, matchId)).draft!.id;
      const confirm = await account.dashboard.get(`/dashboard/drafts/${draftId}/publish?return_to=%2Fdashboard%2Finbox`);
      return account.dashboard.post(`/dashboard/drafts/${draftId}/publish`, { csrf: csrfIn(confirm.body), return_to: '/dashboard/inbox', attempt: attemptIn(confirm.body) });
    };
    expect((await publish(found.comment.matchId)).status).toBe(303);
    const before = await account.balance();
    // The same subreddit again within 10 minutes: the per-subreddit pace refuses it before anything is held.
    const refused = await publish(found.post.matchId);
    expect(refused.status).toBe(429);
    const beside = /<p class="alert alert-error" role="alert">([^<]+)<\/p>\s*<form method="post" action="\/dashboard\/drafts\/gen_[0-9a-f]+\/publish"/.exec(refused.body);
    expect(beside?.[1]).toMatch(/published in r\/inbox\d+ once within the last 10 minutes.*Nothing was recorded or charged\.$/);
    expect(await account.balance()).toBe(before);
    expect((await item(account, found.post.matchId)).status).toBe('drafted');
  });

  it('offers no Confirm while the account has no Reddit connection, and links to Connections instead', async () => {
    const account = await inboxApp.app.connectedAccount(START, { connect: false });
    accounts.push(account);
    const found = await foundMatches(inboxApp, account);
    await drafted(account, found.post.matchId);
    const draftId = (await item(account, found.post.matchId)).draft!.id;
    const confirm = await account.dashboard.get(`/dashboard/drafts/${draftId}/publish?return_to=%2Fdashboard%2Finbox`);
    expect(confirm.status).toBe(409);
    expect(confirm.body).toContain('This account has no connected Reddit identity.');
    expect(confirm.body).toContain('<a href="/dashboard/connections">Connect Reddit on Connections</a>');
    expect(confirm.body).toContain(`<a href="/dashboard/inbox#${found.post.matchId}">← Back</a>`);
    expect(confirm.body).not.toContain('Confirm and publish');
  });

  it('saves the voice for drafts, shows it back, refuses one over 1,000 characters, and gives it to the model with the next draft', async () => {
    const { account, found } = await member();
    const voice = 'Dry humour; I maintain two Kysely plugins and say so.';
    const saved = await post(account, '/dashboard/inbox/voice', { return_to: '/dashboard/inbox', voice });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe('/dashboard/inbox?done=voice#voice');
    expect((await inboxApp.app.services.accountSettings.settings(account.accountId)).voice).toBe(voice);
    const page = await account.dashboard.get(saved.location!);
    expect(page.body).toContain(`>${escaped(voice)}</textarea>`);

    const long = await post(account, '/dashboard/inbox/voice', { return_to: '/dashboard/inbox', voice: 'x'.repeat(1001) });
    expect(long.status).toBe(422);
    expect(long.body).toContain('A voice is at most 1,000 characters');
    expect(long.body).toContain(`>${'x'.repeat(1001)}</textarea>`);
    expect((await inboxApp.app.services.accountSettings.settings(account.accountId)).voice).toBe(voice);

    await drafted(account, found.post.matchId);
    expect(inboxApp.app.llm.requests.at(-1)!.body.messages.at(-1)!.content).toContain(`Voice: ${voice}`);
  });

  it('keeps another account’s matches out of sight and out of reach, and a forged form does nothing', async () => {
    const { account, found } = await member();
    const other = await inboxApp.app.connectedAccount(START, { connect: false });
    accounts.push(other);
    expect((await other.dashboard.get('/dashboard/inbox')).body).toContain('No matches yet');
    const theirs = await post(other, `/dashboard/inbox/${found.comment.matchId}/draft`, { return_to: '/dashboard/inbox', instructions: '' });
    expect(theirs.status).toBe(404);
    expect((await post(other, `/dashboard/inbox/${found.comment.matchId}/status`, { return_to: '/dashboard/inbox', status: 'dismissed' })).status).toBe(404);
    expect(await other.balance()).toBe(START);

    const forged = await account.dashboard.post(`/dashboard/inbox/${found.comment.matchId}/draft`, { return_to: '/dashboard/inbox', instructions: '' });
    expect(forged.status).toBe(403);
    expect(await item(account, found.comment.matchId)).toMatchObject({ status: 'new', draft: null });
  });
});
