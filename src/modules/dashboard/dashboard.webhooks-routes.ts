import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { WebhooksUsecases } from '../webhooks/webhooks.usecases.ts';
import { sendPage } from './dashboard.reply.ts';
import { sessionOf, viewerOf } from './dashboard.session.ts';
import { webhooksPage } from './views/webhooks.ts';

/** The account's webhook signing secret and its recent deliveries with every attempt. Behind requireSession. */
export const webhooksRoutes: FastifyPluginAsyncTypebox<{ webhooks: WebhooksUsecases }> = async (app, { webhooks }) => {
  app.get('/webhooks', async (request, reply) => {
    const { accountId } = sessionOf(request);
    const [secret, deliveries] = await Promise.all([webhooks.secretFor(accountId), webhooks.recentDeliveries(accountId)]);
    return sendPage(reply, webhooksPage({ viewer: viewerOf(request)!, secret, deliveries }));
  });
};
