import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { AccountSettingsUsecases } from '../accounts/accounts.usecases.ts';
import type { GenerateUsecases } from '../generate/generate.usecases.ts';
import { inboxErrors } from '../monitors/inbox/inbox.errors.ts';
import type { InboxUsecases } from '../monitors/inbox/inbox.usecases.ts';
import type { MonitorsUsecases } from '../monitors/monitors.usecases.ts';
import { backToEntry, filterOf, filterOfPath, inboxPath, type InboxFilter } from './views/inbox-filter.ts';
import { appProblem, formProblem, goneAsNull, sendPage } from './dashboard.reply.ts';
import { dashboardCaller, sessionOf, viewerOf } from './dashboard.session.ts';
import { inboxPage, type InboxPage } from './views/inbox.ts';

const PAGE_SIZE = 25;
// The filter's choices: an account has at most a few dozen monitors (monitors.limits.ts), all listed at once.
const MONITORS_LISTED = 100;
const NOTICES = {
  drafted: 'The draft is written: edit it if you like, then approve and publish it.',
  saved: 'The draft was saved.',
  dismissed: 'The match was dismissed.',
  restored: 'The match is back in the inbox.',
  published: 'Published on Reddit.',
  voice: 'The voice for drafts was saved: new drafts are written with it.',
};
type Done = keyof typeof NOTICES;

const text = (maxLength: number) => Type.Optional(Type.String({ maxLength }));
const matchId = () => Type.String({ pattern: '^mat_[0-9a-f]{1,60}$', 'x-rule': 'must be a match id: mat_ and hex digits' });
const inboxQuery = Type.Object({
  status: text(20),
  monitor: text(64),
  min: text(10),
  cursor: text(200),
  done: Type.Optional(Type.Union((Object.keys(NOTICES) as Done[]).map((done) => Type.Literal(done)))),
  // The match the notice is about: shown even when the list no longer holds it.
  match: Type.Optional(matchId()),
});
const matchParams = Type.Object({ id: matchId() });
// Every form carries the inbox address it came from (views/inbox-filter.ts reads it back).
const back = { csrf: Type.Optional(Type.String()), return_to: text(1000) };
const draftBody = Type.Object({ ...back, instructions: text(10_000) });
const replyBody = Type.Object({ ...back, body: Type.String({ maxLength: 100_000 }), then: Type.Union([Type.Literal('save'), Type.Literal('publish')]) });
const statusBody = Type.Object({ ...back, status: Type.Union([Type.Literal('new'), Type.Literal('dismissed')]) });
const voiceBody = Type.Object({ ...back, voice: Type.String({ maxLength: 10_000 }) });

/** Browsers send a text box's line breaks as CRLF (HTML's form encoding); the text is kept as typed, with LF like the model's. */
const typed = (text: string) => text.replace(/\r\n?/g, '\n');

/** Generate's longest body (generationEditSchema), counted as the person sees characters. */
const MAX_BODY = 40_000;
const length = (value: string) => [...value].length;

type Extras = Pick<InboxPage, 'notice' | 'problem' | 'voiceError' | 'voiceInput'>;

/**
 * The Inbox page: the account's delivered matches with their drafts; drafting a reply (charged like any
 * draft), editing it in place, approving it (the confirm step of dashboard.publishing-routes.ts), and
 * dismissing or restoring a match; and the account's voice for drafts. Behind requireSession; every
 * action answers with the inbox it came from, at the match's entry.
 */
export const inboxRoutes: FastifyPluginAsyncTypebox<{
  inbox: InboxUsecases;
  monitors: MonitorsUsecases;
  generate: GenerateUsecases;
  accountSettings: AccountSettingsUsecases;
}> = async (app, { inbox, monitors, generate, accountSettings }) => {
  /** `focus`: the match a notice is about (its id in the address), kept in sight like a refused one. */
  async function render(request: FastifyRequest, filter: InboxFilter, extras: Extras, focus = extras.problem?.matchId) {
    const { accountId } = sessionOf(request);
    const statuses = filter.status ? [filter.status] : undefined;
    const [items, owned, settings] = await Promise.all([
      inbox.list(accountId, { limit: PAGE_SIZE, cursor: filter.cursor, monitorId: filter.monitor, statuses, minRelevance: filter.min }),
      monitors.list(accountId, { limit: MONITORS_LISTED }),
      accountSettings.settings(accountId),
    ]);
    // The match just acted on stays in sight when this tab or page no longer holds it (a new match drafted on "New").
    const pinned = focus && !items.data.some((item) => item.id === focus) ? await inbox.get(accountId, focus).catch(goneAsNull) : null;
    return inboxPage({
      viewer: viewerOf(request)!,
      items,
      filter,
      monitors: owned.data.map(({ id, name }) => ({ id, name })),
      voice: settings.voice,
      pinned,
      ...extras,
    });
  }

  app.get('/inbox', { schema: { querystring: inboxQuery } }, async (request, reply) => {
    const { done, match, ...query } = request.query;
    return sendPage(reply, await render(request, filterOf(query), { notice: done ? NOTICES[done] : undefined }, match));
  });

  app.post('/inbox/:id/draft', { schema: { params: matchParams, body: draftBody } }, async (request, reply) => {
    const { id } = request.params;
    const filter = filterOfPath(request.body.return_to);
    const instructions = typed(request.body.instructions ?? '');
    const refuse = async (message: string, status: number) =>
      sendPage(reply, await render(request, filter, { problem: { matchId: id, message, instructions } }), status);
    // The limit is the usecase's (inbox.draftReply), checked once for the Inbox and MCP alike, before any charge.
    try {
      await inbox.draftReply(dashboardCaller(request), id, instructions);
    } catch (error) {
      const problem = appProblem(error);
      return refuse(problem.message, problem.status);
    }
    return reply.redirect(backToEntry(filter, 'drafted', id), 303);
  });

  app.post('/inbox/:id/reply', { schema: { params: matchParams, body: replyBody } }, async (request, reply) => {
    const { id } = request.params;
    const { then } = request.body;
    const body = typed(request.body.body);
    const filter = filterOfPath(request.body.return_to);
    const { accountId } = sessionOf(request);
    const item = await inbox.get(accountId, id);
    const refuse = async (message: string, status: number) =>
      sendPage(reply, await render(request, filter, { problem: { matchId: id, message, body } }), status);
    if (item.status === 'published') return refuse(inboxErrors.published(id).message, 409);
    if (!item.draft) return refuse('This match has no draft yet: draft a reply first.', 409);
    if (!body.trim()) return refuse('The reply is empty: write something, or dismiss the match.', 422);
    if (length(body) > MAX_BODY) return refuse(`A reply is at most ${MAX_BODY.toLocaleString('en')} characters; shorten it and save again.`, 422);
    try {
      // Unchanged text stays "as drafted": only a real edit is recorded as one.
      if (body !== item.draft.body) await generate.edit(accountId, item.draft.id, { body });
    } catch (error) {
      const problem = appProblem(error);
      return refuse(problem.message, problem.status);
    }
    if (then === 'save') return reply.redirect(backToEntry(filter, 'saved', id), 303);
    return reply.redirect(`/dashboard/drafts/${item.draft.id}/publish?return_to=${encodeURIComponent(inboxPath(filter))}`, 303);
  });

  app.post('/inbox/:id/status', { schema: { params: matchParams, body: statusBody } }, async (request, reply) => {
    const { id } = request.params;
    const { status } = request.body;
    const filter = filterOfPath(request.body.return_to);
    try {
      await inbox.setStatus(sessionOf(request).accountId, id, status);
    } catch (error) {
      const problem = formProblem(error);
      if (problem.status === 404) throw problem;
      return sendPage(reply, await render(request, filter, { problem: { matchId: id, message: problem.message } }), problem.status);
    }
    return reply.redirect(backToEntry(filter, status === 'dismissed' ? 'dismissed' : 'restored', id), 303);
  });

  app.post('/inbox/voice', { schema: { body: voiceBody } }, async (request, reply) => {
    const voice = typed(request.body.voice);
    const filter = filterOfPath(request.body.return_to);
    try {
      await accountSettings.setVoice(sessionOf(request).accountId, voice);
    } catch (error) {
      const problem = formProblem(error);
      return sendPage(reply, await render(request, filter, { voiceError: problem.message, voiceInput: voice }), problem.status);
    }
    return reply.redirect(`${inboxPath(filter, { done: 'voice' })}#voice`, 303);
  });
};
