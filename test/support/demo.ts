/** A service on the demo source (REDDIT_SOURCE=demo), and an account connected through the demo's approval page. */
import { expect } from 'vitest';
import type { TestApp } from './app.ts';
import { DashboardClient, uniqueEmail } from './dashboard-client.ts';
import type { Engine } from './engines.ts';
import { startMonitorsApp } from './monitors.ts';
import { REDIRECT_URI, SECRET_KEY_HEX } from './publishing.ts';

/** The worker runs the scrapes; its poller runs one cycle at start and then waits an hour: the tests run the cycles. */
export const DEMO_ENV = { REDDIT_SOURCE: 'demo', DEMO_TRICKLE_SECONDS: '10', SECRET_KEY: SECRET_KEY_HEX, REDDIT_REDIRECT_URI: REDIRECT_URI, MONITOR_INTERVAL_SECONDS: '3600' };

export const startDemoApp = (engine: Engine, env: Record<string, string> = {}) => startMonitorsApp(engine, { env: { ...DEMO_ENV, ...env }, worker: true });

/** An account with a password, a key and a dashboard session; `connect` walks Connect Reddit through the demo's page. */
export async function demoAccount(app: TestApp, options: { connect?: boolean } = {}) {
  const email = uniqueEmail('demo');
  const account = await app.services.accounts.createAccount(email, 'correct horse battery');
  const { token } = await app.services.keys.createKey(account.id, 'demo');
  const dashboard = new DashboardClient(app.url);
  expect((await dashboard.logIn(email, 'correct horse battery')).status).toBe(303);
  let approval = '';
  if (options.connect) {
    const start = await dashboard.submit('/dashboard/connections', '/dashboard/connections/reddit', {});
    approval = await (await fetch(start.location!)).text();
    const allow = new URL(/href="([^"]+)">Allow \(simulated\)/.exec(approval)![1]!.replace(/&amp;/g, '&'));
    expect((await dashboard.get(`${allow.pathname}${allow.search}`)).location).toBe('/dashboard/connections?connected=1');
  }
  return { accountId: account.id, token, email, dashboard, approval };
}
