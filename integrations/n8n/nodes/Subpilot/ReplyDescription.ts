import type { INodeProperties } from 'n8n-workflow';
import { limit } from './fields';
import { idempotencyKey, requireConfirm } from './presend';

/** The inbox, a reply draft and publishing it: the loop of docs/api/replies.md. */
export const replyOperations: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['inbox'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many inbox entries',
				description: 'Delivered matches of every monitor, newest first, with their draft and publication',
				routing: {
					request: { method: 'GET', url: '/api/v1/inbox' },
					output: { postReceive: [{ type: 'rootProperty', properties: { property: 'data' } }] },
				},
			},
		],
		default: 'getAll',
	},
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['draft'] } },
		options: [
			{
				name: 'Generate Reply',
				value: 'generateReply',
				action: 'Generate a reply draft',
				description: 'Draft a reply to a match, post or comment with the language model (billed); never publishes',
				routing: {
					request: { method: 'POST', url: '/api/v1/generate', body: { type: 'reply' } },
					send: { preSend: [idempotencyKey] },
				},
			},
		],
		default: 'generateReply',
	},
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['publication'] } },
		options: [
			{
				name: 'Publish Draft',
				value: 'publishDraft',
				action: 'Publish a draft on reddit',
				description: 'Post a stored draft as the connected Reddit user (billed); needs Confirm',
				routing: {
					request: { method: 'POST', url: '/api/v1/publish' },
					// The confirmation is checked first: a refused item sends nothing.
					send: { preSend: [requireConfirm, idempotencyKey] },
				},
			},
		],
		default: 'publishDraft',
	},
];

export const replyFields: INodeProperties[] = [
	{
		displayName: 'Status',
		name: 'status',
		type: 'multiOptions',
		options: [
			{ name: 'Dismissed', value: 'dismissed' },
			{ name: 'Drafted', value: 'drafted' },
			{ name: 'New', value: 'new' },
			{ name: 'Published', value: 'published' },
		],
		default: [],
		description: 'Only entries with these statuses (all when empty)',
		displayOptions: { show: { resource: ['inbox'], operation: ['getAll'] } },
		routing: { send: { type: 'query', property: 'status', value: '={{$value.length ? $value.join(",") : undefined}}' } },
	},
	limit('inbox', 'getAll'),
	{
		displayName: 'Reply To',
		name: 'replyTo',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'mat_… or t3_… or t1_…',
		description: 'A monitor match (its stored text is the context), a post or a comment',
		displayOptions: { show: { resource: ['draft'], operation: ['generateReply'] } },
		routing: { send: { type: 'body', property: 'reply_to' } },
	},
	{
		displayName: 'Instructions',
		name: 'instructions',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		description: 'What the reply should say or do (optional: the context and the account\'s voice may be enough)',
		displayOptions: { show: { resource: ['draft'], operation: ['generateReply'] } },
		routing: { send: { type: 'body', property: 'instructions', value: '={{$value || undefined}}' } },
	},
	{
		displayName: 'Draft ID',
		name: 'generationId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'gen_…',
		description: 'The draft to publish, as Generate Reply returned it',
		displayOptions: { show: { resource: ['publication'], operation: ['publishDraft'] } },
		routing: { send: { type: 'body', property: 'generation_id' } },
	},
	{
		displayName: 'Confirm',
		name: 'confirm',
		type: 'boolean',
		default: false,
		description: 'Whether to publish. Posting on Reddit cannot be undone, so the node refuses unless this is true.',
		displayOptions: { show: { resource: ['publication'], operation: ['publishDraft'] } },
	},
];
