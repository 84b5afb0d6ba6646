import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { AppError } from '../../shared/errors.ts';
import type { GenerateUsecases } from '../generate/generate.usecases.ts';
import type { InboxUsecases } from '../monitors/inbox/inbox.usecases.ts';
import type { PublishUsecases } from '../publish/publish.usecases.ts';
import { backToEntry, filterOfPath, inboxPath } from './views/inbox-filter.ts';
import { appProblem, goneAsNull, sendPage } from './dashboard.reply.ts';
import { dashboardCaller, sessionOf, viewerOf } from './dashboard.session.ts';
import { draftPage, draftsPage } from './views/drafts.ts';
import { publicationPage, publicationsPage } from './views/publications.ts';
import { publishConfirmPage, type RailFlag } from './views/publish-confirm.ts';

const PAGE_SIZE = 25;
const pageQuery = Type.Object({ cursor: Type.Optional(Type.String({ maxLength: 200 })) });
const idParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
// Where the Inbox wants the person back (views/inbox-filter.ts rebuilds it; it is never followed as given).
const returnTo = Type.Optional(Type.String({ maxLength: 1000 }));
const confirmQuery = Type.Object({ return_to: returnTo });
const confirmBody = Type.Object({
  csrf: Type.Optional(Type.String()),
  return_to: returnTo,
  // The confirmation's own Idempotency-Key (its page makes one): a second press of Confirm replays the first.
  attempt: Type.String({ pattern: '^dashboard-[0-9a-f-]{36}$', 'x-rule': 'must be the key its confirm page gave' }),
  // The boxes the page offers after a rail refused: present means ticked, as a browser sends a checkbox.
  allow_duplicate: Type.Optional(Type.String({ maxLength: 10 })),
  allow_second_reply: Type.Optional(Type.String({ maxLength: 10 })),
});

/**
 * The rails a request may lift, by the code of their refusal, and the API flag that lifts each
 * (docs/api/rails.md); the paces cannot be lifted, so their refusals offer no box.
 */
const FLAG_OF: Record<string, RailFlag> = { 'publish.duplicate': 'allow_duplicate', 'publish.second_reply': 'allow_second_reply' };

/** What the confirm page shows beside its button: publish's refusal (a rail, the balance, the connection, Reddit). */
type Refusal = Pick<AppError, 'message' | 'status'> & { code?: string };

/**
 * The pages of what was written and posted: drafts (POST /generate, the Inbox) and publications, so every
 * ledger row has a page to link to; and the confirm step that publishes a completed draft, shared by a
 * draft's page and the Inbox (`return_to`). Behind requireSession; another account's id is a 404 (the
 * usecases look up by account).
 */
export const publishingRoutes: FastifyPluginAsyncTypebox<{ generate: GenerateUsecases; publish: PublishUsecases; inbox: InboxUsecases }> = async (
  app,
  { generate, publish, inbox },
) => {
  /** The confirmation as it stands now: a fresh preview (and attempt), with a refusal from the last press if any. */
  async function renderConfirm(request: FastifyRequest, id: string, back: string | null, refused?: Refusal, ticked: RailFlag[] = []) {
    const { accountId } = sessionOf(request);
    const draft = await generate.show(accountId, id);
    const match = draft.match_id ? await inbox.get(accountId, draft.match_id).catch(goneAsNull) : null;
    let problem: Refusal | undefined = refused;
    const preview = await publish.preview(dashboardCaller(request), { generation_id: id }).catch((error) => {
      problem = appProblem(error);
      return null;
    });
    const connect = preview === null && problem?.code?.startsWith('connections.');
    // The box for the rail that refused, beside those already ticked: a lifted rail stays lifted on the next press.
    const offered = problem?.code ? FLAG_OF[problem.code] : undefined;
    const overrides = [...ticked.map((flag) => ({ flag, ticked: true })), ...(offered && !ticked.includes(offered) ? [{ flag: offered, ticked: false }] : [])];
    const attempt = `dashboard-${randomUUID()}`;
    const page = publishConfirmPage({ viewer: viewerOf(request)!, draft, preview, match, returnTo: back, attempt, error: problem?.message, connect, overrides });
    return { page, status: problem?.status ?? 200 };
  }
  const returnOf = (raw: string | undefined) => (raw === undefined ? null : inboxPath(filterOfPath(raw)));

  app.get('/drafts', { schema: { querystring: pageQuery } }, async (request, reply) => {
    const { cursor } = request.query;
    const drafts = await generate.list(sessionOf(request).accountId, { limit: PAGE_SIZE, cursor });
    return sendPage(reply, draftsPage({ viewer: viewerOf(request)!, drafts, firstPage: !cursor }));
  });

  app.get('/drafts/:id', { schema: { params: idParams } }, async (request, reply) =>
    sendPage(reply, draftPage(viewerOf(request)!, await generate.show(sessionOf(request).accountId, request.params.id))),
  );

  app.get('/drafts/:id/publish', { schema: { params: idParams, querystring: confirmQuery } }, async (request, reply) => {
    const { page, status } = await renderConfirm(request, request.params.id, returnOf(request.query.return_to));
    return sendPage(reply, page, status);
  });

  app.post('/drafts/:id/publish', { schema: { params: idParams, body: confirmBody } }, async (request, reply) => {
    const { id } = request.params;
    const back = returnOf(request.body.return_to);
    const ticked = (['allow_duplicate', 'allow_second_reply'] as const).filter((flag) => request.body[flag] !== undefined);
    const lifted: Partial<Record<RailFlag, true>> = {};
    for (const flag of ticked) lifted[flag] = true;
    let published;
    try {
      ({ publication: published } = await publish.publish(dashboardCaller(request), { generation_id: id, ...lifted }, request.body.attempt));
    } catch (error) {
      const { page, status } = await renderConfirm(request, id, back, appProblem(error), ticked);
      return sendPage(reply, page, status);
    }
    // Only a second press of the same confirmation can answer a failure (its replay): shown like the first answer was.
    if (published.status === 'failed') {
      const { page, status } = await renderConfirm(request, id, back, { message: published.error ?? 'Reddit refused it.', status: 409 }, ticked);
      return sendPage(reply, page, status);
    }
    const matchId = (await generate.get(sessionOf(request).accountId, id)).match_id;
    if (!back) return reply.redirect(`/dashboard/publications/${published.id}`, 303);
    const filter = filterOfPath(back);
    return reply.redirect(matchId ? backToEntry(filter, 'published', matchId) : inboxPath(filter, { done: 'published' }), 303);
  });

  app.get('/publications', { schema: { querystring: pageQuery } }, async (request, reply) => {
    const { cursor } = request.query;
    const publications = await publish.list(sessionOf(request).accountId, { limit: PAGE_SIZE, cursor });
    return sendPage(reply, publicationsPage({ viewer: viewerOf(request)!, publications, firstPage: !cursor }));
  });

  app.get('/publications/:id', { schema: { params: idParams } }, async (request, reply) =>
    sendPage(reply, publicationPage(viewerOf(request)!, await publish.show(sessionOf(request).accountId, request.params.id))),
  );
};
