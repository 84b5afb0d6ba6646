import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import Type, { type Static } from 'typebox';
import type { MonitorSource } from '../monitors/monitors.tables.ts';
import type { MonitorInput, MonitorsUsecases } from '../monitors/monitors.usecases.ts';
import type { AppError } from '../../shared/errors.ts';
import { fieldName } from '../../shared/http/validation-messages.ts';
import { formProblem, sendPage } from './dashboard.reply.ts';
import { sessionOf, viewerOf } from './dashboard.session.ts';
import type { MonitorForm } from './views/monitor-parts.ts';
import { deleteConfirmPage, monitorPage, type MonitorPage } from './views/monitor.ts';
import { monitorsPage, type MonitorsPage } from './views/monitors.ts';

const PAGE_SIZE = 25;
const NOTICES = {
  created: 'The monitor was created; it matches what is posted from now on.',
  saved: 'The changes were saved.',
  paused: 'The monitor was paused: nothing is matched or charged until you resume it.',
  resumed: 'The monitor was resumed: it matches what is posted from now on.',
  deleted: 'The monitor was deleted.',
};
type Done = keyof typeof NOTICES;
const doneQuery = Type.Optional(Type.Union((Object.keys(NOTICES) as Done[]).map((done) => Type.Literal(done))));
const pageQuery = Type.Object({ cursor: Type.Optional(Type.String({ maxLength: 200 })), done: doneQuery });
const monitorParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const csrfOnly = Type.Object({ csrf: Type.Optional(Type.String()) });
// Text areas are long enough for the API's limits (100 subreddits, 50 keywords of 100 characters) with room for spacing.
const formBody = Type.Object({
  csrf: Type.Optional(Type.String()),
  name: Type.String({ maxLength: 200 }),
  subreddits: Type.String({ maxLength: 10_000 }),
  keywords: Type.String({ maxLength: 10_000 }),
  exclude_keywords: Type.Optional(Type.String({ maxLength: 10_000 })),
  match: Type.Optional(Type.Union([Type.Literal('phrase'), Type.Literal('word')])),
  // The form always sends one empty `sources` (a hidden field), so no box ticked reads as "none", not as "field absent".
  sources: Type.Optional(Type.Union([Type.String({ maxLength: 20 }), Type.Array(Type.String({ maxLength: 20 }), { maxItems: 4 })])),
  include_nsfw: Type.Optional(Type.String({ maxLength: 10 })),
  webhook_url: Type.Optional(Type.String({ maxLength: 2000 })),
  max_matches_per_day: Type.Optional(Type.String({ maxLength: 20 })),
});
type FormBody = Static<typeof formBody>;

const SOURCES: readonly MonitorSource[] = ['posts', 'comments'];
const isSource = (value: string): value is MonitorSource => (SOURCES as readonly string[]).includes(value);
const lines = (text: string) => text.split(/\r?\n/).map((line) => line.trim()).filter(Boolean);

/** The fields as typed, to refill the form after a refusal. */
const formOfBody = (body: FormBody): MonitorForm => ({
  name: body.name,
  subreddits: body.subreddits,
  keywords: body.keywords,
  excludeKeywords: body.exclude_keywords ?? '',
  match: body.match ?? 'phrase',
  // A client that sends no sources field at all gets the API's default.
  sources: body.sources === undefined ? ['posts'] : [body.sources].flat().filter(isSource),
  includeNsfw: body.include_nsfw !== undefined,
  webhookUrl: body.webhook_url?.trim() ?? '',
  maxPerDay: body.max_matches_per_day?.trim() ?? '',
});

/**
 * The form in the API's terms: subreddits one per line or comma separated, "r/" added where it was
 * left out; keywords one per line; empty optional fields are "none". The usecases check every value
 * (a daily cap that is not digits arrives as NaN, which they refuse like any other bad number).
 */
function inputOf(form: MonitorForm): Required<MonitorInput> {
  const cap = form.maxPerDay;
  return {
    name: form.name.trim(),
    subreddits: form.subreddits
      .split(/[\s,]+/)
      .filter(Boolean)
      .map((name) => `r/${name.replace(/^\/?r\//i, '')}`),
    keywords: lines(form.keywords),
    exclude_keywords: lines(form.excludeKeywords),
    match: form.match,
    sources: form.sources,
    include_nsfw: form.includeNsfw,
    webhook_url: form.webhookUrl === '' ? null : form.webhookUrl,
    max_matches_per_day: cap === '' ? null : /^\d+$/.test(cap) ? Number(cap) : Number.NaN,
  };
}

const LABELS: Record<string, string> = {
  name: 'Name',
  subreddits: 'Subreddits',
  keywords: 'Keywords',
  exclude_keywords: 'Exclude keywords',
  match: 'Match',
  sources: 'Watch (tick posts, comments or both)',
  include_nsfw: 'Include NSFW',
  webhook_url: 'Webhook URL',
  max_matches_per_day: 'Daily cap',
};

/**
 * A refused form in the form's own words: the usecases word a problem for the API ("subreddits[2] must
 * be …"), the person sees the label and the item they typed instead of the field's API name. Any other
 * refusal keeps its own message.
 */
function formMessage(problem: AppError, input: Required<MonitorInput>): string {
  const issues = problem.extra.errors as { path: string; message: string }[] | undefined;
  if (problem.code !== 'request.invalid' || !issues?.length) return problem.message;
  const parts = issues.map(({ path, message }) => {
    const [field = '', index] = path.split('/').slice(1);
    const item = index === undefined ? undefined : (input[field as keyof MonitorInput] as string[] | undefined)?.[Number(index)];
    const rule = message.startsWith(`${fieldName(path)} `) ? message.slice(fieldName(path).length + 1) : message;
    return `${LABELS[field] ?? field}${item === undefined ? '' : ` “${item}”`} ${rule}`;
  });
  return `Please fix: ${parts.join('; ')}.`;
}

/**
 * The Monitors pages: the account's monitors and a form to create one; each monitor's status, health,
 * matches (newest first, paged) and settings; pause, resume and delete. Behind requireSession.
 */
export const monitorsRoutes: FastifyPluginAsyncTypebox<{ monitors: MonitorsUsecases }> = async (app, { monitors }) => {
  const renderList = async (request: FastifyRequest, cursor: string | undefined, extras: Pick<MonitorsPage, 'notice' | 'error' | 'form'>) => {
    const { accountId } = sessionOf(request);
    const [list, reddit, usage] = await Promise.all([
      monitors.list(accountId, { limit: PAGE_SIZE, cursor }),
      monitors.redditApp(),
      monitors.usage(accountId),
    ]);
    const activity = await monitors.activity(accountId, list.data.map((m) => m.id));
    return monitorsPage({ viewer: viewerOf(request)!, monitors: list, reddit, usage, activity, firstPage: !cursor, ...extras });
  };
  /** Another account's monitor is as unknown as a made-up id: the usecases answer 404 for both. */
  const renderMonitor = async (
    request: FastifyRequest,
    id: string,
    cursor: string | undefined,
    extras: Pick<MonitorPage, 'notice' | 'error' | 'formError' | 'form'>,
  ) => {
    const { accountId } = sessionOf(request);
    const monitor = await monitors.get(accountId, id);
    const matches = await monitors.matches(accountId, id, { limit: PAGE_SIZE, cursor });
    return monitorPage({ viewer: viewerOf(request)!, monitor, matches, firstPage: !cursor, ...extras });
  };
  /** A refusal about this monitor's form is shown on its page; an unknown monitor is the 404 page. */
  const refusal = (error: unknown) => {
    const problem = formProblem(error);
    if (problem.status === 404) throw problem;
    return problem;
  };

  app.get('/monitors', { schema: { querystring: pageQuery } }, async (request, reply) => {
    const { cursor, done } = request.query;
    return sendPage(reply, await renderList(request, cursor, { notice: done ? NOTICES[done] : undefined }));
  });

  app.post('/monitors', { schema: { body: formBody } }, async (request, reply) => {
    const form = formOfBody(request.body);
    const input = inputOf(form);
    try {
      const monitor = await monitors.create(sessionOf(request).accountId, input, { via: 'dashboard' });
      return reply.redirect(`/dashboard/monitors/${monitor.id}?done=created`, 303);
    } catch (error) {
      const problem = formProblem(error);
      return sendPage(reply, await renderList(request, undefined, { error: formMessage(problem, input), form }), problem.status);
    }
  });

  app.get('/monitors/:id', { schema: { params: monitorParams, querystring: pageQuery } }, async (request, reply) => {
    const { cursor, done } = request.query;
    return sendPage(reply, await renderMonitor(request, request.params.id, cursor, { notice: done ? NOTICES[done] : undefined }));
  });

  app.post('/monitors/:id', { schema: { params: monitorParams, body: formBody } }, async (request, reply) => {
    const { id } = request.params;
    const form = formOfBody(request.body);
    const input = inputOf(form);
    try {
      await monitors.update(sessionOf(request).accountId, id, input);
    } catch (error) {
      const problem = refusal(error);
      return sendPage(reply, await renderMonitor(request, id, undefined, { formError: formMessage(problem, input), form }), problem.status);
    }
    return reply.redirect(`/dashboard/monitors/${id}?done=saved`, 303);
  });

  for (const [action, status] of [
    ['pause', 'paused'],
    ['resume', 'active'],
  ] as const) {
    app.post(`/monitors/:id/${action}`, { schema: { params: monitorParams, body: csrfOnly } }, async (request, reply) => {
      const { id } = request.params;
      try {
        await monitors.update(sessionOf(request).accountId, id, { status });
      } catch (error) {
        const problem = refusal(error);
        return sendPage(reply, await renderMonitor(request, id, undefined, { error: problem.message }), problem.status);
      }
      return reply.redirect(`/dashboard/monitors/${id}?done=${status === 'paused' ? 'paused' : 'resumed'}`, 303);
    });
  }

  app.get('/monitors/:id/delete', { schema: { params: monitorParams } }, async (request, reply) =>
    sendPage(reply, deleteConfirmPage(viewerOf(request)!, await monitors.get(sessionOf(request).accountId, request.params.id))),
  );

  app.post('/monitors/:id/delete', { schema: { params: monitorParams, body: csrfOnly } }, async (request, reply) => {
    await monitors.remove(sessionOf(request).accountId, request.params.id);
    return reply.redirect('/dashboard/monitors?done=deleted', 303);
  });
};
