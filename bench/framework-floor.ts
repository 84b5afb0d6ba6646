/**
 * The floor under the 402's ratio (core.bench.ts): Fastify alone, with no key, limiter, database or
 * hook of ours, answering the core bench's two shapes, /healthz and a JSON POST whose body is read
 * and validated and whose handler refuses with a 402 problem through the error handler, as our
 * scrape does at zero balance. Whatever the service adds can only lower the ratio from here.
 * Run as its own process by core.bench.ts (listens on PORT, on 127.0.0.1).
 */
import Fastify, { type FastifyError } from 'fastify';

const app = Fastify({ logger: false, bodyLimit: 64 * 1024 });
app.get('/healthz', async () => ({ status: 'ok' }));

const strings = { type: 'array', items: { type: 'string', minLength: 1, maxLength: 200 }, minItems: 1, maxItems: 20 };
app.setErrorHandler((error: FastifyError, _request, reply) =>
  reply
    .code(error.statusCode ?? 500)
    .type('application/problem+json')
    .send({ type: 'urn:floor:problem:credits.insufficient', title: 'Payment Required', status: 402, detail: error.message, code: 'credits.insufficient', balance: 0, required: 1 }),
);
app.post(
  '/api/v1/scrape',
  { schema: { body: { type: 'object', properties: { subreddits: strings, keywords: strings }, required: ['subreddits'] } } },
  async () => {
    // As AppError does for every 4xx: an expected answer captures no stack.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    const error = Object.assign(new Error('This request costs 1 credits and the account balance is 0.'), { statusCode: 402 });
    Error.stackTraceLimit = limit;
    throw error;
  },
);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
