/**
 * Rewrites of the document @fastify/swagger derives from the routes, each one small and on its own:
 * the routes stay the one source (their schemas validate requests and shape answers), and these passes
 * only add what a route schema cannot say in OpenAPI's terms.
 */
import { STATUS_CODES } from 'node:http';

type Json = Record<string, any>;
type Operation = Json & { operationId?: string; responses: Record<string, Json> };

export const operationsOf = (doc: Json): [path: string, method: string, op: Operation][] =>
  Object.entries(doc.paths as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => [path, method, op] as [string, string, Operation]),
  );

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A schema written with a `title` is a named schema: it moves to components.schemas under that name
 * and every place it appeared refers to it. The same name twice must mean the same schema.
 */
export function nameSchemas(doc: Json): void {
  const named: Record<string, Json> = doc.components.schemas;
  const seen = new Map<string, string>();
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!isObject(node)) return node;
    const children = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, key === 'example' || key === 'examples' ? value : visit(value)]));
    if (typeof node.title !== 'string' || node.$ref) return children;
    const { description, ...schema } = children;
    const text = JSON.stringify(schema);
    const earlier = seen.get(node.title);
    if (earlier !== undefined && earlier !== text) throw new Error(`Two different schemas are named ${node.title}`);
    seen.set(node.title, text);
    named[node.title] = schema;
    return { $ref: `#/components/schemas/${node.title}`, ...(description === undefined ? {} : { description }) };
  };
  doc.paths = visit(doc.paths);
}

/** A success answer @fastify/swagger calls "Default Response" says what it is: "OK: the Scrape". */
export function describeSuccesses(doc: Json): void {
  for (const [, , op] of operationsOf(doc)) {
    for (const [status, response] of Object.entries(op.responses)) {
      if (response.description !== 'Default Response') continue;
      const ref: string | undefined = response.content?.['application/json']?.schema?.$ref;
      response.description = `${STATUS_CODES[status]}${ref ? `: the ${ref.split('/').pop()}` : ''}`;
    }
  }
}

/** HEAD is answered wherever GET is, with the same statuses and headers and no body. */
export function headOperations(doc: Json): void {
  for (const [path, method, op] of operationsOf(doc)) {
    if (method !== 'get') continue;
    const responses = Object.fromEntries(
      Object.entries(op.responses).map(([status, { content: _content, ...response }]) => [status, response]),
    );
    doc.paths[path].head = {
      ...op,
      operationId: `head${op.operationId!.replace(/^(get|list)/, '')}`,
      summary: `${op.summary} — headers only`,
      description: `The same as ${op.operationId} with no body: the status and headers only (free).`,
      responses,
    };
  }
}
