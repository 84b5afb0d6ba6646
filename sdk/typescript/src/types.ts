import type { components, operations, webhooks } from './generated/api.js';
import type { OperationId } from './routes.js';

/** The document's named schemas (`Schemas['Scrape']`, `Schemas['Monitor']`, …). */
export type Schemas = components['schemas'];

type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type Responses<K extends OperationId> = operations[K]['responses'];

/** What a successful call answers: the JSON of its 200, 201 or 202, or nothing for a 204. */
export type Answer<K extends OperationId> = {
  [S in keyof Responses<K>]: S extends 200 | 201 | 202 ? Json<Responses<K>[S]> : S extends 204 ? undefined : never;
}[keyof Responses<K>];

/** The JSON body an operation takes. */
export type Body<K extends OperationId> = operations[K] extends { requestBody?: infer R } ? Json<NonNullable<R>> : never;

/** The query parameters an operation takes. */
export type Query<K extends OperationId> = NonNullable<operations[K]['parameters']['query']>;

/** The operations answered in cursor pages (`{ data, has_more, next_cursor }`, with `cursor` in the query). */
export type PagedOperationId = {
  [K in OperationId]: Query<K> extends { cursor?: string } ? (Answer<K> extends { data: unknown[]; next_cursor: unknown } ? K : never) : never;
}[OperationId];

/** One item of a paged list. */
export type Item<K extends OperationId> = Answer<K> extends { data: (infer I)[] } ? I : never;

/** Every event a webhook delivers, told apart by `type` (`scrape.completed`, `monitor.matches`, …). */
export type WebhookEvent = {
  [E in keyof webhooks]: webhooks[E] extends { post: { requestBody?: infer R } } ? Json<NonNullable<R>> : never;
}[keyof webhooks];
