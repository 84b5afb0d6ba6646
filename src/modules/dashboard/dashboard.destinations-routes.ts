import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { DestinationsUsecases } from '../destinations/destinations.usecases.ts';
import { destinationBody, destinationFormOf, destinationInputOf, destinationRefusal, webhookUrlTooLong, type Refused } from './dashboard.destinations-form.ts';
import { formProblem, goneAsNull, sendPage } from './dashboard.reply.ts';
import { sessionOf, viewerOf } from './dashboard.session.ts';
import { deleteConfirmPage, destinationPage, type DestinationPage } from './views/destination.ts';
import { destinationsPage, type DestinationsPage } from './views/destinations.ts';

const NOTICES = {
  deleted: 'The destination was deleted: nothing more is sent to it.',
  tested: 'The test message was queued: it goes out within a few seconds. Reload this page to see what the service answered.',
  url: 'The new webhook URL was saved: the destination is active, and its next messages go there.',
};
type Done = keyof typeof NOTICES;
const doneQuery = Type.Optional(Type.Union((Object.keys(NOTICES) as Done[]).map((done) => Type.Literal(done))));
const params = Type.Object({ id: Type.String({ maxLength: 64 }) });
// `added`: the destination just added, whose start the list shows (a mailed link, a Telegram link to open).
const listQuery = Type.Object({ done: doneQuery, added: Type.Optional(Type.String({ maxLength: 64 })) });
const pageQuery = Type.Object({ done: doneQuery });
const csrfOnly = Type.Object({ csrf: Type.Optional(Type.String()) });
const urlBody = Type.Object({ csrf: Type.Optional(Type.String()), url: Type.String({ maxLength: 4000 }) });

/**
 * The Destinations pages (issue 43): the account's Slack and Discord webhooks, email addresses and
 * Telegram chats, a form to add one, and each one's page with its newest messages and every attempt;
 * a test, a new webhook URL, delete. Another account's destination is the 404 page, like a made-up id.
 * Behind requireSession.
 */
export const destinationsRoutes: FastifyPluginAsyncTypebox<{ destinations: DestinationsUsecases }> = async (app, { destinations }) => {
  const renderList = async (request: FastifyRequest, extras: Pick<DestinationsPage, 'notice' | 'added' | 'error' | 'fieldErrors' | 'form'>) => {
    const { data } = await destinations.list(sessionOf(request).accountId);
    return destinationsPage({ viewer: viewerOf(request)!, destinations: data, configured: destinations.configured, channels: destinations.channels, ...extras });
  };
  const renderOne = async (request: FastifyRequest, id: string, extras: Pick<DestinationPage, 'notice' | 'error' | 'urlError' | 'urlInput'>) => {
    const { accountId } = sessionOf(request);
    const destination = await destinations.get(accountId, id);
    const { data } = await destinations.deliveries(accountId, id);
    return destinationPage({ viewer: viewerOf(request)!, destination, deliveries: data, ...extras });
  };

  app.get('/destinations', { schema: { querystring: listQuery } }, async (request, reply) => {
    const { done, added } = request.query;
    // A destination deleted since (or never the viewer's) is simply not announced.
    const just = added ? await destinations.get(sessionOf(request).accountId, added).catch(goneAsNull) : null;
    return sendPage(reply, await renderList(request, { notice: done ? NOTICES[done] : undefined, added: just }));
  });

  app.post('/destinations', { schema: { body: destinationBody } }, async (request, reply) => {
    const form = destinationFormOf(request.body);
    const refused = async ({ status, message, field }: Refused) =>
      sendPage(reply, await renderList(request, { error: message, fieldErrors: field ? { [field]: message } : {}, form }), status);
    const checked = destinationInputOf(form);
    if ('refusal' in checked) return refused(checked.refusal);
    try {
      const destination = await destinations.create(sessionOf(request).accountId, checked.input);
      return reply.redirect(`/dashboard/destinations?added=${destination.id}`, 303);
    } catch (error) {
      return refused(destinationRefusal(error));
    }
  });

  app.get('/destinations/:id', { schema: { params, querystring: pageQuery } }, async (request, reply) => {
    const { done } = request.query;
    return sendPage(reply, await renderOne(request, request.params.id, { notice: done ? NOTICES[done] : undefined }));
  });

  app.post('/destinations/:id/test', { schema: { params, body: csrfOnly } }, async (request, reply) => {
    const { id } = request.params;
    try {
      await destinations.sendTest(sessionOf(request).accountId, id);
    } catch (error) {
      const problem = formProblem(error);
      // An unknown destination is the 404 page; one switched off or not yet confirmed says so beside the button.
      if (problem.status === 404) throw problem;
      return sendPage(reply, await renderOne(request, id, { error: problem.message }), problem.status);
    }
    return reply.redirect(`/dashboard/destinations/${id}?done=tested`, 303);
  });

  app.post('/destinations/:id/url', { schema: { params, body: urlBody } }, async (request, reply) => {
    const { id } = request.params;
    const { accountId } = sessionOf(request);
    const url = request.body.url.trim();
    const refused = async ({ status, message }: Refused) => sendPage(reply, await renderOne(request, id, { urlError: message, urlInput: url }), status);
    const { kind } = await destinations.get(accountId, id);
    // Only a webhook has a URL: for the others the usecases refuse it in the API's words, which the page never offers.
    const tooLong = kind === 'slack' || kind === 'discord' ? webhookUrlTooLong(kind, url) : null;
    if (tooLong) return refused(tooLong);
    try {
      await destinations.update(accountId, id, { url });
    } catch (error) {
      return refused(destinationRefusal(error));
    }
    return reply.redirect(`/dashboard/destinations/${id}?done=url`, 303);
  });

  app.get('/destinations/:id/delete', { schema: { params } }, async (request, reply) =>
    sendPage(reply, deleteConfirmPage(viewerOf(request)!, await destinations.get(sessionOf(request).accountId, request.params.id))),
  );

  app.post('/destinations/:id/delete', { schema: { params, body: csrfOnly } }, async (request, reply) => {
    await destinations.remove(sessionOf(request).accountId, request.params.id);
    return reply.redirect('/dashboard/destinations?done=deleted', 303);
  });
};
