import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { isAppError } from '../../shared/errors.ts';
import type { ConnectionsUsecases } from '../connections/connections.usecases.ts';
import { contentSecurityPolicy } from '../../shared/http/page-security.ts';
import { sendPage } from './dashboard.reply.ts';
import { sessionOf, viewerOf } from './dashboard.session.ts';
import { connectionsPage } from './views/connections.ts';

const csrfOnly = Type.Object({ csrf: Type.Optional(Type.String()) });
const pageQuery = Type.Object({ connected: Type.Optional(Type.String()), disconnected: Type.Optional(Type.String()) });
const callbackQuery = Type.Object({
  state: Type.Optional(Type.String({ maxLength: 200 })),
  code: Type.Optional(Type.String({ maxLength: 500 })),
  error: Type.Optional(Type.String({ maxLength: 200 })),
});

/** The Connections page and Reddit's authorization-code flow. Runs behind requireSession and the CSRF check. */
export const connectionsRoutes: FastifyPluginAsyncTypebox<{ connections: ConnectionsUsecases }> = async (app, { connections }) => {
  const render = async (request: FastifyRequest, reply: FastifyReply, extras: { notice?: string; error?: string }) => {
    const { configured, missing } = connections.status();
    const reddit = await connections.get(sessionOf(request).accountId);
    // The "Connect Reddit" form is answered by a redirect to Reddit: only the page that shows it may lead there.
    const authorizeOrigin = connections.authorizeOrigin();
    if (configured && !reddit && authorizeOrigin) reply.header('content-security-policy', contentSecurityPolicy({ formTargets: [authorizeOrigin] }));
    return connectionsPage({ viewer: viewerOf(request)!, configured, missing, reddit, ...extras });
  };

  app.get('/connections', { schema: { querystring: pageQuery } }, async (request, reply) => {
    const notice = request.query.connected ? 'Reddit is connected.' : request.query.disconnected ? 'Reddit was disconnected.' : undefined;
    return sendPage(reply, await render(request, reply, { notice }));
  });

  // A POST with the session's CSRF token, so another site cannot start a connection in someone's name.
  app.post('/connections/reddit', { schema: { body: csrfOnly } }, async (request, reply) => {
    const session = sessionOf(request);
    return reply.redirect(await connections.start(session.accountId, session.idHash), 303);
  });

  app.get('/connections/reddit/callback', { schema: { querystring: callbackQuery } }, async (request, reply) => {
    const session = sessionOf(request);
    try {
      await connections.complete(session.accountId, session.idHash, request.query);
    } catch (error) {
      if (!isAppError(error) || error.status >= 500) throw error;
      return sendPage(reply, await render(request, reply, { error: error.message }), error.status);
    }
    return reply.redirect('/dashboard/connections?connected=1', 303);
  });

  app.post('/connections/reddit/disconnect', { schema: { body: csrfOnly } }, async (request, reply) => {
    await connections.disconnect(sessionOf(request).accountId);
    return reply.redirect('/dashboard/connections?disconnected=1', 303);
  });
};
