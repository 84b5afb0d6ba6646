import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { MonitorsUsecases } from '../monitors/monitors.usecases.ts';
import type { StreamCoverageUsecases } from '../monitors/stream/stream.coverage.usecases.ts';
import type { AlertsUsecases } from '../destinations/alerts/alerts.usecases.ts';
import type { DestinationsUsecases } from '../destinations/destinations.usecases.ts';
import { isAppError, type AppError } from '../../shared/errors.ts';
import { alertBody, alertFormOf, alertRefusal, routeInputOf, type Refused } from './dashboard.destinations-form.ts';
import { formBody, formOfBody, formProblemOf, formRefusal, inputOf } from './dashboard.monitors-form.ts';
import { formProblem, sendPage } from './dashboard.reply.ts';
import { sessionOf, viewerOf } from './dashboard.session.ts';
import type { MonitorAlerts } from './views/monitor-alerts.ts';
import type { MatchesView } from './views/monitor-matches.ts';
import { deleteConfirmPage, monitorPage, type MonitorPage } from './views/monitor.ts';
import { monitorsPage, type MonitorsPage } from './views/monitors.ts';
import { CHART_HOURS } from './views/stream-chart.ts';

const PAGE_SIZE = 25;
const NOTICES = {
  created: 'The monitor was created; it matches what is posted from now on.',
  saved: 'The changes were saved.',
  paused: 'The monitor was paused: nothing is matched or charged until you resume it.',
  resumed: 'The monitor was resumed: it matches what is posted from now on.',
  deleted: 'The monitor was deleted.',
  routed: 'Saved: new matches of this monitor go to that destination from now on.',
  unrouted: 'Stopped: no more matches go to that destination (messages already waiting are still sent).',
};
type Done = keyof typeof NOTICES;
const doneQuery = Type.Optional(Type.Union((Object.keys(NOTICES) as Done[]).map((done) => Type.Literal(done))));
const cursor = Type.Optional(Type.String({ maxLength: 200 }));
const pageQuery = Type.Object({ cursor, done: doneQuery });
const monitorParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
// `view=filtered`: the matches judged below the monitor's bar instead of the delivered ones.
const monitorQuery = Type.Object({ cursor, done: doneQuery, view: Type.Optional(Type.Literal('filtered')) });
const csrfOnly = Type.Object({ csrf: Type.Optional(Type.String()) });
const routeParams = Type.Object({ id: Type.String({ maxLength: 64 }), destination_id: Type.String({ maxLength: 64 }) });

/**
 * The Monitors pages: the account's monitors and a form to create one; each monitor's status, health,
 * matches (newest first, paged), settings and alerts (the destinations its matches go to); pause, resume
 * and delete. Behind requireSession.
 */
export const monitorsRoutes: FastifyPluginAsyncTypebox<{
  monitors: MonitorsUsecases;
  destinations: DestinationsUsecases;
  alerts: AlertsUsecases;
  streamCoverage: StreamCoverageUsecases;
}> = async (app, { monitors, destinations, alerts, streamCoverage }) => {
  const renderList = async (request: FastifyRequest, cursor: string | undefined, extras: Pick<MonitorsPage, 'notice' | 'error' | 'fieldErrors' | 'form'>) => {
    const { accountId } = sessionOf(request);
    const [list, reddit, usage, stream] = await Promise.all([
      monitors.list(accountId, { limit: PAGE_SIZE, cursor }),
      monitors.redditApp(),
      monitors.usage(accountId),
      streamCoverage.coverage(CHART_HOURS),
    ]);
    const activity = await monitors.activity(accountId, list.data.map((m) => m.id));
    return monitorsPage({ viewer: viewerOf(request)!, monitors: list, reddit, usage, stream, activity, firstPage: !cursor, ...extras });
  };
  /** Another account's monitor is as unknown as a made-up id: the usecases answer 404 for both. */
  const renderMonitor = async (
    request: FastifyRequest,
    id: string,
    shown: { cursor?: string; view?: MatchesView },
    extras: Pick<MonitorPage, 'notice' | 'error' | 'formError' | 'fieldErrors' | 'form'> & { alerts?: Omit<MonitorAlerts, 'routes' | 'destinations'> },
  ) => {
    const { accountId } = sessionOf(request);
    const view = shown.view ?? 'delivered';
    const monitor = await monitors.get(accountId, id);
    const filtered = view === 'filtered' ? 'only' : 'without';
    const [matches, routes, owned] = await Promise.all([
      monitors.matches(accountId, id, { limit: PAGE_SIZE, cursor: shown.cursor, filtered }),
      alerts.list(accountId, id),
      destinations.list(accountId),
    ]);
    // Each route with its destination as shown (name, status, why it is off); a route's destination is always the account's.
    const byId = new Map(owned.data.map((d) => [d.id, d]));
    const routed = routes.data.map((route) => ({ ...route, destination: byId.get(route.destination_id)! }));
    const alertsView = { routes: routed, destinations: owned.data, ...extras.alerts };
    return monitorPage({ viewer: viewerOf(request)!, monitor, matches, view, firstPage: !shown.cursor, ...extras, alerts: alertsView });
  };
  /** A refusal about this monitor's form is shown on its page; an unknown monitor is the 404 page. */
  const refusal = (problem: AppError) => {
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
      const problem = formProblemOf(error);
      const { message, fields } = formRefusal(problem, input);
      return sendPage(reply, await renderList(request, undefined, { error: message, fieldErrors: fields, form }), problem.status);
    }
  });

  app.get('/monitors/:id', { schema: { params: monitorParams, querystring: monitorQuery } }, async (request, reply) => {
    const { cursor, done, view } = request.query;
    return sendPage(reply, await renderMonitor(request, request.params.id, { cursor, view }, { notice: done ? NOTICES[done] : undefined }));
  });

  app.post('/monitors/:id', { schema: { params: monitorParams, body: formBody } }, async (request, reply) => {
    const { id } = request.params;
    const form = formOfBody(request.body);
    const input = inputOf(form);
    try {
      await monitors.update(sessionOf(request).accountId, id, input);
    } catch (error) {
      const problem = refusal(formProblemOf(error));
      const { message, fields } = formRefusal(problem, input);
      return sendPage(reply, await renderMonitor(request, id, {}, { formError: message, fieldErrors: fields, form }), problem.status);
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
        const problem = refusal(formProblem(error));
        return sendPage(reply, await renderMonitor(request, id, {}, { error: problem.message }), problem.status);
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

  app.post('/monitors/:id/alerts', { schema: { params: monitorParams, body: alertBody } }, async (request, reply) => {
    const { id } = request.params;
    const form = alertFormOf(request.body);
    const refused = async ({ status, message, field }: Refused) =>
      sendPage(reply, await renderMonitor(request, id, {}, { alerts: { error: message, fieldErrors: field ? { [field]: message } : {}, form } }), status);
    const checked = routeInputOf(form);
    if ('refusal' in checked) return refused(checked.refusal);
    try {
      await alerts.route(sessionOf(request).accountId, id, form.destinationId, checked.input);
    } catch (error) {
      return refused(alertRefusal(refusal(formProblem(error))));
    }
    return reply.redirect(`/dashboard/monitors/${id}?done=routed#alerts`, 303);
  });

  app.post('/monitors/:id/alerts/:destination_id/stop', { schema: { params: routeParams, body: csrfOnly } }, async (request, reply) => {
    const { id, destination_id } = request.params;
    try {
      await alerts.unroute(sessionOf(request).accountId, id, destination_id);
    } catch (error) {
      // A second press finds the route already gone: what it asked for is done.
      if (!isAppError(error) || error.code !== 'destinations.route_not_found') throw error;
    }
    return reply.redirect(`/dashboard/monitors/${id}?done=unrouted#alerts`, 303);
  });
};
