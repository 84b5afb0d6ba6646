/**
 * The OpenAPI 3.1 `webhooks` section: the events this service POSTs to its users' receivers, each
 * with the exact signed body, the Standard Webhooks headers and what the receiver must answer. The
 * figures (timeout, retries, batch size) come from the code that sends, so the document cannot drift.
 * `Scrape` and `Match` are the API's own schemas (components.schemas, defined with the endpoints).
 */
import { MATCHES_PER_DELIVERY } from '../../modules/monitors/poller/poller.delivery.ts';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../modules/webhooks/webhooks.events.ts';
import { DELIVERY_TIMEOUT_MS, WEBHOOK_RETRIES } from '../../modules/webhooks/webhooks.usecases.ts';
import { webhookExamples } from './openapi.webhooks-examples.ts';
import { WHEN } from './openapi.webhooks-when.ts';

/** WEBHOOK_RETRY_DELAY_SECONDS when the operator leaves it unset (config.ts; the test holds the two together). */
export const DEFAULT_RETRY_DELAY_SECONDS = 30;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const dateTime = (description: string) => ({ type: 'string', format: 'date-time', description });
const id = (prefix: string, description: string) => ({ type: 'string', pattern: `^${prefix}_[0-9a-f]{28}$`, description });

/** An object whose keys are exactly these: the senders build it from a literal, nothing else gets in. */
const closed = (properties: Record<string, unknown>, description?: string) => ({
  type: 'object',
  ...(description ? { description } : {}),
  required: Object.keys(properties),
  properties,
  additionalProperties: false,
});

/** What every monitor event's `data` starts with. */
const monitorFields = {
  monitor_id: id('mon', 'The monitor the event is about.'),
  name: { type: 'string', description: "The monitor's name when the event was queued." },
};

/** An event: the envelope, with its own `type` and `data`. */
const event = (type: WebhookEventType, data: Record<string, unknown>, description: string) => ({
  description,
  allOf: [ref('WebhookEnvelope')],
  type: 'object',
  required: ['type', 'timestamp', 'data'],
  properties: { type: { const: type }, data },
});

/** A settled scrape as the API shows it, narrowed to how it ended. */
const settledScrape = (status: 'completed' | 'failed', error: Record<string, unknown>) => ({
  description: 'The scrape as GET /api/v1/scrapes/{id} returns it (`credits` holds `charged` only: no `balance`).',
  allOf: [ref('Scrape')],
  type: 'object',
  required: ['status', 'error', 'completed_at'],
  properties: { status: { const: status }, error, completed_at: dateTime('When the scrape ended.') },
});

export const webhookSchemas: Record<string, unknown> = {
  WebhookEnvelope: closed(
    {
      type: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES], description: 'The event type: which schema `data` follows.' },
      timestamp: dateTime('When the event was queued (UTC). The `webhook-timestamp` header is when this attempt was signed.'),
      data: { type: 'object', description: 'What the event is about; its shape depends on `type`.' },
    },
    'What every webhook body is: the event type, when it was queued, and its data. The body is signed as sent: verify the raw bytes before parsing.',
  ),
  ScrapeCompletedEvent: event(
    'scrape.completed',
    settledScrape('completed', { type: 'null' }),
    'A scrape with `webhook_url` completed: its results, what was unavailable, and what it cost.',
  ),
  ScrapeFailedEvent: event(
    'scrape.failed',
    settledScrape('failed', { type: 'string', description: 'Why it failed; nothing was charged and the hold was released.' }),
    'A scrape with `webhook_url` failed (Reddit failing or refusing the app, or the scrape interrupted too often).',
  ),
  MonitorMatchesEvent: event(
    'monitor.matches',
    closed({
      ...monitorFields,
      matches: {
        type: 'array',
        minItems: 1,
        maxItems: MATCHES_PER_DELIVERY,
        items: ref('Match'),
        description: 'Oldest first, each as GET /api/v1/monitors/{id}/matches lists it.',
      },
    }),
    `New matches of a monitor were stored (and charged), up to ${MATCHES_PER_DELIVERY} per event.`,
  ),
  MonitorPausedEvent: event(
    'monitor.paused',
    closed({
      ...monitorFields,
      reason: {
        type: 'string',
        enum: ['insufficient_credits', 'daily_cap'],
        description:
          '`insufficient_credits`: the account could not pay for more matches; it resumes by itself once it can (monitor.resumed) and catches up. ' +
          '`daily_cap`: max_matches_per_day was reached; it resumes at 00:00 UTC without an event.',
      },
    }),
    'The service paused a monitor. A pause by its owner sends nothing.',
  ),
  MonitorResumedEvent: event(
    'monitor.resumed',
    closed({
      ...monitorFields,
      reason: { const: 'credits_available', description: 'The account can pay for a match again (a grant or a purchase).' },
      from: dateTime('Where the monitor stopped: what was posted since then is caught up on.'),
    }),
    'The service resumed a monitor it had paused for credits. Not sent when its owner resumes it, nor when a daily-cap pause ends.',
  ),
  MonitorHealthEvent: event(
    'monitor.health',
    { oneOf: [ref('MonitorHealthSubredditData'), ref('MonitorHealthGapData'), ref('MonitorHealthRedditData'), ref('MonitorHealthJudgeData')] },
    "Something changed in a monitor's health: one of four kinds, told apart by the key beside monitor_id and name (`subreddit`, `gap`, `reddit` or `judge`).",
  ),
  MonitorHealthSubredditData: closed(
    {
      ...monitorFields,
      subreddit: { type: 'string', pattern: '^r/', description: 'The watched subreddit, as "r/name".' },
      state: {
        type: 'string',
        enum: ['private', 'banned', 'not_found', 'quarantined', 'gated'],
        description: "Named as in the monitor's health (a bare 403 from Reddit reads `quarantined`).",
      },
    },
    'A watched subreddit became unavailable; the monitor goes on reading the others.',
  ),
  MonitorHealthGapData: closed(
    {
      ...monitorFields,
      gap: closed({
        source: { type: 'string', enum: ['posts', 'comments'] },
        subreddits: { type: 'array', items: { type: 'string' }, description: 'The monitor\'s subreddits the gap concerns, as "r/name".' },
        from: dateTime('Start of the stretch that may have been missed.'),
        to: dateTime('End of that stretch.'),
      }),
    },
    'A gap was recorded: more was posted than could be read (or than Reddit still lists), so things created between `from` and `to` may have been missed.',
  ),
  MonitorHealthRedditData: closed(
    {
      ...monitorFields,
      reddit: closed({
        state: {
          type: 'string',
          enum: ['ok', 'blocked', 'failing'],
          description: "`blocked`: Reddit refuses this service's app; `failing`: every read failed (5xx, timeouts, 429); `ok`: reads succeed again.",
        },
        since: dateTime('When the poller saw the change.'),
      }),
    },
    "How Reddit treats this service's app changed: sent once per change to every active monitor with a webhook_url, never on every cycle.",
  ),
  MonitorHealthJudgeData: closed(
    {
      ...monitorFields,
      judge: closed({
        state: { type: 'string', enum: ['ok', 'failing'], description: '`failing`: every call to the model failed, so matches go out unjudged; `ok`: it judges again.' },
        since: dateTime('When the poller saw the change.'),
        error: { type: ['string', 'null'], description: 'Why the calls fail, while failing; null once ok.' },
      }),
    },
    'The relevance judge started or stopped failing: sent once per change to every active monitor with an intent and a webhook_url, never per match.',
  ),
  CreditsLowEvent: event(
    'credits.low',
    closed({
      available: { type: 'integer', description: 'The spendable balance (balance − held) the crossing move left.' },
      threshold: { type: 'integer', minimum: 1, description: "The account's low-balance threshold." },
      crossed_at: dateTime('When the move that crossed the threshold happened.'),
    }),
    "The account's spendable balance fell below its low-balance threshold: once per crossing.",
  ),
  CreditsTopupFailedEvent: event(
    'credits.topup_failed',
    closed({
      payment_id: id('pay', 'The top-up payment that failed.'),
      credits: { type: 'integer', description: 'The pack it was buying.' },
      amount: { type: 'integer', description: "Its price in the currency's smallest unit (cents for usd)." },
      currency: { type: 'string', description: 'ISO 4217, lower case.' },
      code: {
        type: 'string',
        enum: ['authentication_required', 'card_declined'],
        description: '`authentication_required`: the bank wants the card holder to confirm (3-D Secure); `card_declined`: the bank refused.',
      },
      reason: { type: 'string', description: 'What happened, in words for a person.' },
      failures_in_a_row: { type: 'integer', minimum: 1, description: 'Always 1: a card that failed is never charged again, so no failure follows another (kept for receivers written when a card was tried three times).' },
      auto_topup_disabled: { type: 'boolean', description: 'Always true: a card that failed is never charged again, so auto top-up switched itself off until a new checkout saves a card that works.' },
    }),
    'An auto top-up could not charge the saved card; nothing was bought. Saving the auto top-up settings again on the Credits page asks for a card that works at a new checkout.',
  ),
  DestinationOffEvent: event(
    'destination.off',
    closed({
      destination_id: id('dst', 'The destination switched off.'),
      kind: { type: 'string', enum: ['slack', 'discord'], description: 'The service it posted to.' },
      name: { type: 'string', description: "The destination's name." },
      reason: { type: 'string', description: 'What the service answered, in words: why nothing more can be sent there.' },
      off_at: dateTime('When it was switched off.'),
    }),
    'A destination is gone (the service said the webhook or channel no longer exists) and was switched off: nothing more is sent to it. Create it again with a working URL and route the monitors to it.',
  ),
  WebhookTestEvent: event(
    'webhook.test',
    closed({ message: { type: 'string', description: 'Always "A test event sent from the dashboard."' } }),
    'A test event: accept it (answer 2xx) and otherwise ignore it.',
  ),
};

/** The event's schema name and operationId stem: `monitor.matches` → `MonitorMatches`. */
const pascal = (type: string) =>
  type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');

const totalHours = Math.round((DEFAULT_RETRY_DELAY_SECONDS * (2 ** WEBHOOK_RETRIES - 1)) / 3600);
const timeout = `${DELIVERY_TIMEOUT_MS / 1000} s`;

const DELIVERY =
  `Each event is signed (Standard Webhooks: see the three headers) with the account's secret (\`whsec_…\`, on the dashboard's Webhooks page). ` +
  `Delivered at least once: an attempt that does not get a 2xx answer within ${timeout} is retried with the same webhook-id and body, ` +
  `the first retry ${DEFAULT_RETRY_DELAY_SECONDS} s after the failed attempt started (the operator's WEBHOOK_RETRY_DELAY_SECONDS), each delay twice the last, ` +
  `${WEBHOOK_RETRIES} times: about ${totalHours} hours with the default. After that the delivery has failed (the dashboard can retry it). ` +
  'Answer 2xx at once, do the work afterwards, and drop duplicates by webhook-id.';

const HEADERS = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: "The event's id: the same on every retry of one event. Drop a body whose webhook-id you already handled.",
    schema: id('msg', 'msg_ and 28 hex digits'),
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description:
      'When this attempt was signed, in whole seconds since 1970-01-01 UTC. Refuse one far from your clock (Standard Webhooks libraries allow 5 minutes) so an old request cannot be replayed.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      '`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded part of the secret after `whsec_`. ' +
      'Compute it over the raw body as received, compare in constant time, and refuse the request when it differs. ' +
      'A space-separated list: accept the request if any entry matches. This service sends one, and two for 24 hours after the secret is rolled (the new and the old).',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/]{43}=( v1,[A-Za-z0-9+/]{43}=)*$' },
  },
];

const RESPONSES = {
  '2XX': { description: 'Acknowledged: the delivery is recorded as delivered and not sent again. The body of the answer is ignored.' },
  default: {
    description:
      `Anything else is a failed attempt, retried: any other status (a 3xx too: redirects are not followed), no complete answer within ${timeout}, ` +
      'or no connection (refused, TLS failure, an address that is no longer allowed).',
  },
};

/** The OpenAPI 3.1 `webhooks` object: one entry per event this service sends. */
export function webhooksSection(): Record<string, unknown> {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `${pascal(type).replace(/^./, (c) => c.toLowerCase())}Webhook`,
          summary: WHEN[type].summary,
          description: `${WHEN[type].when}\n\n${DELIVERY}`,
          tags: ['webhooks'],
          parameters: HEADERS,
          requestBody: {
            required: true,
            description: `The \`${type}\` event, as signed: the envelope (\`type\`, \`timestamp\`, \`data\`) and its data.`,
            content: { 'application/json': { schema: ref(`${pascal(type)}Event`), examples: webhookExamples[type] } },
          },
          responses: RESPONSES,
        },
      },
    ]),
  );
}
