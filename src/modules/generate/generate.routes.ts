import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { problemResponses } from '../../shared/http/schemas.ts';
import { callerOf } from '../keys/keys.hooks.ts';
import { generateBodySchema, generationParamsSchema, generationSchema } from './generate.schemas.ts';
import type { GenerateUsecases } from './generate.usecases.ts';

export const generateRoutes: FastifyPluginAsyncTypebox<{ generate: GenerateUsecases }> = async (app, { generate }) => {
  app.post(
    '/generate',
    {
      config: {
        scope: 'generate',
        idempotent: { replay: async (request, reply, id) => reply.code(200).send(await generate.outcome(callerOf(request).accountId, id)) },
      },
      schema: {
        summary: 'Draft a reply to a post, or a new post, with the language model (billable)',
        description:
          'Price: PRICE_GENERATE per draft, charged before the model is called and refunded when it fails (502) or ' +
          'times out (504), or answers without a usable draft (502 generate.empty_draft: content null or empty, no ' +
          'choices, no title for a post, …); every refunded failure carries generation_id. A longer answer is cut at a ' +
          "word to 300 characters of title and 40,000 (or max_length) of body, Reddit's limits in code points. " +
          'The draft is stored; publish it with POST /publish {generation_id}. With an Idempotency-Key, a retry never ' +
          'generates or charges again: it gets the draft, 409 generate.in_progress while the model is still asked, or the failure.',
        tags: ['generate'],
        body: generateBodySchema,
        response: { 200: generationSchema, ...problemResponses(400, 401, 402, 403, 404, 409, 413, 415, 422, 502, 503, 504) },
      },
    },
    async (request) => generate.generate(callerOf(request), request.body, request.idempotency),
  );

  app.get(
    '/generations/:id',
    {
      config: { scope: 'read' },
      schema: {
        summary: 'One generation of this account (free)',
        tags: ['generate'],
        params: generationParamsSchema,
        response: { 200: generationSchema, ...problemResponses(401, 403, 404) },
      },
    },
    async (request) => generate.get(callerOf(request).accountId, request.params.id),
  );
};
