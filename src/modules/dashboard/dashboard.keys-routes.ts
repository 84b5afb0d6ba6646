import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import { keysErrors } from '../keys/keys.errors.ts';
import type { KeysUsecases } from '../keys/keys.usecases.ts';
import type { SessionsUsecases } from '../sessions/sessions.usecases.ts';
import { formProblem, sendPage } from './dashboard.reply.ts';
import { clearSessionCookie, SESSION_COOKIE, sessionOf, viewerOf, type CookiePolicy } from './dashboard.session.ts';
import { keysPage, revokeConfirmPage, type KeysPage } from './views/keys.ts';

const csrfOnly = Type.Object({ csrf: Type.Optional(Type.String()) });
const createBody = Type.Object({ csrf: Type.Optional(Type.String()), name: Type.String({ maxLength: 200 }) });
const keyParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const listQuery = Type.Object({ revoked: Type.Optional(Type.String()) });

type ListExtras = Omit<KeysPage, 'viewer' | 'keys' | 'apiBase'>;

/** The API keys page (spec section 2 rule 4 and section 3), plus log-out. Runs behind requireSession. */
export const keysRoutes: FastifyPluginAsyncTypebox<{
  keys: KeysUsecases;
  sessions: SessionsUsecases;
  publicUrl: string | null;
  policy: CookiePolicy;
}> = async (app, { keys, sessions, publicUrl, policy }) => {
  const apiBase = (request: FastifyRequest) => publicUrl ?? `${request.protocol}://${request.host}`;
  const listPage = async (request: FastifyRequest, extras: ListExtras) => {
    const list = await keys.listKeys(sessionOf(request).accountId);
    return keysPage({ viewer: viewerOf(request)!, keys: list, apiBase: apiBase(request), ...extras });
  };

  app.get('/keys', { schema: { querystring: listQuery } }, async (request, reply) =>
    sendPage(reply, await listPage(request, { notice: request.query.revoked ? 'The key was revoked.' : undefined })),
  );

  // The token is rendered into this response only: never a redirect, a cookie or a later page.
  app.post('/keys', { schema: { body: createBody } }, async (request, reply) => {
    try {
      const { key, token } = await keys.createKey(sessionOf(request).accountId, request.body.name);
      return sendPage(reply, await listPage(request, { created: { name: key.name, token } }), 201);
    } catch (error) {
      const problem = formProblem(error);
      return sendPage(reply, await listPage(request, { error: problem.message, name: request.body.name }), problem.status);
    }
  });

  app.get('/keys/:id/revoke', { schema: { params: keyParams } }, async (request, reply) => {
    const key = (await keys.listKeys(sessionOf(request).accountId)).find((k) => k.id === request.params.id && !k.revoked_at);
    if (!key) throw keysErrors.notFound();
    return sendPage(reply, revokeConfirmPage(viewerOf(request)!, key));
  });

  app.post('/keys/:id/revoke', { schema: { params: keyParams, body: csrfOnly } }, async (request, reply) => {
    await keys.revokeKey(sessionOf(request).accountId, { id: request.params.id });
    return reply.redirect('/dashboard/keys?revoked=1', 303);
  });

  app.post('/logout', { schema: { body: csrfOnly } }, async (request, reply) => {
    await sessions.logOut(request.cookies[SESSION_COOKIE]);
    clearSessionCookie(reply, policy);
    return reply.redirect('/dashboard/login', 303);
  });
};
