/**
 * The resources the examples of openapi.examples.ts are made of, as the server writes them, each
 * naming the others by the same ids (a match's draft is the generation below, its publication the
 * publication), so that a reader can follow one thread through the document.
 */

export const created = '2026-11-25T09:14:03.000Z';
export const page = <T>(data: T[]) => ({ data, has_more: false, next_cursor: null });

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
  source: 'reddit',
};

export const scrape = {
  id: 'scr_5f0c2a9e1b7d4c3a8e6f0b2d9c41',
  status: 'completed',
  subreddits: ['r/SaaS', 'r/freelance'],
  keywords: ['crm for freelancers'],
  query: null,
  match: 'word',
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

const { results: _results, ...summary } = scrape;
/** A scrape as lists show it: without its results. */
export const scrapeSummary = summary;

/** The thread followed through the examples: a monitor's match, the draft written for it, and its publication. */
const ids = { match: 'mat_8c2e4a6b0d1f3a5c7e9b1d3f5a7c', generation: 'gen_0c4d2e8f1a3b5c7d9e0f2a4b6c8d', publication: 'pub_7e1f3a5c9b2d4e6f8a0c1e3b5d7f' };

export const monitor = {
  id: 'mon_3b9d1f7a2c4e6a8c0e2b4d6f8a1c',
  name: 'CRM questions',
  status: 'active',
  paused_reason: null,
  paused_until: null,
  subreddits: ['r/SaaS', 'r/freelance'],
  exclude_subreddits: [],
  keywords: ['crm for freelancers', 'client tracking'],
  exclude_keywords: ['hiring'],
  match: 'word',
  sources: ['posts', 'comments'],
  include_nsfw: false,
  webhook_url: 'https://hooks.example.com/subpilot',
  max_matches_per_day: 200,
  query: null,
  intent: 'a freelancer asking which tool to use to keep track of clients',
  min_relevance: 60,
  draft_replies: true,
  draft_instructions: 'Say we built a CRM for freelancers only when they ask for a tool; link nothing.',
  health: {
    status: 'ok',
    reddit: { state: 'ok', since: null },
    subreddits: [{ subreddit: 'r/SaaS', state: 'ok', stale: false, last_read_at: created, last_error: null }],
    read_by_stream: [],
    gaps: [],
    judge: { state: 'ok', since: null, error: null }, stream: null,
    destinations: [{ id: 'dst_0192f0c1a2b3aa11bb22cc33dd44', name: 'Leads', kind: 'discord', status: 'off', reason: 'Discord says the webhook was deleted (Unknown Webhook)' }],
  },
  created_at: created,
  updated_at: created,
};

export const match = {
  id: ids.match,
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
  status: 'published',
  draft_id: ids.generation,
  publication_id: ids.publication,
  source: 'reddit',
};

/** A match still waiting for a person: no draft yet. */
export const newMatch = {
  ...match,
  id: 'mat_9d3f5b7c1e2a4b6d8f0a2c4e6b8d',
  type: 'post',
  reddit_id: 't3_1h2n4cc',
  title: 'Spreadsheet or CRM for 12 clients?',
  body: 'I freelance as a designer and my spreadsheet is falling apart. What do you all use?',
  author: 'pixelpusher',
  permalink: 'https://www.reddit.com/r/freelance/comments/1h2n4cc/spreadsheet_or_crm_for_12_clients/',
  created_at: '2026-11-25T09:12:40.000Z',
  relevance: 93,
  relevance_reason: 'The poster asks which tool to use to track their clients.',
  status: 'new',
  draft_id: null,
  publication_id: null,
};

export const generation = {
  id: ids.generation,
  type: 'reply',
  status: 'completed',
  post_id: 't3_1h2m0aa',
  reply_to: match.reddit_id,
  match_id: match.id,
  subreddit: match.subreddit,
  title: null,
  body: 'Same problem here. What worked for me was one shared inbox per client, with the threads and the invoices side by side…',
  model: 'gpt-4o-mini',
  usage: { prompt_tokens: 412, completion_tokens: 96, total_tokens: 508 },
  credits: { charged: 5, balance: 493 },
  error: null,
  created_at: '2026-11-25T09:14:05.000Z',
  edited_at: null,
};

/** The draft once a person has changed its text (PATCH /generations/{id}), before publishing it. */
export const editedGeneration = {
  ...generation,
  body: 'Same problem here. One shared inbox per client, with the threads and the invoices side by side, fixed it for me.',
  credits: { charged: 5 },
  edited_at: '2026-11-25T09:17:30.000Z',
};

export const publication = {
  id: ids.publication,
  status: 'published',
  type: 'comment',
  generation_id: generation.id,
  reddit: { id: 't1_lq3y0a1', permalink: 'https://www.reddit.com/r/freelance/comments/1h2m0aa/what_do_you_use/lq3y0a1/' },
  credits: { charged: 10, balance: 483 },
  error: null,
  created_at: '2026-11-25T09:18:12.000Z',
  source: 'reddit',
};

/** The published match as the inbox shows it: its monitor's name, its draft and its publication in brief. */
export const inboxItem = {
  ...match,
  monitor_name: monitor.name,
  status_at: publication.created_at,
  draft: { id: generation.id, status: 'completed', body: editedGeneration.body, error: null, edited_at: editedGeneration.edited_at },
  publication: { id: publication.id, status: 'published', permalink: publication.reddit.permalink, author: 'quietfounder' },
};

/** The match waiting for a person, as the inbox shows it. */
export const newInboxItem = { ...newMatch, monitor_name: monitor.name, status_at: null, draft: null, publication: null };

export const ledgerEntry = {
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

export const payment = {
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

export const purchaseEntry = {
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

export const monitorRequest = {
  name: 'CRM questions',
  subreddits: ['r/SaaS', 'r/freelance'],
  keywords: ['crm for freelancers', 'client tracking'],
  exclude_keywords: ['hiring'],
  sources: ['posts', 'comments'],
  webhook_url: 'https://hooks.example.com/subpilot',
};

/** A Slack destination (the URL shown only by its last four characters). */
export const destination = {
  id: 'dst_0192f0c1a2b3c4d5e6f7a8b9c0d1',
  kind: 'slack',
  name: '#leads',
  url: '…/uvwx',
  address: null,
  chat: null,
  status: 'active',
  off_reason: null,
  link: null,
  confirm_by: null,
  created_at: '2026-11-25T09:00:00.000Z',
};

/** An email destination just added: one mail with a link went to the address. */
export const emailDestination = {
  ...destination,
  id: 'dst_0192f0c1a2b3d4d5e6f7a8b9c0d1',
  kind: 'email',
  name: 'Sales inbox',
  url: null,
  address: 'sales@example.com',
  status: 'unconfirmed',
  confirm_by: '2026-12-02T09:00:00.000Z',
};

/** A Telegram destination waiting for its chat: the person opens `link` in Telegram and presses Start. */
export const telegramDestination = {
  ...destination,
  id: 'dst_0192f0c1a2b3e4d5e6f7a8b9c0d1',
  kind: 'telegram',
  name: 'Growth team',
  url: null,
  status: 'unconfirmed',
  link: 'https://t.me/subpilot_alerts_bot?start=0192f0c1a2b3e4d5e6f7a8b9c0d1Zk3q9TnV0bX2cW8yA1sE4r',
  confirm_by: '2026-12-02T09:00:00.000Z',
};

/** A test message sent to it at the first attempt. */
export const destinationDelivery = {
  id: 'out_0192f0c1a2b4c4d5e6f7a8b9c0d1',
  subject: 'test:tst_0192f0c1a2b4c4d5e6f7a8b9c0d2',
  status: 'sent',
  created_at: '2026-11-25T09:01:00.000Z',
  sent_at: '2026-11-25T09:01:00.412Z',
  receipt: null,
  error: null,
  attempts: [{ attempted_at: '2026-11-25T09:01:00.120Z', status_code: 200, answer: 'ok', error: null, duration_ms: 292 }],
};

/** The monitor's matches to #leads as they are found, and a daily digest to another destination. */
export const route = {
  monitor_id: monitor.id,
  destination_id: destination.id,
  frequency: 'instant',
  at: null,
  time_zone: null,
  next_digest_at: null,
  created_at: '2026-11-25T09:05:00.000Z',
};
export const dailyRoute = {
  ...route,
  destination_id: 'dst_0192f0c1a2b3aa11bb22cc33dd44',
  frequency: 'daily',
  at: '09:00',
  time_zone: 'Europe/Berlin',
  next_digest_at: '2026-11-26T08:00:00.000Z',
};
