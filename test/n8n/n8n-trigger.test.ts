import { randomBytes } from 'node:crypto';
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SubpilotTrigger } from '../../integrations/n8n/nodes/SubpilotTrigger/SubpilotTrigger.node.ts';
import { newWebhookSecret, signWebhook } from '../../src/modules/webhooks/webhooks.signing.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { eventually, startReceiver, type Received } from '../support/receiver.ts';

/*
 * The Subpilot Trigger's webhook() given real deliveries of the server's webhook sender, exactly as
 * they arrived (headers and raw bytes). The `this` is what n8n's webhook server hands a trigger,
 * reduced to what the node reads (credentials, the request with its rawBody, the response, its
 * parameters and static data); the same node refused a tampered and a stale delivery in a real n8n
 * (integrations/n8n/README.md, "What was run").
 */
function webhookContext(secret: string, received: Received, parameters: IDataObject = {}, staticData: IDataObject = {}) {
	const answer: { status?: number; body?: unknown } = {};
	const context = {
		getCredentials: async () => ({ apiKey: 'unused', baseUrl: 'unused', webhookSecret: secret }),
		getRequestObject: () => ({ headers: received.headers, rawBody: Buffer.from(received.body, 'utf8') }),
		getResponseObject: () => ({ status: (code: number) => ({ json: (body: unknown) => Object.assign(answer, { status: code, body }) }) }),
		getNodeParameter: (name: string, fallback: unknown) => parameters[name] ?? fallback,
		getWorkflowStaticData: () => staticData,
	};
	return { context: context as unknown as IWebhookFunctions, answer };
}

const trigger = new SubpilotTrigger();
const fire = (secret: string, received: Received, parameters?: IDataObject, staticData?: IDataObject) => {
	const { context, answer } = webhookContext(secret, received, parameters, staticData);
	return trigger.webhook!.call(context).then((result) => ({ result, answer }));
};

describe.each(engines)('the Subpilot Trigger, given real deliveries of the server on %s', (engine) => {
	let app: TestApp;
	let receiver: Awaited<ReturnType<typeof startReceiver>>;
	let account: { accountId: string; token: string };
	beforeAll(async () => {
		app = await startTestApp(engine, { env: { SECRET_KEY: 'e'.repeat(64), ALLOW_HTTP_WEBHOOKS: 'true' } });
		app.reddit.addPost({ subreddit: 'node', title: 'A trigger in n8n' });
		receiver = await startReceiver();
		account = await app.accountWithKey(100);
	});
	afterAll(async () => {
		await receiver?.close();
		await app?.close();
	});

	/** A scrape with the receiver as webhook_url, and the delivery it got, as received. */
	async function delivery(): Promise<Received> {
		const before = receiver.received.length;
		const response = await app.api('POST', '/api/v1/scrape', { token: account.token, body: { subreddits: ['r/node'], keywords: ['trigger'], webhook_url: receiver.url } });
		expect(response.status).toBe(200);
		return eventually(() => receiver.received[before]);
	}

	it('starts the workflow with a real delivery signed with the account secret, once per webhook-id', async () => {
		const secret = await app.services.webhooks.secretFor(account.accountId);
		const received = await delivery();
		const staticData = {};
		const { result, answer } = await fire(secret, received, {}, staticData);
		expect(answer.status).toBeUndefined();
		const [items] = result.workflowData!;
		expect(items).toHaveLength(1);
		expect(items![0]!.json).toMatchObject({ type: 'scrape.completed', webhook_id: received.headers['webhook-id'], data: { status: 'completed' } });
		// The same delivery again (its answer was lost): acknowledged, nothing started.
		expect((await fire(secret, received, {}, staticData)).result).toEqual({ webhookResponse: { duplicate: true } });
		// An event the node is not set to: acknowledged and dropped.
		expect((await fire(secret, received, { events: ['monitor.matches'] })).result).toEqual({ webhookResponse: { ignored: 'scrape.completed' } });
	});

	it('refuses, with a 400 and no workflow, a tampered, re-addressed, unsigned, stale or foreign delivery', async () => {
		const secret = await app.services.webhooks.secretFor(account.accountId);
		const received = await delivery();
		const { headers, body } = received;
		const refused = async (secretUsed: string, changed: Received) => {
			const { result, answer } = await fire(secretUsed, changed);
			expect(result).toEqual({ noWebhookResponse: true });
			expect(answer.status).toBe(400);
			return (answer.body as { error: string }).error;
		};
		expect(await refused(secret, { headers, body: body.replace('completed', 'failed') })).toBe('signature');
		expect(await refused(secret, { headers: { ...headers, 'webhook-id': 'msg_forged' }, body })).toBe('signature');
		expect(await refused(secret, { headers: { ...headers, 'webhook-signature': undefined }, body })).toBe('missing_headers');
		expect(await refused(newWebhookSecret(randomBytes), received)).toBe('signature');
		expect(await refused('', received)).toBe('no_secret');
		// Signed by the server's own signing code 10 minutes ago: a replay.
		const old = Math.floor(Date.now() / 1000) - 600;
		const stale = { ...headers, 'webhook-timestamp': String(old), 'webhook-signature': signWebhook(secret, String(headers['webhook-id']), old, body) };
		expect(await refused(secret, { headers: stale, body })).toBe('timestamp');
	});

	it('accepts either signature while a rolled secret signs beside the new one', async () => {
		const old = await app.services.webhooks.secretFor(account.accountId);
		await app.services.webhooks.rollSecret(account.accountId);
		const current = await app.services.webhooks.secretFor(account.accountId);
		const received = await delivery();
		for (const secret of [old, current]) expect((await fire(secret, received)).result.workflowData).toHaveLength(1);
	});

	it('gives one item per match of a monitor.matches event, each with its monitor', async () => {
		const secret = await app.services.webhooks.secretFor(account.accountId);
		const body = JSON.stringify({ type: 'monitor.matches', timestamp: new Date().toISOString(), data: { monitor_id: 'mon_1', name: 'watch', matches: [{ id: 'mat_1' }, { id: 'mat_2' }] } });
		const now = Math.floor(Date.now() / 1000);
		const headers = { 'webhook-id': 'msg_matches', 'webhook-timestamp': String(now), 'webhook-signature': signWebhook(secret, 'msg_matches', now, body) };
		const [items] = (await fire(secret, { headers, body })).result.workflowData!;
		expect(items!.map((item) => item.json)).toEqual([
			{ id: 'mat_1', monitor: { monitor_id: 'mon_1', name: 'watch' }, event: expect.objectContaining({ type: 'monitor.matches', webhook_id: 'msg_matches' }) },
			{ id: 'mat_2', monitor: { monitor_id: 'mon_1', name: 'watch' }, event: expect.objectContaining({ type: 'monitor.matches' }) },
		]);
	});
});
