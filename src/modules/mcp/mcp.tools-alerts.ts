import { routeBodySchema, routeParamsSchema, type RouteBody } from '../destinations/alerts/alerts.schemas.ts';
import { argumentsOf } from './mcp.schemas.ts';
import { tool, type ToolDeps } from './mcp.tools-kit.ts';

type Destination = Awaited<ReturnType<ToolDeps['destinations']['list']>>['data'][number];

/** Where a destination's messages go, as its owner knows it; never a webhook's URL (answers show only its end). */
const whereTo = (d: Destination) => d.address ?? d.chat ?? d.url ?? 'a chat not linked yet';

const describeDestination = (d: Destination) =>
  `${d.id} "${d.name}" (${d.kind}, ${whereTo(d)}): ${d.status}${d.status === 'off' ? `, ${d.off_reason}` : d.status === 'unconfirmed' ? ', waiting for its owner to confirm it' : ''}`;

/**
 * Alerts for agents: which destinations the account has, and sending a monitor's matches to one.
 * Decision: no tool creates a destination. A webhook URL is a secret, which would sit in the model's
 * context and its logs, and an address or a Telegram chat is confirmed by a person anyway; people add
 * destinations on the dashboard or through the API (docs/api/mcp.md).
 */
export const alertTools = ({ destinations, alerts }: ToolDeps) => [
  tool<Record<string, never>>({
    name: 'list_destinations',
    title: 'List alert destinations',
    description:
      "This account's alert destinations (Slack and Discord channels, email addresses, Telegram chats), newest first, with their ids for " +
      'route_monitor_alerts and whether each works (active), waits for its owner to confirm it (unconfirmed) or was switched off (off, with why). ' +
      'Free: spends no credits.',
    scope: 'read',
    schema: argumentsOf(null),
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: async (caller) => {
      const { data } = await destinations.list(caller.accountId);
      const lines = data.map((d) => `- ${describeDestination(d)}`);
      const summary = data.length === 0 ? 'No destinations yet: the account adds them on the dashboard page Destinations.' : [`${data.length} destination${data.length === 1 ? '' : 's'}:`, ...lines].join('\n');
      return { summary, data: { data } };
    },
  }),
  tool<RouteBody & { id: string; destination_id: string }>({
    name: 'route_monitor_alerts',
    title: "Send a monitor's matches to a destination",
    description:
      "From now on, sends each new match of the monitor (id) to the destination (destination_id, from list_destinations): at once (instant), " +
      'or as a digest every hour (hourly) or every day at `at` in `time_zone` (daily). Calling it again changes the frequency. Matches found ' +
      'before are not sent, and a filtered match never is. Free: spends no credits, and neither do the messages.',
    scope: 'monitors',
    schema: argumentsOf(routeParamsSchema, routeBodySchema.properties),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    run: async (caller, { id, destination_id, ...route }) => {
      const made = await alerts.route(caller.accountId, id, destination_id, route);
      const when = made.frequency === 'daily' ? `a daily digest at ${made.at} ${made.time_zone}` : made.frequency === 'hourly' ? 'an hourly digest' : 'each match at once';
      return { summary: `Monitor ${id} now sends ${when} to destination ${destination_id}.`, data: made };
    },
  }),
];
