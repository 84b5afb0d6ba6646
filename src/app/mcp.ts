import type { FastifyInstance } from 'fastify';
import { createMcpEndpoint } from '../modules/mcp/mcp.endpoint.ts';
import { mcpAllowedHosts, mcpRoutes, oauthDiscoveryRoutes } from '../modules/mcp/mcp.routes.ts';
import type { Services } from './container.ts';

/** The version agents see in serverInfo: the API's, which changes when the tools' contract does. */
const MCP_SERVER_VERSION = '1.0.0';

/** /mcp for agents, on the same usecases, keys and limits as /api/v1/ (docs/api/mcp.md), and the OAuth discovery it answers. */
export async function registerMcp(app: FastifyInstance, services: Services) {
  const { handler } = createMcpEndpoint({
    scrape: services.scrape,
    monitors: services.monitors,
    inbox: services.inbox,
    generate: services.generate,
    publish: services.publish,
    credits: services.credits,
    destinations: services.destinations,
    alerts: services.alerts,
    idempotency: services.idempotency,
    rateLimit: services.rateLimit,
    billing: services.billing,
    prices: services.prices,
    previewDailyLimit: services.config.stream.previewDailyLimit,
    scrapeWaitMs: services.config.jobs.syncWaitMs,
    version: MCP_SERVER_VERSION,
  });
  app.addHook('onClose', async () => handler.close());
  await app.register(mcpRoutes, {
    handler,
    keys: services.keys,
    authFailures: services.authFailures,
    allowedHosts: mcpAllowedHosts(services.config),
  });
  await app.register(oauthDiscoveryRoutes);
}
