import type { SwaggerOptions } from '@fastify/swagger';
import type { Config } from '../../shared/config/config.ts';
import { problemsOf } from '../api.describe.ts';
import { declareHeaders } from './openapi.headers.ts';
import { addExamples } from './openapi.examples.ts';
import { webhookSchemas, webhooksSection } from './openapi.webhooks.ts';
import { describeSuccesses, headOperations, nameSchemas, operationsOf } from './openapi.passes.ts';

type Json = Record<string, any>;

const DESCRIPTION = `Credit-billed Reddit automation: scrape, monitors, drafts from a language model, publishing.

Every /api/v1/ call passes the same checks in this order, and the first that fails answers: the key
(401) → its scope (403 \`auth.insufficient_scope\`) → the rate limits (429) → the request itself
(400/413/415/422) → the Idempotency-Key (400/409/422) → credits (402). Errors are RFC 9457
\`application/problem+json\` with a stable \`code\`; each response below lists the codes it can carry.

Every GET is also answered to HEAD: the same status and headers, no body. This document describes
each HEAD beside its GET (headScrape beside getScrape); the reference page at /docs lists the pair once,
as the GET. Guides to the API, its queries, monitors, webhooks and rails are at [/docs/guides](/docs/guides).`;

const TAGS = [
  { name: 'credits', description: 'The balance, the ledger and spend per day: free reads, never 402.' },
  { name: 'scrape', description: 'One-off searches of subreddits for keywords, in posts and comments; billed per subreddit × keyword.' },
  { name: 'monitors', description: 'Standing watches on subreddits: every new matching post and comment, once; billed per match.' },
  { name: 'generate', description: 'Drafts of replies and posts from a language model; billed per draft.' },
  { name: 'publish', description: "Posting to Reddit as the account's connected Reddit user; billed per post that goes out." },
  { name: 'destinations', description: 'Where alerts go: Slack and Discord webhooks, each sent to at its own pace, every message on record.' },
  { name: 'webhooks', description: 'What this service POSTs to your receivers, signed as Standard Webhooks.' },
];

/** The document's fixed parts; `finish` then derives the rest from the routes. */
export function openapiOptions(config: Config): SwaggerOptions {
  const contact = config.apiContact;
  return {
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'subpilot API',
        version: '1.0.0',
        description: DESCRIPTION,
        // The service is not open source; a LicenseRef is how SPDX names terms of one's own.
        license: { name: 'Proprietary', identifier: 'LicenseRef-subpilot-terms' },
        ...(contact ? { contact } : {}),
      },
      // Relative when no PUBLIC_URL is set: clients resolve it against where they read the document.
      servers: [{ url: config.publicUrl ?? '/', description: config.publicUrl ? 'This service' : 'The host that served this document' }],
      tags: TAGS,
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'ak_live_<64 hex>', description: 'An API key from the dashboard page "API keys".' },
        },
      },
      security: [{ bearerAuth: [] }],
    },
    // Each /api/v1/ route's problem answers join its responses here, for the document only.
    transform: ({ schema, url, route }) =>
      url.startsWith('/api/') ? { url, schema: { ...schema, response: { ...(schema.response as object), ...problemsOf(route) } } } : { url, schema },
    transformObject: (documentObject) => finish((documentObject as { openapiObject: Json }).openapiObject),
  } as SwaggerOptions;
}

/** Everything the route schemas cannot say in OpenAPI's own terms, added in one pass after another. */
function finish(doc: Json): Json {
  nameSchemas(doc);
  describeSuccesses(doc);
  addExamples(doc);
  headOperations(doc);
  declareHeaders(doc);
  problemCodes(doc);
  doc.webhooks = webhooksSection();
  Object.assign(doc.components.schemas, webhookSchemas);
  return doc;
}

/** Problem.code lists every code an operation documents, so a generated client gets them as a union. */
function problemCodes(doc: Json): void {
  const codes = new Set<string>();
  for (const [, , op] of operationsOf(doc)) {
    for (const response of Object.values(op.responses)) {
      const schema = response.content?.['application/problem+json']?.schema;
      for (const code of schema?.allOf?.[1]?.properties?.code?.enum ?? []) codes.add(code);
    }
  }
  doc.components.schemas.Problem.properties.code.enum = [...codes].sort();
}
