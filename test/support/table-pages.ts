/**
 * An account with rows in every table of the dashboard, each as wide as real ones get: long names, long
 * texts, long receiver URLs, every state that adds a line or a button (a revoked key, a delivery waiting
 * for its retry, a destination switched off). The phone-layout suite measures these pages.
 */
import { expect } from 'vitest';
import { startFakeSlack, type FakeChat } from './fake-chat-webhooks.ts';
import { DashboardClient, uniqueEmail } from './dashboard-client.ts';
import { insertMatches } from './monitor-rows.ts';
import { connectThroughDashboard, startPublishingApp, type PublishingApp } from './publishing.ts';
import { eventually, startReceiver } from './receiver.ts';

export const PASSWORD = 'correct horse battery';

/** A receiver path as long as automation tools make them (n8n, Zapier): one unbroken string. */
const LONG_PATH = `/webhook/${'4f1c2a9e-7b3d-4e8a-9c61-'.repeat(4)}catch?token=${'a1b2c3d4'.repeat(6)}`;
/** A name or keyword with nowhere to break, which a table cell must still hold within the screen. */
const LONG_WORD = 'RedditLeadsToHubspotCrmSyncForTheEnterpriseTeam';
const LONG_TEXT =
  'Thanks for asking! We moved our Reddit lead alerts from a cron job to n8n last spring, and the part that ' +
  'saved the most time was filtering by intent before anything reached Slack.';

export interface TablePages {
  app: PublishingApp;
  email: string;
  /** Every dashboard page that holds a table, with rows in it. */
  pages: { name: string; path: string }[];
  close(): Promise<void>;
}

export async function startTablePages(): Promise<TablePages> {
  const slack: FakeChat = await startFakeSlack();
  const app = await startPublishingApp('sqlite', {
    env: { ALLOW_HTTP_WEBHOOKS: 'true' },
    overrides: () => ({ chat: { bases: { slack: [slack.url], discord: [] } } }),
  });
  const ok = await startReceiver();
  const failing = await startReceiver(Number.MAX_SAFE_INTEGER);
  const { services } = app;
  const email = uniqueEmail('tables-on-a-phone');
  const { id: accountId } = await services.accounts.createAccount(email, PASSWORD);
  await services.credits.grant(accountId, 500, 'welcome credits for the tables check');

  // Keys: a limited one, one that expires rolled into another (the old one "expires in 7 d"), a revoked one (no Revoke link).
  const { token } = await services.keys.createKey(accountId, 'n8n production workflow', { monthlyCreditLimit: 200, scopes: ['read', 'scrape', 'generate', 'publish'] });
  await services.keys.createKey(accountId, 'zapier-staging-reddit-leads', { expiresAt: '2099-12-31' });
  await services.keys.rollKey(accountId, { name: 'zapier-staging-reddit-leads' }, '7d');
  await services.keys.createKey(accountId, LONG_WORD);
  await services.keys.revokeKey(accountId, { name: LONG_WORD });

  // Scrapes, with a delivered webhook and one that keeps failing (waiting for its retry: a second line and a button).
  app.reddit.posts.push({
    id: 'tbl1',
    subreddit: 'automation',
    title: 'How do you get Reddit leads into Slack without drowning in noise?',
    selftext: 'We tried n8n and a few SaaS tools.',
    created_utc: Math.floor(Date.now() / 1000),
  }, { id: 'tbl2', subreddit: 'n8n', title: 'Self-hosted n8n: Reddit trigger stopped firing', selftext: 'Since the update.', created_utc: Math.floor(Date.now() / 1000) });
  const scrape = (webhook: string) =>
    app.api('POST', '/api/v1/scrape', {
      token,
      body: { subreddits: ['r/automation', 'r/n8n', 'r/selfhosted', 'r/sales'], keywords: ['n8n', 'reddit leads', LONG_WORD], webhook_url: webhook },
      headers: { prefer: 'respond-async' },
    });
  expect((await scrape(`http://127.0.0.1:${ok.port}${LONG_PATH}`)).status).toBe(202);
  expect((await scrape(`http://127.0.0.1:${failing.port}${LONG_PATH}`)).status).toBe(202);
  await eventually(async () => {
    const deliveries = await services.webhooks.recentDeliveries(accountId);
    return deliveries.length === 2 && deliveries.every((d) => d.attempts.length > 0) ? true : undefined;
  });

  // A monitor with matches: the list's widest row.
  const monitor = await services.monitors.create(accountId, {
    name: 'n8n and Reddit automation mentions across the usual subreddits',
    subreddits: ['r/make_com_automations', 'r/automation', 'r/n8n', 'r/selfhosted', 'r/nocode', 'r/zapier'],
    keywords: ['n8n', 'reddit automation', LONG_WORD],
    query: '"n8n" AND (reddit OR "make.com") NOT hiring',
    sources: ['posts', 'comments'],
  }, { via: 'dashboard' });
  await insertMatches(services.db, { monitorId: monitor.id, accountId, count: 2 });

  // A draft and its publication (a comment), and a post published with its own text.
  const dashboard = new DashboardClient(app.url);
  expect((await dashboard.logIn(email, PASSWORD)).status).toBe(303);
  await connectThroughDashboard(app, dashboard, 'growth_at_acme');
  app.llm.reply = () => LONG_TEXT;
  const draft = await (await app.api('POST', '/api/v1/generate', { token, body: { type: 'reply', post_id: 't3_tbl1', instructions: 'Share our setup' } })).json();
  const published = async (body: unknown) => {
    const response = await app.api('POST', '/api/v1/publish', { token, body });
    expect(response.status, await response.clone().text()).toBe(200);
  };
  await published({ generation_id: draft.id });
  const post = { type: 'post', subreddit: 'r/n8n', title: 'What we learnt wiring Reddit alerts into Slack', body: `A year on: ${LONG_TEXT}` };
  await published(post);

  // Destinations: one that works, one switched off by Slack; each has sent a test message.
  const working = await services.destinations.create(accountId, { kind: 'slack', name: 'Growth team · product-feedback-and-feature-requests', url: slack.newWebhook() });
  const goneUrl = slack.newWebhook();
  const gone = await services.destinations.create(accountId, { kind: 'slack', name: '#old-campaign', url: goneUrl });
  slack.remove(goneUrl);
  for (const { id } of [working, gone]) {
    await services.destinations.sendTest(accountId, id);
    await services.destinations.drain(id);
  }

  const pages = [
    { name: 'keys', path: '/dashboard/keys' },
    { name: 'credits', path: '/dashboard/credits' },
    { name: 'scrapes', path: '/dashboard/scrapes' },
    { name: 'monitors', path: '/dashboard/monitors' },
    { name: 'drafts', path: '/dashboard/drafts' },
    { name: 'publications', path: '/dashboard/publications' },
    { name: 'destinations', path: '/dashboard/destinations' },
    { name: 'destination', path: `/dashboard/destinations/${gone.id}` },
    { name: 'webhooks', path: '/dashboard/webhooks' },
  ];
  return {
    app,
    email,
    pages,
    async close() {
      await app.close();
      await Promise.all([ok.close(), failing.close(), slack.close()]);
    },
  };
}
