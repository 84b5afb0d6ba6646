/**
 * Every event type this service sends, in one place: `enqueue` takes only these, and the OpenAPI
 * document has one `webhooks` entry per type (test/api/openapi-webhooks.test.ts holds the two
 * together), so a new event cannot go out undocumented.
 */
export const WEBHOOK_EVENT_TYPES = [
  'scrape.completed',
  'scrape.failed',
  'monitor.matches',
  'monitor.paused',
  'monitor.resumed',
  'monitor.health',
  'credits.low',
  'credits.topup_failed',
  'destination.off',
  'webhook.test',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The events about one monitor, sent to the monitor's own webhook_url. */
export type MonitorEventType = Extract<WebhookEventType, `monitor.${string}`>;
