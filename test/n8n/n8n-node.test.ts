import type { ICredentialType, IDataObject, INodeType } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';
import { matchStore } from '../support/matches.ts';
import { startMainApp, type MainApp } from '../support/openapi-contract-apps.ts';
import type { ConnectedAccount } from '../support/publishing.ts';
import { compiledPackage, type Compiled } from './package.ts';
import { runItem, testCredential, type Credentials } from './routing-harness.ts';

/*
 * The Subpilot node and its credential, compiled as published, run against the real server on each
 * engine. The requests are built from the node's own description (routing, preSend) by
 * routing-harness.ts, which says what in it is n8n's and what stands in for n8n-core.
 */
let pkg: Compiled;
beforeAll(async () => {
	pkg = await compiledPackage();
}, 120_000);
afterAll(() => pkg?.close());

it('compiles with tsc --strict under its own tsconfig (CommonJS, as n8n loads it)', () => {
	expect(pkg.tsc).toBe('');
});

describe.each(engines)('the n8n node against a running server on %s', (engine) => {
	let app: MainApp;
	let account: ConnectedAccount;
	let credentials: Credentials;
	let node: INodeType;
	let credential: ICredentialType;
	let store: ReturnType<typeof matchStore>;
	const call = (parameters: IDataObject, options?: { executionId?: string; itemIndex?: number }) => runItem(node, credential, credentials, parameters, options);
	beforeAll(async () => {
		app = await startMainApp(engine);
		app.reddit.addPost({ subreddit: 'node', title: 'An n8n workflow for node' });
		account = await app.connectedAccount(100);
		// A trailing slash, as people paste it: the description trims it.
		credentials = { apiKey: account.token, baseUrl: `${app.url}/` };
		[node, credential] = [new pkg.Subpilot(), new pkg.SubpilotApi()];
		store = matchStore(app.services.db); // one per database: it numbers the matches it stores
	}, 60_000);
	afterAll(() => app?.close());

	it('is usable as a tool, and its credential test passes with a good key and fails with a revoked one', async () => {
		expect(node.description.usableAsTool).toBe(true);
		expect(await testCredential(node, credential, credentials)).toEqual({ ok: true, status: 200 });
		const spare = await app.accountWithKey(0);
		await app.services.keys.revokeKey(spare.accountId, { prefix: spare.token.slice(0, 16) });
		expect(await testCredential(node, credential, { ...credentials, apiKey: spare.token })).toEqual({ ok: false, status: 401 });
	});

	it('scrapes with the lists as typed and an Idempotency-Key made once per item: a retry of the item is replayed, not paid again', async () => {
		const first = await call({ resource: 'scrape', operation: 'create', subreddits: 'r/node', keywords: 'n8n' }, { executionId: 'exec-1' });
		expect(first.sent.body).toEqual({ subreddits: ['r/node'], keywords: ['n8n'] });
		expect(first.sent.headers.Authorization).toBe(`Bearer ${account.token}`);
		expect(first.status).toBe(200);
		expect(first.items[0]).toMatchObject({ status: 'completed', credits: { charged: 1, balance: 99 } });
		expect((first.items[0]!.results as IDataObject[]).map((r) => r.title)).toEqual(['An n8n workflow for node']);
		// n8n's "Retry On Fail" runs the item again in the same execution: the same key, the first answer.
		const retry = await call({ resource: 'scrape', operation: 'create', subreddits: 'r/node', keywords: 'n8n' }, { executionId: 'exec-1' });
		expect(retry.sent.headers['Idempotency-Key']).toBe(first.sent.headers['Idempotency-Key']);
		expect(retry.headers.get('idempotent-replayed')).toBe('true');
		expect(retry.items[0]!.id).toBe(first.items[0]!.id);
		// Another item, or another execution, is another scrape.
		const other = await call({ resource: 'scrape', operation: 'create', subreddits: 'r/node', keywords: 'n8n' }, { executionId: 'exec-1', itemIndex: 1 });
		expect(other.sent.headers['Idempotency-Key']).not.toBe(first.sent.headers['Idempotency-Key']);
		expect(other.items[0]).toMatchObject({ credits: { charged: 1, balance: 98 } });
		expect(await ledgerSum(app.services.db, account.accountId)).toBe(await account.balance());
	});

	it('creates, gets and lists monitors, lists its matches (all, then after one) and the inbox', async () => {
		const created = await call({
			resource: 'monitor',
			operation: 'create',
			name: 'n8n watch',
			subreddits: 'r/node\nr/typescript',
			keywords: 'n8n, workflow',
			additionalFields: { sources: ['posts', 'comments'] },
		});
		expect(created.status).toBe(201);
		expect(created.sent.headers['Idempotency-Key']).toMatch(/^n8n_[0-9a-f]{40}$/);
		expect(created.items[0]).toMatchObject({ name: 'n8n watch', subreddits: ['r/node', 'r/typescript'], keywords: ['n8n', 'workflow'], sources: ['posts', 'comments'] });
		const id = String(created.items[0]!.id);
		expect((await call({ resource: 'monitor', operation: 'get', monitorId: id })).items[0]).toMatchObject({ id, health: expect.any(Object) });
		const list = await call({ resource: 'monitor', operation: 'getAll', limit: 10 });
		expect(list.sent.url).toMatch(/\/api\/v1\/monitors\?limit=10$/);
		expect(list.items.map((m) => m.id)).toEqual([id]);

		const stored = await store(id, account.accountId, 3);
		const matches = await call({ resource: 'match', operation: 'getAll', monitorId: id });
		expect(matches.items.map((m) => m.id)).toEqual([...stored].reverse());
		const after = await call({ resource: 'match', operation: 'getAll', monitorId: id, after: stored[0] });
		expect(after.sent.url).toContain(`after=${stored[0]}`);
		expect(after.items.map((m) => m.id)).toEqual(stored.slice(1));
		const inbox = await call({ resource: 'inbox', operation: 'getAll', status: ['new'], limit: 2 });
		expect(inbox.sent.url).toMatch(/status=new&limit=2$/);
		expect(inbox.items.map((m) => m.id)).toEqual([stored[2], stored[1]]);
	});

	it('drafts a reply to a match, refuses to publish it without Confirm (nothing sent), and publishes it with Confirm', async () => {
		const monitor = await call({ resource: 'monitor', operation: 'create', name: 'to reply', subreddits: 'r/node', keywords: 'n8n' });
		const [matchId] = await store(String(monitor.items[0]!.id), account.accountId, 1);
		const before = await account.balance();
		const draft = await call({ resource: 'draft', operation: 'generateReply', replyTo: matchId, instructions: 'Short and kind' }, { executionId: 'exec-2' });
		expect(draft.sent.body).toEqual({ type: 'reply', reply_to: matchId, instructions: 'Short and kind' });
		expect(draft.sent.headers['Idempotency-Key']).toMatch(/^n8n_/);
		expect(draft.items[0]).toMatchObject({ status: 'completed', match_id: matchId, credits: { charged: 5, balance: before - 5 } });
		const draftId = String(draft.items[0]!.id);

		const publications = () => app.services.db.selectFrom('publications').select('id').where('account_id', '=', account.accountId).execute();
		for (const confirm of [undefined, false]) {
			const refused = await call({ resource: 'publication', operation: 'publishDraft', generationId: draftId, ...(confirm === undefined ? {} : { confirm }) }).then(
				() => 'sent',
				(error: Error) => error.message,
			);
			expect(refused).toBe('Publishing needs "Confirm" set to true');
		}
		expect(await publications()).toEqual([]);
		const published = await call({ resource: 'publication', operation: 'publishDraft', generationId: draftId, confirm: true });
		expect(published.items[0]).toMatchObject({ status: 'published', generation_id: draftId, credits: { charged: 10, balance: before - 15 } });
		expect(await ledgerSum(app.services.db, account.accountId)).toBe(await account.balance());
	});
});
