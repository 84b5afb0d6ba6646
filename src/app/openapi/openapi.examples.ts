import { operationsOf } from './openapi.passes.ts';

type Json = Record<string, any>;

/*
 * One example per request and success body, as the server writes them; the contract test validates
 * each against its schema, so an example cannot drift from what it illustrates.
 */

const created = '2026-11-25T09:14:03.000Z';
const page = <T>(data: T[]) => ({ data, has_more: false, next_cursor: null });

const result = {
  type: 'post',
  id: 't3_1h2k9xq',
  subreddit: 'r/SaaS',
  title: 'Is there a tool that alerts me when someone asks for a CRM for freelancers?',
  body: 'I keep missing threads where people ask for recommendations…',
  author: 'quietfounder',
  url: 'https://www.reddit.com/r/SaaS/comments/1h2k9xq/is_there_a_tool/',
  permalink: 'https://www.reddit.com/r/SaaS/comments/1h2k9xq/is_there_a_tool/',
  created_at: '2026-11-25T08:02:41.000Z',
  score: 14,
  num_comments: 9,
  nsfw: false,
  matched_keywords: ['crm for freelancers'],
};

const scrape = {
  id: 'scr_5f0c2a9e1b7d4c3a8e6f0b2d9c41',
  status: 'completed',
  subreddits: ['r/SaaS', 'r/freelance'],
  keywords: ['crm for freelancers'],
  query: null,
  sort: 'new',
  time: 'week',
  limit: 100,
  include_nsfw: false,
  sources: ['posts'],
  webhook_url: null,
  results: [result],
  unavailable: [],
  skipped: 0,
  credits: { charged: 2, balance: 498 },
  error: null,
  created_at: created,
  completed_at: '2026-11-25T09:14:05.000Z',
};

const { results: _results, ...scrapeSummary } = scrape;

const monitor = {
  id: 'mon_3b9d1f7a2c4e6a8c0e2b4d6f8a1c',
  name: 'CRM questions',
  status: 'active',
  paused_reason: null,
  paused_until: null,
  subreddits: ['r/SaaS', 'r/freelance'],
  keywords: ['crm for freelancers', 'client tracking'],
  exclude_keywords: ['hiring'],
  match: 'phrase',
  sources: ['posts', 'comments'],
  include_nsfw: false,
  webhook_url: 'https://hooks.example.com/subpilot',
  max_matches_per_day: 200,
  query: null,
  intent: 'a freelancer asking which tool to use to keep track of clients',
  min_relevance: 60,
  health: {
    status: 'ok',
    reddit: { state: 'ok', since: null },
    subreddits: [{ subreddit: 'r/SaaS', state: 'ok', stale: false, last_read_at: created, last_error: null }],
    gaps: [],
    judge: { state: 'ok', since: null, error: null },
  },
  created_at: created,
  updated_at: created,
};

const match = {
  id: 'mat_8c2e4a6b0d1f3a5c7e9b1d3f5a7c',
  monitor_id: monitor.id,
  type: 'comment',
  reddit_id: 't1_lq3x8z2',
  subreddit: 'r/freelance',
  title: 'What do you use to keep track of clients?',
  body: 'Honestly a CRM for freelancers would save me hours every week.',
  author: 'designbyjo',
  permalink: 'https://www.reddit.com/r/freelance/comments/1h2m0aa/what_do_you_use/lq3x8z2/',
  created_at: '2026-11-25T09:10:12.000Z',
  matched_keywords: ['crm for freelancers'],
  found_at: created,
  relevance: 88,
  relevance_reason: 'The commenter says "a CRM for freelancers would save me hours", a direct wish for such a tool.',
  judge_error: null,
  judge_model: 'gpt-4o-mini',
  filtered: false,
};

const generation = {
  id: 'gen_0c4d2e8f1a3b5c7d9e0f2a4b6c8d',
  type: 'reply',
  status: 'completed',
  post_id: 't3_1h2k9xq',
  subreddit: 'r/SaaS',
  title: null,
  body: 'We built exactly this for our own agency: a shared inbox of client threads…',
  model: 'gpt-4o-mini',
  usage: { prompt_tokens: 412, completion_tokens: 96, total_tokens: 508 },
  credits: { charged: 5, balance: 493 },
  error: null,
  created_at: created,
};

const publication = {
  id: 'pub_7e1f3a5c9b2d4e6f8a0c1e3b5d7f',
  status: 'published',
  type: 'comment',
  generation_id: generation.id,
  reddit: { id: 't1_lq3y0a1', permalink: 'https://www.reddit.com/r/SaaS/comments/1h2k9xq/is_there_a_tool/lq3y0a1/' },
  credits: { charged: 10, balance: 483 },
  error: null,
  created_at: created,
};

const ledgerEntry = {
  id: 1042,
  type: 'charge',
  amount: -2,
  balance_after: 498,
  key: { name: 'n8n', prefix: 'ak_live_3f9a0c1d' },
  scrape_id: scrape.id,
  generation_id: null,
  publication_id: null,
  payment: null,
  owed_change: 0,
  reason: null,
  description: 'Scrape of r/SaaS, r/freelance: 1 post',
  via: 'api',
  created_at: created,
};

const payment = {
  id: 'pay_019abc0123450123456789abcdef',
  status: 'paid',
  source: 'checkout',
  credits: 2000,
  amount: 1800,
  currency: 'usd',
  price: '18.00 USD',
  credited: true,
  created_at: created,
  paid_at: '2026-11-25T09:15:12.000Z',
};

const purchaseEntry = {
  ...ledgerEntry,
  id: 1043,
  type: 'purchase',
  amount: 2000,
  balance_after: 2498,
  key: null,
  scrape_id: null,
  payment: { id: payment.id, amount: 1800, currency: 'usd', source: 'checkout' },
  description: 'Purchase for 18.00 USD',
  via: 'dashboard',
};

const monitorRequest = {
  name: 'CRM questions',
  subreddits: ['r/SaaS', 'r/freelance'],
  keywords: ['crm for freelancers', 'client tracking'],
  exclude_keywords: ['hiring'],
  sources: ['posts', 'comments'],
  webhook_url: 'https://hooks.example.com/subpilot',
};

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
      reply: { type: 'reply', post_id: 't3_1h2k9xq', instructions: 'Answer helpfully; mention we built a CRM for freelancers.', tone: 'friendly' },
      post: { type: 'post', subreddit: 'r/SaaS', instructions: 'Ask how others track freelance clients.', max_length: 800 },
    },
    responses: { 200: generation },
  },
  getGeneration: { responses: { 200: generation } },
  createPublication: {
    request: {
      draft: { generation_id: generation.id },
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
      },
    },
    responses: { 201: monitor },
  },
  listMonitors: { responses: { 200: page([monitor]) } },
  getMonitor: { responses: { 200: monitor } },
  updateMonitor: {
    request: {
      pause: { status: 'paused' },
      keywords: { keywords: ['crm for freelancers', 'freelance crm'] },
      bar: { min_relevance: 80 },
    },
    responses: { 200: { ...monitor, status: 'paused', paused_reason: 'user' } },
  },
  deleteMonitor: { responses: {} },
  listMonitorMatches: { responses: { 200: { ...page([match]), next_cursor: null } } },
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
