import type { INodeProperties } from 'n8n-workflow';
import { limit } from './fields';
import { idempotencyKey, listsInBody } from './presend';

const monitorId = (operations: string[], resource = 'monitor'): INodeProperties => ({
	displayName: 'Monitor ID',
	name: 'monitorId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'mon_…',
	description: 'The ID of the monitor',
	displayOptions: { show: { resource: [resource], operation: operations } },
});

/** Monitors (free to create; each match costs PRICE_MONITOR_MATCH) and their matches (docs/api/monitors.md). */
export const monitorOperations: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['monitor'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a monitor',
				description: 'Watch subreddits for new posts and comments with keywords',
				routing: {
					request: { method: 'POST', url: '/api/v1/monitors' },
					// Free, but a retried create must not make a second monitor that charges every match twice.
					send: { preSend: [listsInBody('subreddits', 'keywords', 'sources'), idempotencyKey] },
				},
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a monitor',
				description: 'Get one monitor with its health',
				routing: { request: { method: 'GET', url: '=/api/v1/monitors/{{encodeURIComponent($parameter.monitorId)}}' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many monitors',
				description: 'List the monitors of the account, newest first',
				routing: {
					request: { method: 'GET', url: '/api/v1/monitors' },
					output: { postReceive: [{ type: 'rootProperty', properties: { property: 'data' } }] },
				},
			},
		],
		default: 'create',
	},
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['match'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many matches of a monitor',
				description: 'Newest first, or everything stored after a match ID, oldest first',
				routing: {
					request: { method: 'GET', url: '=/api/v1/monitors/{{encodeURIComponent($parameter.monitorId)}}/matches' },
					output: { postReceive: [{ type: 'rootProperty', properties: { property: 'data' } }] },
				},
			},
		],
		default: 'getAll',
	},
];

const create = { resource: ['monitor'], operation: ['create'] };

export const monitorFields: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		description: 'What the monitor is called (1–64 characters)',
		displayOptions: { show: create },
		routing: { send: { type: 'body', property: 'name' } },
	},
	{
		displayName: 'Subreddits',
		name: 'subreddits',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'r/node, r/typescript',
		description: 'Subreddits separated by commas or new lines',
		displayOptions: { show: create },
		routing: { send: { type: 'body', property: 'subreddits' } },
	},
	{
		displayName: 'Keywords',
		name: 'keywords',
		type: 'string',
		required: true,
		default: '',
		description: 'Keywords separated by commas or new lines',
		displayOptions: { show: create },
		routing: { send: { type: 'body', property: 'keywords' } },
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: create },
		options: [
			{
				displayName: 'Draft Replies',
				name: 'draftReplies',
				type: 'boolean',
				default: false,
				description: 'Whether each delivered match gets a reply draft (billed per draft, never published by itself)',
				routing: { send: { type: 'body', property: 'draft_replies' } },
			},
			{
				displayName: 'Sources',
				name: 'sources',
				type: 'multiOptions',
				options: [
					{ name: 'Posts', value: 'posts' },
					{ name: 'Comments', value: 'comments' },
				],
				default: ['posts'],
				description: 'What to watch: posts, comments or both',
				routing: { send: { type: 'body', property: 'sources' } },
			},
			{
				displayName: 'Webhook URL',
				name: 'webhookUrl',
				type: 'string',
				default: '',
				description: "The Subpilot Trigger's production URL (https), which gets the signed monitor events",
				routing: { send: { type: 'body', property: 'webhook_url' } },
			},
		],
	},
	monitorId(['get']),
	limit('monitor', 'getAll'),
	monitorId(['getAll'], 'match'),
	limit('match', 'getAll'),
	{
		displayName: 'After Match ID',
		name: 'after',
		type: 'string',
		default: '',
		placeholder: 'mat_…',
		description: 'Only the matches stored after this one, oldest first: keep the last ID seen to read each match once',
		displayOptions: { show: { resource: ['match'], operation: ['getAll'] } },
		routing: { send: { type: 'query', property: 'after', value: '={{$value || undefined}}' } },
	},
];
