import type { INodeProperties } from 'n8n-workflow';

/** The page size of a list operation, sent as the API's `limit` query parameter (every list takes one). */
export const limit = (resource: string, operation: string): INodeProperties => ({
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 50,
	description: 'Max number of results to return',
	displayOptions: { show: { resource: [resource], operation: [operation] } },
	routing: { send: { type: 'query', property: 'limit' } },
});
