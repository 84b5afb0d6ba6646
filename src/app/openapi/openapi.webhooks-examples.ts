/**
 * One example body per webhook event (three for monitor.health, one per kind), in the shapes the
 * senders build (test/api/openapi-webhooks.test.ts checks each against its schema). Ids follow the
 * service's layout: a prefix, 12 hex digits of milliseconds, 16 more hex digits.
 */
import type { WebhookEventType } from '../../modules/webhooks/webhooks.events.ts';

interface Example {
  summary: string;
  value: { type: WebhookEventType; timestamp: string; data: Record<string, unknown> };
}

const MONITOR = { monitor_id: 'mon_01a208a2b86e5c0f7d3e9a41b2c6', name: 'pricing mentions' };

const MATCH = {
  id: 'mat_01a208b6cc6c3f9d2a7b0e415c86',
  monitor_id: MONITOR.monitor_id,
  type: 'comment',
  reddit_id: 't1_lx8q2zd',
  subreddit: 'r/SaaS',
  title: 'What do you pay for Reddit monitoring?',
  body: 'Their pricing page says 1 credit per match.',
  author: 'founder42',
  permalink: 'https://www.reddit.com/r/SaaS/comments/1h2m9xq/what_do_you_pay_for_reddit_monitoring/lx8q2zd/',
  created_at: '2026-11-23T14:01:31.000Z',
  matched_keywords: ['pricing'],
  found_at: '2026-11-23T14:02:07.338Z',
  relevance: null,
  relevance_reason: null,
  judge_error: null,
  judge_model: null,
  filtered: false,
  // Just found: nobody has answered or dismissed it yet.
  status: 'new',
  draft_id: null,
  publication_id: null,
  source: 'reddit',
};

const scrape = {
  id: 'scr_01a208a71f60b4e29c7a05d1f38e',
  subreddits: ['r/node', 'r/webdev'],
  keywords: ['webhooks'],
  query: null,
  match: 'word',
  sort: 'new',
  time: 'week',
  limit: 100,
  include_nsfw: false,
  sources: ['posts'],
  webhook_url: 'https://hooks.example.com/subpilot',
  created_at: '2026-11-23T13:45:00.000Z',
  completed_at: '2026-11-23T13:45:01.312Z',
};

export const webhookExamples: Record<WebhookEventType, Record<string, Example>> = {
  'scrape.completed': {
    completed: {
      summary: 'A scrape that found one post; r/webdev was private, so its share of the hold was released',
      value: {
        type: 'scrape.completed',
        timestamp: '2026-11-23T13:45:01.320Z',
        data: {
          ...scrape,
          status: 'completed',
          results: [
            {
              type: 'post',
              id: 't3_1h2k3m4',
              subreddit: 'r/node',
              title: 'How do you retry failed webhooks?',
              body: 'Our receiver was down for an hour and we lost events.',
              author: 'some_dev',
              url: 'https://www.reddit.com/r/node/comments/1h2k3m4/how_do_you_retry_failed_webhooks/',
              permalink: 'https://www.reddit.com/r/node/comments/1h2k3m4/how_do_you_retry_failed_webhooks/',
              created_at: '2026-11-23T12:58:40.000Z',
              score: 12,
              num_comments: 4,
              nsfw: false,
              matched_keywords: ['webhooks'],
              source: 'reddit',
              truncated: false,
            },
          ],
          unavailable: [{ subreddit: 'r/webdev', reason: 'private' }],
          skipped: 0,
          credits: { charged: 1 },
          error: null,
        },
      },
    },
  },
  'scrape.failed': {
    failed: {
      summary: 'Reddit kept failing: nothing was charged and the hold was released',
      value: {
        type: 'scrape.failed',
        timestamp: '2026-11-23T13:45:04.907Z',
        data: {
          ...scrape,
          completed_at: '2026-11-23T13:45:04.900Z',
          status: 'failed',
          results: [],
          unavailable: [],
          skipped: 0,
          credits: { charged: 0 },
          error: 'Reddit answered HTTP 503 (4 attempts)',
        },
      },
    },
  },
  'monitor.matches': {
    matches: {
      summary: 'One new match (a delivery carries up to 100)',
      value: { type: 'monitor.matches', timestamp: '2026-11-23T14:02:07.340Z', data: { ...MONITOR, matches: [MATCH] } },
    },
    drafted: {
      // Sent once the draft is written, so the match is already drafted.
      summary: 'A match of a monitor with draft_replies: draft_id names the reply drafted for it (GET /api/v1/generations/{id}); nothing is published by itself',
      value: {
        type: 'monitor.matches',
        timestamp: '2026-11-23T14:02:07.340Z',
        data: { ...MONITOR, matches: [{ ...MATCH, status: 'drafted', draft_id: 'gen_01a208b6cc7e5d1f3a9c2b7e0d64' }] },
      },
    },
  },
  'monitor.paused': {
    credits: {
      summary: 'Paused because the account could not pay for more matches',
      value: { type: 'monitor.paused', timestamp: '2026-11-23T14:02:07.402Z', data: { ...MONITOR, reason: 'insufficient_credits' } },
    },
  },
  'monitor.resumed': {
    credits: {
      summary: 'Resumed after credits were added; it catches up from where it stopped',
      value: {
        type: 'monitor.resumed',
        timestamp: '2026-11-23T15:10:00.215Z',
        data: { ...MONITOR, reason: 'credits_available', from: '2026-11-23T14:01:58.000Z' },
      },
    },
  },
  'monitor.health': {
    subreddit: {
      summary: 'A watched subreddit became unavailable',
      value: { type: 'monitor.health', timestamp: '2026-11-23T14:03:00.118Z', data: { ...MONITOR, subreddit: 'r/SaaS', state: 'private' } },
    },
    gap: {
      summary: 'More was posted than one cycle could read: what was posted between from and to may have been missed',
      value: {
        type: 'monitor.health',
        timestamp: '2026-11-23T14:04:00.530Z',
        data: {
          ...MONITOR,
          gap: { source: 'posts', subreddits: ['r/SaaS'], from: '2026-11-23T14:02:07.000Z', to: '2026-11-23T14:03:12.000Z' },
        },
      },
    },
    reddit: {
      summary: "Reddit started refusing this service's app (sent once per change)",
      value: {
        type: 'monitor.health',
        timestamp: '2026-11-23T14:05:00.044Z',
        data: { ...MONITOR, reddit: { state: 'blocked', since: '2026-11-23T14:05:00.021Z' } },
      },
    },
    judge: {
      summary: 'Every call to the relevance judge failed: matches go out unjudged (sent once per change)',
      value: {
        type: 'monitor.health',
        timestamp: '2026-11-23T14:06:00.310Z',
        data: { ...MONITOR, judge: { state: 'failing', since: '2026-11-23T14:06:00.290Z', error: 'the language model answered HTTP 503' } },
      },
    },
  },
  'credits.low': {
    low: {
      summary: 'The spendable balance fell below the threshold',
      value: {
        type: 'credits.low',
        timestamp: '2026-11-23T13:46:02.118Z',
        data: { available: 19, threshold: 20, crossed_at: '2026-11-23T13:46:01.904Z' },
      },
    },
  },
  'credits.topup_failed': {
    declined: {
      summary: 'The saved card was declined',
      value: {
        type: 'credits.topup_failed',
        timestamp: '2026-11-23T13:46:04.310Z',
        data: {
          payment_id: 'pay_019ab2c3d4e5f60718293a4b5c6d',
          credits: 2000,
          amount: 1800,
          currency: 'usd',
          code: 'card_declined',
          reason: 'The card was declined (generic_decline): Your card was declined.',
          failures_in_a_row: 1,
          auto_topup_disabled: true,
        },
      },
    },
  },
  'destination.off': {
    gone: {
      summary: 'Slack said the webhook was removed',
      value: {
        type: 'destination.off',
        timestamp: '2026-11-25T09:30:01.204Z',
        data: { destination_id: 'dst_0192f0c1a2b3c4d5e6f7a8b9c0d1', kind: 'slack', name: '#leads', reason: 'Slack answered 404 no_service: the webhook was removed', off_at: '2026-11-25T09:30:01.180Z' },
      },
    },
  },
  'webhook.test': {
    test: {
      summary: 'Sent from the dashboard',
      value: { type: 'webhook.test', timestamp: '2026-11-23T13:40:11.502Z', data: { message: 'A test event sent from the dashboard.' } },
    },
  },
};
