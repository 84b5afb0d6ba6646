import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import type { DestinationsUsecases } from '../destinations/destinations.usecases.ts';
import { sendPage } from './dashboard.reply.ts';
import { confirmAddressPage, confirmedPage, unsubscribedPage, unsubscribePage } from './views/recipient.ts';

const params = Type.Object({ token: Type.String({ maxLength: 100 }) });

/**
 * The links in alert mails (docs/api/destinations.md, "Email"): confirming an address and one-click
 * unsubscribe (RFC 8058). The signed token in the path is the permission, so there is no session and
 * no CSRF token: a mail provider posts `List-Unsubscribe=One-Click` from its own servers, as
 * application/x-www-form-urlencoded or multipart/form-data (RFC 8058 §3.1), and the answer to that
 * post must not be a redirect. A bad or expired link gets the error page in words (404, 410).
 */
export const recipientRoutes: FastifyPluginAsyncTypebox<{ destinations: DestinationsUsecases }> = async (app, { destinations }) => {
  // The body says nothing the path does not: it is read and dropped, whichever form it comes in.
  app.addContentTypeParser('multipart/form-data', { parseAs: 'string', bodyLimit: 16_384 }, (_request, _body, done) => done(null, {}));

  app.get('/alerts/confirm/:token', { schema: { params } }, async (request, reply) => {
    const recipient = await destinations.inspect('confirm', request.params.token);
    return sendPage(reply, confirmAddressPage(recipient, `/dashboard/alerts/confirm/${request.params.token}`));
  });

  app.post('/alerts/confirm/:token', { schema: { params } }, async (request, reply) =>
    sendPage(reply, confirmedPage(await destinations.confirmAddress(request.params.token))),
  );

  app.get('/alerts/unsubscribe/:token', { schema: { params } }, async (request, reply) => {
    const recipient = await destinations.inspect('unsubscribe', request.params.token);
    return sendPage(reply, unsubscribePage(recipient, `/dashboard/alerts/unsubscribe/${request.params.token}`));
  });

  app.post('/alerts/unsubscribe/:token', { schema: { params } }, async (request, reply) =>
    sendPage(reply, unsubscribedPage(await destinations.unsubscribe(request.params.token))),
  );
};
