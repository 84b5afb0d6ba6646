import { createHash, randomUUID } from 'node:crypto';
import { NodeOperationError, type IExecuteSingleFunctions, type IHttpRequestOptions } from 'n8n-workflow';

/**
 * The functions the description's routing runs on each item's request just before it goes out
 * (n8n's `preSend`): what a field's `send` cannot say by itself.
 */

/** "r/node, typescript" or one per line → ['r/node', 'typescript']: n8n has no list-of-strings field. */
export function splitList(value: unknown): string[] {
	if (Array.isArray(value)) return value.map(String).map((part) => part.trim()).filter(Boolean);
	return String(value ?? '')
		.split(/[,\n]/)
		.map((part) => part.trim())
		.filter(Boolean);
}

/**
 * An Idempotency-Key for a billable POST, made once per item: from the execution, the node, the
 * item's index and the body, so n8n's "Retry On Fail" re-sends the same key and the server answers
 * the first outcome instead of charging again (docs/api.md, Idempotency-Key). The body is in it so
 * that a loop sending another body from the same item gets a key of its own (the server refuses a
 * reused key with another body). Without an execution id (nothing to tie retries to), a random one.
 */
export async function idempotencyKey(this: IExecuteSingleFunctions, request: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const executionId = this.getExecutionId();
	const seed = executionId
		? JSON.stringify([executionId, this.getNode().id, this.getItemIndex(), request.method, request.url, request.body ?? null])
		: randomUUID();
	const key = `n8n_${createHash('sha256').update(seed).digest('hex').slice(0, 40)}`;
	return { ...request, headers: { ...request.headers, 'Idempotency-Key': key } };
}

/** The list fields of a body sent as arrays, whatever the person typed. */
export function listsInBody(...names: string[]) {
	return async function (this: IExecuteSingleFunctions, request: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		const body = { ...(request.body as Record<string, unknown> | undefined) };
		for (const name of names) if (name in body) body[name] = splitList(body[name]);
		return { ...request, body };
	};
}

/**
 * Publishing posts on Reddit as the account's user and cannot be taken back; an agent using this
 * node as a tool, or a workflow built in a hurry, must say so explicitly. Refused before any request.
 */
export async function requireConfirm(this: IExecuteSingleFunctions, request: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	if (this.getNodeParameter('confirm', false) !== true) {
		throw new NodeOperationError(this.getNode(), 'Publishing needs "Confirm" set to true', {
			description:
				'Publish posts on Reddit as the connected user and cannot be undone. Set "Confirm" to true to publish this draft.',
			itemIndex: this.getItemIndex(),
		});
	}
	return request;
}
