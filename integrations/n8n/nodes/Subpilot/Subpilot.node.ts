import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { monitorFields, monitorOperations } from './MonitorDescription';
import { replyFields, replyOperations } from './ReplyDescription';
import { scrapeFields, scrapeOperations } from './ScrapeDescription';

/**
 * The subpilot API as an n8n node, declarative: every operation is a `routing` in the description,
 * so n8n itself builds, authenticates and sends the request and no `execute` of ours runs. The few
 * things routing cannot say (lists typed as text, the Idempotency-Key, publish's confirmation) are
 * `preSend` functions in presend.ts.
 */
export class Subpilot implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Subpilot',
		name: 'subpilot',
		icon: 'file:subpilot.svg',
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Scrape and monitor Reddit, draft and publish replies, billed in subpilot credits',
		defaults: { name: 'Subpilot' },
		inputs: ['main'],
		outputs: ['main'],
		// n8n's AI Agent may call it as a tool; publishing still needs Confirm set to true.
		usableAsTool: true,
		credentials: [{ name: 'subpilotApi', required: true }],
		requestDefaults: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
		},
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Draft', value: 'draft' },
					{ name: 'Inbox', value: 'inbox' },
					{ name: 'Match', value: 'match' },
					{ name: 'Monitor', value: 'monitor' },
					{ name: 'Publication', value: 'publication' },
					{ name: 'Scrape', value: 'scrape' },
				],
				default: 'scrape',
			},
			...scrapeOperations,
			...monitorOperations,
			...replyOperations,
			...scrapeFields,
			...monitorFields,
			...replyFields,
		],
	};
}
