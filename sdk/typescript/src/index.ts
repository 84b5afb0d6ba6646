export { Subpilot, type CallOptions, type KeyedOptions, type SubpilotOptions } from './client.js';
export { SubpilotConnectionError, SubpilotError, WebhookVerificationError, type ErrorCode, type Problem } from './errors.js';
export { parseRetryAfter } from './retry.js';
export { KEYED, ROUTES, type Method, type OperationId } from './routes.js';
export type { ResponseMeta } from './transport.js';
export type { Answer, Body, Item, PagedOperationId, Query, Schemas, WebhookEvent } from './types.js';
export { verifyWebhook, type HeadersLike, type VerifyOptions } from './webhooks.js';
