import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { WebhooksUsecases } from '../webhooks/webhooks.usecases.ts';
import { sendPage } from './dashboard.reply.ts';
import { sessionOf, viewerOf } from './dashboard.session.ts';
import { webhooksPage } from './views/webhooks.ts';

/** The account's webhook signing secret and its recent deliveries with every attempt. Behind requireSession. */
export const webhooksRoutes: FastifyPluginAsyncTypebox<{ webhooks: WebhooksUsecases }> = async (app, { webhooks }) => {
  app.get('/webhooks', async (request, reply) => {
    const { accountId } = sessionOf(request);
    // Without SECRET_KEY there is no secret to show (none is created); the page says why.
    const [secret, deliveries] = await Promise.all([
      webhooks.configured ? webhooks.secretFor(accountId) : null,
      webhooks.recentDeliveries(accountId),
    ]);
    return sendPage(reply, webhooksPage({ viewer: viewerOf(request)!, secret, deliveries }));
  });
};
