import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { REFUSALS, verifyDelivery } from './signature';

/** The request as n8n's webhook server hands it over: headers and the body's raw bytes. */
interface RawRequest {
	headers: Record<string, string | string[] | undefined>;
	rawBody?: Buffer;
}

/** How many webhook-ids are remembered, so a delivery sent again after a lost answer starts nothing twice. */
const SEEN_IDS = 1000;

/**
 * Starts a workflow on subpilot's signed webhook events (a monitor's matches, a scrape's end, ...).
 * Anyone can POST to the URL, so only a delivery whose signature checks out against the account's
 * secret starts the workflow; a tampered, unsigned or stale one is answered 400 and starts nothing.
 */
export class SubpilotTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Subpilot Trigger',
		name: 'subpilotTrigger',
		icon: 'file:subpilot.svg',
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"].join(", ") || "all events"}}',
		description: 'Starts the workflow when subpilot sends a signed webhook event, such as new monitor matches',
		defaults: { name: 'Subpilot Trigger' },
		inputs: [],
		outputs: ['main'],
		credentials: [{ name: 'subpilotApi', required: true }],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
		properties: [
			{
				displayName:
					"Give this node's production URL to a monitor (its Webhook URL) or a scrape, and put the account's whsec_… secret in the credential",
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				options: [
					{ name: 'Monitor Health', value: 'monitor.health' },
					{ name: 'Monitor Matches', value: 'monitor.matches' },
					{ name: 'Monitor Paused', value: 'monitor.paused' },
					{ name: 'Monitor Resumed', value: 'monitor.resumed' },
					{ name: 'Scrape Completed', value: 'scrape.completed' },
					{ name: 'Scrape Failed', value: 'scrape.failed' },
					{ name: 'Test Event', value: 'webhook.test' },
				],
				default: [],
				description: 'The events that start the workflow (all when empty); others are acknowledged and dropped',
			},
			{
				displayName: 'One Item per Match',
				name: 'splitMatches',
				type: 'boolean',
				default: true,
				description: 'Whether a monitor.matches event gives one item per match (with monitor_id and name) instead of one item',
			},
		],
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const credentials = await this.getCredentials('subpilotApi');
		const request = this.getRequestObject() as unknown as RawRequest;
		const response = this.getResponseObject();
		const verified = verifyDelivery(String(credentials.webhookSecret ?? ''), request.headers, request.rawBody ?? Buffer.alloc(0), Date.now());
		if (!verified.ok) {
			// 400, so subpilot records a failed attempt (and the Webhooks page shows it) instead of a delivery.
			response.status(400).json({ error: verified.reason, detail: REFUSALS[verified.reason] });
			return { noWebhookResponse: true };
		}
		// Step 5: a delivery whose answer was lost comes again with the same webhook-id.
		const staticData = this.getWorkflowStaticData('node') as { seen?: string[] };
		const seen = staticData.seen ?? [];
		if (seen.includes(verified.id)) return { webhookResponse: { duplicate: true } };
		staticData.seen = [...seen, verified.id].slice(-SEEN_IDS);

		const events = this.getNodeParameter('events', []) as string[];
		const { event } = verified;
		if (events.length > 0 && !events.includes(event.type)) return { webhookResponse: { ignored: event.type } };

		const meta = { webhook_id: verified.id, type: event.type, timestamp: event.timestamp };
		const data = (event.data ?? {}) as IDataObject;
		let items: INodeExecutionData[];
		if (event.type === 'monitor.matches' && this.getNodeParameter('splitMatches', true) === true && Array.isArray(data.matches)) {
			const { matches, ...monitor } = data;
			items = (matches as IDataObject[]).map((match) => ({ json: { ...match, monitor, event: meta } }));
		} else {
			items = [{ json: { ...meta, data } }];
		}
		return { workflowData: [items] };
	}
}
