import type { INodeProperties } from 'n8n-workflow';
import { idempotencyKey, listsInBody } from './presend';

const show = { resource: ['scrape'], operation: ['create'] };

/** POST /api/v1/scrape: billed per subreddit × keyword (docs/api/scrape.md). */
export const scrapeOperations: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['scrape'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Scrape subreddits for keywords',
				description: 'Find posts in subreddits that mention keywords (billed per subreddit × keyword)',
				routing: {
					request: { method: 'POST', url: '/api/v1/scrape' },
					// Lists first, so the key is made from the body as it is sent.
					send: { preSend: [listsInBody('subreddits', 'keywords', 'sources'), idempotencyKey] },
				},
			},
		],
		default: 'create',
	},
];

export const scrapeFields: INodeProperties[] = [
	{
		displayName: 'Subreddits',
		name: 'subreddits',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'r/node, r/typescript',
		description: 'Subreddits separated by commas or new lines (r/name, name or a Reddit link)',
		displayOptions: { show },
		routing: { send: { type: 'body', property: 'subreddits' } },
	},
	{
		displayName: 'Keywords',
		name: 'keywords',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'kysely, query builder',
		description: 'Keywords separated by commas or new lines',
		displayOptions: { show },
		routing: { send: { type: 'body', property: 'keywords' } },
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Sources',
				name: 'sources',
				type: 'multiOptions',
				options: [
					{ name: 'Posts', value: 'posts' },
					{ name: 'Comments', value: 'comments' },
				],
				default: ['posts'],
				description: 'What to search: posts, comments or both',
				routing: { send: { type: 'body', property: 'sources' } },
			},
			{
				displayName: 'Webhook URL',
				name: 'webhookUrl',
				type: 'string',
				default: '',
				description: 'An https URL that gets the signed scrape.completed or scrape.failed event',
				routing: { send: { type: 'body', property: 'webhook_url' } },
			},
		],
	},
];
