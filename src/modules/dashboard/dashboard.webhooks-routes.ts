import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { AccountSettingsUsecases } from '../accounts/accounts.usecases.ts';
import type { WebhooksUsecases } from '../webhooks/webhooks.usecases.ts';
import { formProblem, sendPage } from './dashboard.reply.ts';
import { sessionOf, viewerOf } from './dashboard.session.ts';
import { webhooksPage, type WebhooksPage } from './views/webhooks.ts';

const NOTICES = {
  sent: 'The test event was queued; its delivery is listed below.',
  retried: 'The delivery was queued to be tried again now.',
  endpoint: 'The account endpoint was saved.',
  rolled: 'A new signing secret signs every delivery from now on; the old one signs beside it for 24 hours. Update your receivers.',
};
const listQuery = Type.Object({ done: Type.Optional(Type.Union([Type.Literal('sent'), Type.Literal('retried'), Type.Literal('endpoint'), Type.Literal('rolled')])) });
const urlBody = Type.Object({ csrf: Type.Optional(Type.String()), webhook_url: Type.String({ maxLength: 2000 }) });
const retryParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const csrfOnly = Type.Object({ csrf: Type.Optional(Type.String()) });

/**
 * The account's webhook signing secret (shown, and rolled), its own endpoint (`credits.low`) and its recent deliveries
 * with every attempt; a test event, and "retry now" on a delivery that failed or waits. Behind requireSession.
 */
export const webhooksRoutes: FastifyPluginAsyncTypebox<{ webhooks: WebhooksUsecases; accountSettings: AccountSettingsUsecases }> = async (
  app,
  { webhooks, accountSettings },
) => {
  const renderPage = async (request: FastifyRequest, extras: Omit<WebhooksPage, 'viewer' | 'signing' | 'deliveries' | 'endpoint'>) => {
    const { accountId } = sessionOf(request);
    // Without SECRET_KEY there is no secret to show (none is created); the page says why.
    const [signing, deliveries, settings] = await Promise.all([
      webhooks.configured ? webhooks.signingState(accountId) : null,
      webhooks.recentDeliveries(accountId),
      accountSettings.settings(accountId),
    ]);
    return webhooksPage({ viewer: viewerOf(request)!, signing, deliveries, endpoint: settings.webhook_url, ...extras });
  };

  app.get('/webhooks', { schema: { querystring: listQuery } }, async (request, reply) => {
    const { done } = request.query;
    return sendPage(reply, await renderPage(request, { notice: done ? NOTICES[done] : undefined }));
  });

  app.post('/webhooks/test', { schema: { body: urlBody } }, async (request, reply) => {
    const url = request.body.webhook_url.trim();
    try {
      await webhooks.sendTest(sessionOf(request).accountId, url);
    } catch (error) {
      const problem = formProblem(error);
      return sendPage(reply, await renderPage(request, { testError: problem.message, testUrl: url }), problem.status);
    }
    return reply.redirect('/dashboard/webhooks?done=sent', 303);
  });

  app.post('/webhooks/endpoint', { schema: { body: urlBody } }, async (request, reply) => {
    const url = request.body.webhook_url.trim();
    try {
      await accountSettings.setWebhookUrl(sessionOf(request).accountId, url);
    } catch (error) {
      const problem = formProblem(error);
      return sendPage(reply, await renderPage(request, { endpointError: problem.message, endpointInput: url }), problem.status);
    }
    return reply.redirect('/dashboard/webhooks?done=endpoint', 303);
  });

  app.post('/webhooks/secret/roll', { schema: { body: csrfOnly } }, async (request, reply) => {
    await webhooks.rollSecret(sessionOf(request).accountId);
    return reply.redirect('/dashboard/webhooks?done=rolled', 303);
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
