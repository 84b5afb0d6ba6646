import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { WebhooksUsecases } from '../webhooks/webhooks.usecases.ts';
import { formProblem, sendPage } from './dashboard.reply.ts';
import { sessionOf, viewerOf } from './dashboard.session.ts';
import { webhooksPage, type WebhooksPage } from './views/webhooks.ts';

const NOTICES = { sent: 'The test event was queued; its delivery is listed below.', retried: 'The delivery was queued to be tried again now.' };
const listQuery = Type.Object({ done: Type.Optional(Type.Union([Type.Literal('sent'), Type.Literal('retried')])) });
const testBody = Type.Object({ csrf: Type.Optional(Type.String()), webhook_url: Type.String({ maxLength: 2000 }) });
const retryParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const csrfOnly = Type.Object({ csrf: Type.Optional(Type.String()) });

/**
 * The account's webhook signing secret and its recent deliveries with every attempt; a test event,
 * and "retry now" on a delivery that failed or waits. Behind requireSession.
 */
export const webhooksRoutes: FastifyPluginAsyncTypebox<{ webhooks: WebhooksUsecases }> = async (app, { webhooks }) => {
  const renderPage = async (request: FastifyRequest, extras: Omit<WebhooksPage, 'viewer' | 'secret' | 'deliveries'>) => {
    const { accountId } = sessionOf(request);
    // Without SECRET_KEY there is no secret to show (none is created); the page says why.
    const [secret, deliveries] = await Promise.all([
      webhooks.configured ? webhooks.secretFor(accountId) : null,
      webhooks.recentDeliveries(accountId),
    ]);
    return webhooksPage({ viewer: viewerOf(request)!, secret, deliveries, ...extras });
  };

  app.get('/webhooks', { schema: { querystring: listQuery } }, async (request, reply) => {
    const { done } = request.query;
    return sendPage(reply, await renderPage(request, { notice: done ? NOTICES[done] : undefined }));
  });

  app.post('/webhooks/test', { schema: { body: testBody } }, async (request, reply) => {
    const url = request.body.webhook_url.trim();
    try {
      await webhooks.sendTest(sessionOf(request).accountId, url);
    } catch (error) {
      const problem = formProblem(error);
      return sendPage(reply, await renderPage(request, { testError: problem.message, testUrl: url }), problem.status);
    }
    return reply.redirect('/dashboard/webhooks?done=sent', 303);
  });

  app.post('/webhooks/deliveries/:id/retry', { schema: { params: retryParams, body: csrfOnly } }, async (request, reply) => {
    try {
      await webhooks.retryNow(sessionOf(request).accountId, request.params.id);
    } catch (error) {
      const problem = formProblem(error);
      // Another account's delivery (or none) is the 404 page, like any other id that is not the viewer's.
      if (problem.status === 404) throw problem;
      return sendPage(reply, await renderPage(request, { error: problem.message }), problem.status);
    }
    return reply.redirect('/dashboard/webhooks?done=retried', 303);
  });
};
