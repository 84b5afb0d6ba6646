import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { outcomeSamples } from '../../shared/outcomes.ts';
import { creditsErrors } from '../credits/credits.errors.ts';
import { generateErrors } from './generate.errors.ts';
import { committingGeneration } from './generate.view.ts';
import { callerOf } from '../keys/keys.hooks.ts';
import { generateBodySchema, generationEditSchema, generationParamsSchema, generationSchema } from './generate.schemas.ts';
import type { GenerateUsecases } from './generate.usecases.ts';

const SAMPLE_ID = 'gen_0c4d2e8f1a3b5c7d9e0f2a4b6c8d';

export const generateRoutes: FastifyPluginAsyncTypebox<{ generate: GenerateUsecases }> = async (app, { generate }) => {
  app.post(
    '/generate',
    {
      config: {
        scope: 'generate',
        errors: [
          generateErrors.notConfigured(),
          generateErrors.replyTarget('neither'),
          generateErrors.postNotFound('t3_1h2k9xq', 'it was removed'),
          generateErrors.commentNotFound('t1_kx3b9qz', 'Reddit does not know it'),
          generateErrors.matchNotFound('mat_0c4d2e8f1a3b5c7d9e0f2a4b6c8d'),
          generateErrors.redditUnavailable('Reddit answered 503'),
          generateErrors.redditBlocked('Reddit answered 403 to the app'),
          creditsErrors.insufficient(0, 5),
          creditsErrors.keyLimitReached({ limit: 500, spent: 498, required: 5, resetsAt: '2026-12-01T00:00:00.000Z' }),
          generateErrors.llmUnavailable(SAMPLE_ID, 'the model answered 500', false),
          generateErrors.emptyDraft(SAMPLE_ID, 'content was empty'),
          generateErrors.llmUnavailable(SAMPLE_ID, 'no answer within 60 s', true),
          generateErrors.inProgress(SAMPLE_ID),
          ...outcomeSamples(committingGeneration(SAMPLE_ID, 5)),
        ],
        idempotent: { replay: async (request, reply, id) => reply.code(200).send(await generate.outcome(callerOf(request).accountId, id)) },
      },
      schema: {
        summary: 'Draft a reply to a post, a comment or a monitor match, or a new post, with the language model (billable)',
        operationId: 'createGeneration',
        description:
          'Price: PRICE_GENERATE per draft, charged before the model is called and refunded when it fails (502) or ' +
          'times out (504), or answers without a usable draft (502 generate.empty_draft: content null or empty, no ' +
          'choices, no title for a post, …); every refunded failure carries generation_id. A longer answer is cut at a ' +
          "word to 300 characters of title and 40,000 (or max_length) of body, Reddit's limits in code points. " +
          'A reply names what it answers in reply_to: a t3_ post, a t1_ comment (published under that comment) or a match ' +
          'id; what the account holds (its matches, its scrapes) is the context as stored, else Reddit is read. The ' +
          "account's voice (set on the dashboard) shapes every draft. " +
          'The draft is stored; publish it with POST /publish {generation_id}. With an Idempotency-Key, a retry never ' +
          'generates or charges again: it gets the draft, 409 generate.in_progress while the model is still asked, or the failure.',
        tags: ['generate'],
        body: generateBodySchema,
        response: { 200: generationSchema },
      },
    },
    async (request) => generate.generate(callerOf(request), request.body, request.idempotency),
  );

  app.get(
    '/generations/:id',
    {
      config: { scope: 'read', errors: [generateErrors.notFound()] },
      schema: {
        summary: 'One generation of this account (free)',
        operationId: 'getGeneration',
        description:
          'A draft as POST /generate answered it: running, completed with its text, or failed (refunded).',
        tags: ['generate'],
        params: generationParamsSchema,
        response: { 200: generationSchema },
      },
    },
    async (request) => generate.get(callerOf(request).accountId, request.params.id),
  );

  app.patch(
    '/generations/:id',
    {
      config: { scope: 'generate', errors: [generateErrors.notFound(), generateErrors.notEditable('running')] },
      schema: {
        summary: 'Edit a completed draft before publishing it (free)',
        operationId: 'updateGeneration',
        description: 'What publish {generation_id} will post is the edited text; `edited_at` says a person changed it. Only a completed draft can be edited (409).',
        tags: ['generate'],
        params: generationParamsSchema,
        body: generationEditSchema,
        response: { 200: generationSchema },
      },
    },
    async (request) => generate.edit(callerOf(request).accountId, request.params.id, request.body),
  );
};
