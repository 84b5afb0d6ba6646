import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { callerOf } from '../../keys/keys.hooks.ts';
import { monitorsErrors } from '../../monitors/monitors.errors.ts';
import { monitorParamsSchema } from '../../monitors/monitors.schemas.ts';
import { destinationsErrors } from '../destinations.errors.ts';
import { routeBodySchema, routeListSchema, routeParamsSchema, routeSchema } from './alerts.schemas.ts';
import type { AlertsUsecases } from './alerts.usecases.ts';

const FREE = 'Free: routes cost nothing, and neither do the messages sent.';

/** Which destinations get a monitor's matches, and how often (docs/api/destinations.md, "Routing a monitor"). */
export const alertsRoutes: FastifyPluginAsyncTypebox<{ alerts: AlertsUsecases }> = async (app, { alerts }) => {
  app.get(
    '/monitors/:id/destinations',
    {
      config: { scope: 'read', errors: [monitorsErrors.notFound()] },
      schema: {
        summary: "The destinations a monitor's matches go to (free)",
        operationId: 'listMonitorRoutes',
        description: FREE,
        tags: ['destinations'],
        params: monitorParamsSchema,
        response: { 200: routeListSchema },
      },
    },
    async (request) => alerts.list(callerOf(request).accountId, request.params.id),
  );

  app.put(
    '/monitors/:id/destinations/:destination_id',
    {
      config: {
        scope: 'monitors',
        errors: [monitorsErrors.notFound(), destinationsErrors.notFound(), destinationsErrors.invalidSchedule('instant'), destinationsErrors.invalidTimeZone('Mars/Olympus_Mons')],
      },
      schema: {
        summary: "Send a monitor's matches to a destination, at once or as a digest",
        operationId: 'routeMonitor',
        description:
          'Matches found from now on are sent; earlier ones are not. A filtered match (below the monitor\'s relevance bar) is never sent. ' +
          `Again with another frequency changes it, and nothing is sent twice or skipped. ${FREE}`,
        tags: ['destinations'],
        params: routeParamsSchema,
        body: routeBodySchema,
        response: { 200: routeSchema },
      },
    },
    async (request) => alerts.route(callerOf(request).accountId, request.params.id, request.params.destination_id, request.body),
  );

  app.delete(
    '/monitors/:id/destinations/:destination_id',
    {
      config: { scope: 'monitors', errors: [monitorsErrors.notFound(), destinationsErrors.routeNotFound()] },
      schema: {
        summary: "Stop sending a monitor's matches to a destination",
        operationId: 'unrouteMonitor',
        description: `Messages already waiting are still sent. ${FREE}`,
        tags: ['destinations'],
        params: routeParamsSchema,
        response: { 204: Type.Null({ description: 'No longer sent there' }) },
      },
    },
    async (request, reply) => {
      await alerts.unroute(callerOf(request).accountId, request.params.id, request.params.destination_id);
      return reply.code(204).send(null);
    },
  );
};
