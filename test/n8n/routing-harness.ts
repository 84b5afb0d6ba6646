import type { ICredentialType, IDataObject, IHttpRequestOptions, INode, INodeProperties, INodeType, PreSendAction } from 'n8n-workflow';
import { createRequire } from 'node:module';

// n8n loads nodes and n8n-workflow as CommonJS; the package's ES build does not load in plain Node
// (it imports a name @n8n/tournament's CommonJS build does not declare), so the tests take the same build n8n does.
const { NodeHelpers, Workflow } = createRequire(import.meta.url)('n8n-workflow') as typeof import('n8n-workflow');
type Workflow = import('n8n-workflow').Workflow;

/*
 * The smallest honest stand-in for n8n-core's RoutingNode, which the root suite cannot load: n8n-core
 * brings the AWS SDK, LangChain, Sentry and ssh2 (1.8 GB with n8n, see integrations/n8n/README.md).
 * What is n8n's here is real: n8n-workflow (a devDependency) resolves the parameters (defaults, what
 * each operation shows) and evaluates every expression of the description ($value, $parameter,
 * $credentials). What this file does itself is what RoutingNode does with them: the operation's
 * `routing.request`, each shown field's `routing.send` into the body or the query, the credential's
 * `authenticate` header, the `preSend` functions in order, a fetch, and `rootProperty` on the
 * answer. The same description was run by a real n8n 1.123.81 (the README's "What was run").
 */

export interface Credentials { apiKey: string; baseUrl: string; webhookSecret?: string }

export interface Sent { method: string; url: string; headers: Record<string, string>; body: IDataObject | undefined }

export interface Answer { status: number; headers: Headers; body: unknown; items: IDataObject[]; sent: Sent }

const nodeTypes = (nodeType: INodeType) => ({
	getByName: () => nodeType,
	getByNameAndVersion: () => nodeType,
	getKnownTypes: () => ({}),
});

/** The node as a workflow holds it, its parameters resolved by n8n-workflow as the editor would save them. */
function workflowOf(nodeType: INodeType, parameters: IDataObject) {
	const { description } = nodeType;
	const node: INode = { id: 'node-1', name: 'Subpilot', type: `CUSTOM.${description.name}`, typeVersion: 1, position: [0, 0], parameters: {} };
	node.parameters = NodeHelpers.getNodeParameters(description.properties, parameters as never, true, false, node, description) ?? {};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: nodeTypes(nodeType) as never });
	return { node, workflow };
}

/** An expression of the description (`=…`) evaluated by n8n-workflow; anything else as it is. */
function evaluate(workflow: Workflow, node: INode, value: unknown, keys: Record<string, unknown>): unknown {
	if (typeof value !== 'string' || !value.startsWith('=')) return value;
	return workflow.expression.getSimpleParameterValue(node, value, 'manual', keys as never);
}

const shown = (property: INodeProperties, node: INode, nodeType: INodeType) =>
	NodeHelpers.displayParameter(node.parameters, property, node, nodeType.description);

/** The request the description makes of one item, before its preSend functions. */
function requestOf(nodeType: INodeType, credential: ICredentialType, workflow: Workflow, node: INode, credentials: Credentials) {
	const keys = { $credentials: credentials };
	const { requestDefaults } = nodeType.description;
	const request: IHttpRequestOptions & { baseURL?: string } = {
		url: '',
		baseURL: String(evaluate(workflow, node, requestDefaults?.baseURL, keys)),
		headers: { ...(requestDefaults?.headers as Record<string, string>) },
	};
	const body: IDataObject = {};
	const query: IDataObject = {};
	const preSend: PreSendAction[] = [];
	const postReceive: unknown[] = [];
	const send = (property: { name: string; routing?: INodeProperties['routing'] }, value: unknown) => {
		const routing = property.routing?.send;
		if (!routing?.type) return;
		const sent = evaluate(workflow, node, routing.value ?? value, { ...keys, $value: value });
		if (sent !== undefined) (routing.type === 'body' ? body : query)[routing.property ?? property.name] = sent as IDataObject;
	};
	for (const property of nodeType.description.properties.filter((p) => shown(p, node, nodeType))) {
		const value = node.parameters[property.name];
		if (property.name === 'operation') {
			const option = property.options?.find((o) => 'value' in o && o.value === value) as { routing?: INodeProperties['routing'] } | undefined;
			const { method, url, body: fixed } = option?.routing?.request ?? {};
			Object.assign(request, { method, url: String(evaluate(workflow, node, url, keys)) });
			Object.assign(body, fixed);
			preSend.push(...(option?.routing?.send?.preSend ?? []));
			postReceive.push(...(option?.routing?.output?.postReceive ?? []));
		} else if (property.type === 'collection') {
			// Only the fields the person added to the collection are sent.
			for (const option of (property.options ?? []) as INodeProperties[]) {
				if (option.name in ((value as IDataObject) ?? {})) send(option, (value as IDataObject)[option.name]);
			}
		} else send(property, value);
	}
	const auth = credential.authenticate as { properties: { headers: Record<string, string> } };
	for (const [name, template] of Object.entries(auth.properties.headers)) request.headers![name] = String(evaluate(workflow, node, template, keys));
	if (Object.keys(body).length) request.body = body;
	request.qs = query;
	return { request, preSend, postReceive };
}

/** The `this` n8n gives a preSend function (IExecuteSingleFunctions), as far as ours use it. */
const singleFunctions = (node: INode, itemIndex: number, executionId: string | undefined) => ({
	getNode: () => node,
	getItemIndex: () => itemIndex,
	getExecutionId: () => executionId,
	getNodeParameter: (name: string, fallback?: unknown) => node.parameters[name] ?? fallback,
});

/** One item of a declarative node, as n8n runs it: the request built, authenticated, pre-sent and sent. */
export async function runItem(
	nodeType: INodeType,
	credential: ICredentialType,
	credentials: Credentials,
	parameters: IDataObject,
	options: { executionId?: string; itemIndex?: number } = {},
): Promise<Answer> {
	const { node, workflow } = workflowOf(nodeType, parameters);
	const built = requestOf(nodeType, credential, workflow, node, credentials);
	let request = built.request;
	for (const action of built.preSend) request = await action.call(singleFunctions(node, options.itemIndex ?? 0, options.executionId) as never, request);
	const url = new URL(`${request.baseURL}${request.url}`);
	for (const [name, value] of Object.entries(request.qs ?? {})) url.searchParams.set(name, String(value));
	const sent: Sent = { method: request.method ?? 'GET', url: url.toString(), headers: request.headers as Record<string, string>, body: request.body as IDataObject | undefined };
	const response = await fetch(url, { method: sent.method, headers: sent.headers, body: sent.body === undefined ? undefined : JSON.stringify(sent.body) });
	const body = (await response.json()) as IDataObject;
	const rooted = built.postReceive.some((action) => (action as { type?: string }).type === 'rootProperty');
	const items = !response.ok ? [] : rooted ? (body.data as IDataObject[]) : [body];
	return { status: response.status, headers: response.headers, body, items, sent };
}

/** n8n's credential test: the credential's `test` request, authenticated; a 2xx passes it. */
export async function testCredential(nodeType: INodeType, credential: ICredentialType, credentials: Credentials): Promise<{ ok: boolean; status: number }> {
	const { node, workflow } = workflowOf(nodeType, {});
	const keys = { $credentials: credentials };
	const test = credential.test!.request;
	const headers: Record<string, string> = {};
	const auth = credential.authenticate as { properties: { headers: Record<string, string> } };
	for (const [name, template] of Object.entries(auth.properties.headers)) headers[name] = String(evaluate(workflow, node, template, keys));
	const response = await fetch(`${String(evaluate(workflow, node, test.baseURL, keys))}${test.url}`, { headers });
	return { ok: response.ok, status: response.status };
}
