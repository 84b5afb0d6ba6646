import { MATCHES_PER_DELIVERY } from '../../modules/monitors/poller/poller.delivery.ts';
import type { WebhookEventType } from '../../modules/webhooks/webhooks.events.ts';

/** Where each event goes and when it is sent. */
export const WHEN: Record<WebhookEventType, { summary: string; when: string }> = {
  'scrape.completed': { summary: 'A scrape completed', when: "Sent to the scrape's `webhook_url` once the scrape completed and its charge was settled." },
  'scrape.failed': { summary: 'A scrape failed', when: "Sent to the scrape's `webhook_url` once the scrape failed and its hold was released." },
  'monitor.matches': {
    summary: 'A monitor found new matches',
    when: `Sent to the monitor's \`webhook_url\` when new matches were stored, in batches of up to ${MATCHES_PER_DELIVERY}. The batch's webhook-id is derived from its matches, so it is never sent as two events, even after a crash.`,
  },
  'monitor.paused': { summary: 'The service paused a monitor', when: "Sent to the monitor's `webhook_url` when the service paused it (credits ran out, or its daily cap)." },
  'monitor.resumed': { summary: 'The service resumed a monitor', when: "Sent to the monitor's `webhook_url` when the service resumed it after a pause for credits." },
  'monitor.health': {
    summary: "A monitor's health changed",
    when: "Sent to the monitor's `webhook_url` when a watched subreddit became unavailable, when a gap was recorded, when Reddit's treatment of the service's app changed, or when the relevance judge started or stopped failing.",
  },
  'credits.low': {
    summary: 'The balance fell below the low-balance threshold',
    when: "Sent to the account's own endpoint (dashboard, Webhooks page) when the spendable balance falls below the threshold set on the Credits page; once per crossing, its webhook-id derived from the crossing.",
  },
  'credits.topup_failed': {
    summary: 'An auto top-up failed',
    when: "Sent to the account's own endpoint when an auto top-up's card needs authentication or is declined; once per failed top-up, its webhook-id derived from the payment.",
  },
  'destination.off': {
    summary: 'A destination was switched off',
    when: "Sent to the account's own endpoint when Slack or Discord said a destination is gone (a removed webhook, an archived channel) and it was switched off; once per destination, its webhook-id derived from the destination's id.",
  },
  'webhook.test': { summary: 'A test event', when: "Sent to the URL given in the dashboard's \"Send a test event\" form (Webhooks page)." },
};
