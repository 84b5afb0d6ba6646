import {
  destination,
  emailDestination,
  telegramDestination,
  dailyRoute,
  destinationDelivery,
  editedGeneration,
  generation,
  inboxItem,
  ledgerEntry,
  match,
  monitor,
  monitorRequest,
  newInboxItem,
  page,
  payment,
  publication,
  purchaseEntry,
  route,
  scrape,
  scrapeSummary,
} from './openapi.examples-samples.ts';
import { operationsOf } from './openapi.passes.ts';

type Json = Record<string, any>;

/** What a monitor's rule would have matched in the stream's last hour: in the answers of a create or a change. */
const preview = { matched_last_hour: 3, items_in_window: 2140, window_started_at: '2026-11-30T11:02:00.000Z', estimated_per_day: 72, daily_limit: 2000, reason: null };

/*
 * One example per request and success body, as the server writes them (the resources are in
 * openapi.examples-samples.ts); the contract test validates each against its schema, so an example
 * cannot drift from what it illustrates.
 */

/** Per operationId: the request body's examples by name, and each success status's body. */
const EXAMPLES: Record<string, { request?: Record<string, unknown>; responses: Record<string, unknown> }> = {
  getBalance: { responses: { 200: { balance: 498, owed: 0 } } },
  listUsage: { responses: { 200: { ...page([purchaseEntry, ledgerEntry]), has_more: true, next_cursor: 'MTA0Mg' } } },
  createCheckout: {
    request: { pack: { credits: 2000 } },
    responses: {
      201: {
        payment: { ...payment, status: 'open', credited: false, paid_at: null },
        url: 'https://checkout.stripe.com/c/pay/cs_live_a1b2c3d4e5f6',
        expires_at: '2026-11-26T09:14:03.000Z',
      },
    },
  },
  getPayment: { responses: { 200: payment } },
  listCreditPacks: {
    responses: {
      200: {
        packs: [
          { credits: 500, amount: 500, currency: 'usd', price: '5.00 USD' },
          { credits: 2000, amount: 1800, currency: 'usd', price: '18.00 USD' },
        ],
        buy_url: 'https://subpilot.example.com/dashboard/credits',
        contact: null,
      },
    },
  },
  getDailyUsage: {
    responses: {
      200: {
        key: { name: 'n8n', prefix: 'ak_live_3f9a0c1d' },
        days: [
          { date: '2026-11-24', credits: 14 },
          { date: '2026-11-25', credits: 2 },
        ],
        total: 16,
        month_to_date: { spent: 96, limit: 500, resets_at: '2026-12-01T00:00:00.000Z' },
      },
    },
  },
  createScrape: {
    request: {
      posts: { subreddits: ['r/SaaS', 'r/freelance'], keywords: ['crm for freelancers'], sort: 'new', time: 'week' },
      query: { subreddits: ['r/SaaS', 'r/freelance'], query: '(crm OR "client tracking") freelance -hiring', sources: ['posts', 'comments'] },
    },
    responses: { 200: scrape, 202: { ...scrape, status: 'running', results: [], credits: { charged: 0 }, completed_at: null } },
  },
  listScrapes: { responses: { 200: page([scrapeSummary]) } },
  getScrape: { responses: { 200: scrape } },
  createGeneration: {
    request: {
      match: { type: 'reply', reply_to: match.id, instructions: 'Share what worked for us; no links.' },
      comment: { type: 'reply', reply_to: match.reddit_id, instructions: 'Answer helpfully; mention we built a CRM for freelancers.', tone: 'friendly' },
      post: { type: 'post', subreddit: 'r/SaaS', instructions: 'Ask how others track freelance clients.', max_length: 800 },
    },
    responses: { 200: generation },
  },
  getGeneration: { responses: { 200: generation } },
  updateGeneration: { request: { edit: { body: editedGeneration.body } }, responses: { 200: editedGeneration } },
  createPublication: {
    request: {
      draft: { generation_id: generation.id },
      second_reply: { generation_id: generation.id, allow_second_reply: true },
      comment: { type: 'comment', parent: 't3_1h2k9xq', body: 'We use a shared inbox of client threads; happy to share how.' },
      post: { type: 'post', subreddit: 'r/SaaS', title: 'How do you track freelance clients?', body: 'Spreadsheets, a CRM, something else?' },
    },
    responses: { 200: publication },
  },
  getPublication: { responses: { 200: publication } },
  createMonitor: {
    request: {
      monitor: monitorRequest,
      judged: {
        name: 'Tool questions',
        subreddits: ['r/SaaS', 'r/freelance'],
        query: '("which tool" OR recommend OR alternative) (crm OR "client tracking") -hiring',
        intent: 'a freelancer asking which tool to use to keep track of clients',
        min_relevance: 70,
        draft_replies: true,
        draft_instructions: monitor.draft_instructions,
      },
      all_of_reddit: { name: 'Brand mentions', subreddits: ['all'], exclude_subreddits: ['r/gaming'], query: '"subpilot" -hiring', sources: ['posts', 'comments'] },
      confirmed: { name: 'Every CRM mention', subreddits: ['all'], keywords: ['crm'], confirm_volume: true },
    },
    responses: { 201: { ...monitor, preview } },
  },
  listMonitors: { responses: { 200: page([monitor]) } },
  getMonitor: { responses: { 200: monitor } },
  updateMonitor: {
    request: {
      pause: { status: 'paused' },
      keywords: { keywords: ['crm for freelancers', 'freelance crm'] },
      bar: { min_relevance: 80 },
    },
    responses: { 200: { ...monitor, status: 'paused', paused_reason: 'user', preview } },
  },
  deleteMonitor: { responses: {} },
  createDestination: {
    request: {
      slack: { kind: 'slack', name: '#leads', url: 'https://hooks.slack.com/services/T0001/B0001/abcdefghijklmnopqrstuvwx' },
      discord: { kind: 'discord', name: 'Leads', url: 'https://discord.com/api/webhooks/1234567890/token-of-the-webhook' },
      email: { kind: 'email', name: 'Sales inbox', address: 'sales@example.com' },
      telegram: { kind: 'telegram', name: 'Growth team' },
    },
    responses: { 201: telegramDestination },
  },
  updateDestination: {
    request: { rename: { name: '#leads-emea' }, new_url: { url: 'https://hooks.slack.com/services/T0001/B0001/zyxwvutsrqponmlkjihgfedc' } },
    responses: { 200: { ...destination, name: '#leads-emea' } },
  },
  listDestinations: {
    responses: {
      200: {
        data: [
          telegramDestination,
          emailDestination,
          destination,
          { ...destination, id: 'dst_0192f0c1a2b3aa11bb22cc33dd44', kind: 'discord', name: 'Leads', url: '…/hook', status: 'off', off_reason: 'Discord says the webhook was deleted (Unknown Webhook)' },
        ],
      },
    },
  },
  getDestination: { responses: { 200: destination } },
  deleteDestination: { responses: {} },
  testDestination: { request: { standard: {}, own: { text: 'Checking the #leads alerts' } }, responses: { 202: { ...destinationDelivery, status: 'pending', sent_at: null, attempts: [] } } },
  listDestinationDeliveries: { responses: { 200: { data: [destinationDelivery] } } },
  listMonitorRoutes: { responses: { 200: { data: [route, dailyRoute] } } },
  routeMonitor: {
    request: { instant: { frequency: 'instant' }, hourly: { frequency: 'hourly' }, daily: { frequency: 'daily', at: '09:00', time_zone: 'Europe/Berlin' } },
    responses: { 200: dailyRoute },
  },
  unrouteMonitor: { responses: {} },
  listMonitorMatches: { responses: { 200: { ...page([match]), next_cursor: null } } },
  listInbox: { responses: { 200: page([newInboxItem, inboxItem]) } },
  getMatch: { responses: { 200: inboxItem } },
  getStreamCoverage: {
    responses: {
      200: {
        enabled: true,
        hours: [
          { hour: '2026-11-25T09:00:00.000Z', source: 'posts', first_id: 't3_1h2k0a0', last_id: 't3_1h2k9zz', asked: 46800, returned: 44930, unavailable: 1716, pending: 154, skipped: 0 },
          { hour: '2026-11-25T09:00:00.000Z', source: 'comments', first_id: 't1_m3b40000', last_id: 't1_m3bd0zzz', asked: 412340, returned: 398210, unavailable: 13020, pending: 1110, skipped: 20000 },
        ],
        gaps: [{ source: 'comments', from_id: 't1_m3b5a0a0', to_id: 't1_m3b5n8c7', recorded_at: '2026-11-25T09:12:10.000Z' }],
      },
    },
  },
  updateMatch: {
    request: { dismiss: { status: 'dismissed' }, reopen: { status: 'new' } },
    responses: { 200: { ...newInboxItem, status: 'dismissed', status_at: '2026-11-25T09:20:45.000Z' } },
  },
};

/** Puts each example on its media object, where code generators and reference pages read them. */
export function addExamples(doc: Json): void {
  for (const [path, method, op] of operationsOf(doc)) {
    const examples = EXAMPLES[op.operationId ?? ''];
    if (!examples) throw new Error(`No examples for ${method.toUpperCase()} ${path}`);
    const requestMedia = op.requestBody?.content?.['application/json'];
    if (requestMedia) {
      requestMedia.examples = Object.fromEntries(Object.entries(examples.request ?? {}).map(([name, value]) => [name, { value }]));
    }
    for (const [status, body] of Object.entries(examples.responses)) {
      const media = op.responses[status]?.content?.['application/json'];
      if (!media) throw new Error(`${op.operationId} has no ${status} body to illustrate`);
      media.example = body;
    }
  }
}
