import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import type { GenerateUsecases } from '../generate/generate.usecases.ts';
import type { PublishUsecases } from '../publish/publish.usecases.ts';
import { sendPage } from './dashboard.reply.ts';
import { sessionOf, viewerOf } from './dashboard.session.ts';
import { draftPage, draftsPage } from './views/drafts.ts';
import { publicationPage, publicationsPage } from './views/publications.ts';

const PAGE_SIZE = 25;
const pageQuery = Type.Object({ cursor: Type.Optional(Type.String({ maxLength: 200 })) });
const idParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

/**
 * Read-only pages of what the account's keys wrote and posted: drafts (POST /generate) and publications
 * (POST /publish), so every ledger row has a page to link to. Behind requireSession; another account's
 * id is a 404 (the usecases look up by account).
 */
export const publishingRoutes: FastifyPluginAsyncTypebox<{ generate: GenerateUsecases; publish: PublishUsecases }> = async (
  app,
  { generate, publish },
) => {
  app.get('/drafts', { schema: { querystring: pageQuery } }, async (request, reply) => {
    const { cursor } = request.query;
    const drafts = await generate.list(sessionOf(request).accountId, { limit: PAGE_SIZE, cursor });
    return sendPage(reply, draftsPage({ viewer: viewerOf(request)!, drafts, firstPage: !cursor }));
  });

  app.get('/drafts/:id', { schema: { params: idParams } }, async (request, reply) =>
    sendPage(reply, draftPage(viewerOf(request)!, await generate.show(sessionOf(request).accountId, request.params.id))),
  );

  app.get('/publications', { schema: { querystring: pageQuery } }, async (request, reply) => {
    const { cursor } = request.query;
    const publications = await publish.list(sessionOf(request).accountId, { limit: PAGE_SIZE, cursor });
    return sendPage(reply, publicationsPage({ viewer: viewerOf(request)!, publications, firstPage: !cursor }));
  });

  app.get('/publications/:id', { schema: { params: idParams } }, async (request, reply) =>
    sendPage(reply, publicationPage(viewerOf(request)!, await publish.show(sessionOf(request).accountId, request.params.id))),
  );
};
