import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { coverageQuerySchema, coverageSchema } from './stream.schemas.ts';
import type { StreamCoverageUsecases } from './stream.coverage.usecases.ts';

export const streamRoutes: FastifyPluginAsyncTypebox<{ coverage: StreamCoverageUsecases }> = async (app, { coverage }) => {
  app.get(
    '/stream/coverage',
    {
      config: { scope: 'read', errors: [] },
      schema: {
        summary: 'What the site-wide stream read of all of Reddit, per hour (free)',
        operationId: 'getStreamCoverage',
        description:
          'Per hour and source: the range of ids walked and how many were asked, returned, unavailable, waiting and skipped, ' +
          'and the exact ranges skipped while the stream was too far behind. Site-wide figures, the same for every account ' +
          '(the guide "The site-wide stream" says what the stream costs and cannot see).',
        tags: ['monitors'],
        querystring: coverageQuerySchema,
        response: { 200: coverageSchema },
      },
    },
    async (request) => coverage.coverage(request.query.hours),
  );
};
