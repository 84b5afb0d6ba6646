import { readFileSync, existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open } from '../../src/shared/crypto/seal.ts';
import { startTestApp } from '../support/app.ts';
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';
import { lateRedditUserClient, PRICES, REDIRECT_URI, SECRET_KEY_HEX, startPublishingApp, type PublishingApp } from '../support/publishing.ts';

describe.each(engines)('Reddit connections (dashboard → Connections) on %s', (engine) => {
  let app: PublishingApp;
  beforeAll(async () => {
    app = await startPublishingApp(engine, { overrides: () => ({ redditUser: lateRedditUserClient(() => app) }) });
  });
  afterAll(() => app.close());

  it('asks Reddit for duration=permanent and the scopes identity read submit history, with REDDIT_REDIRECT_URI', async () => {
    const account = await app.connectedAccount(0, { connect: false });
    const start = await account.dashboard.submit('/dashboard/connections', '/dashboard/connections/reddit', {});
    const url = new URL(start.location!);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: app.reddit.clientId,
      response_type: 'code',
      duration: 'permanent',
      scope: 'identity read submit history',
      redirect_uri: REDIRECT_URI,
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
  });

  it('shows the connected username (GET /api/v1/me with the user token) and disconnects', async () => {
    const account = await app.connectedAccount(0, { username: 'shown_user' });
    const page = await account.dashboard.get('/dashboard/connections');
    expect(page.body).toContain('u/<bdi>shown_user</bdi>');
    expect(app.reddit.requests.some((r) => r.path === '/api/v1/me')).toBe(true);
    const gone = await account.dashboard.submit('/dashboard/connections', '/dashboard/connections/reddit/disconnect', {});
    expect(gone.location).toBe('/dashboard/connections?disconnected=1');
    expect((await account.dashboard.get('/dashboard/connections')).body).toContain('Connect Reddit');
  });

  it('the state is single-use and tied to the session that started the flow', async () => {
    const account = await app.connectedAccount(0, { connect: false });
    const start = await account.dashboard.submit('/dashboard/connections', '/dashboard/connections/reddit', {});
    const state = new URL(start.location!).searchParams.get('state')!;
    const code = app.reddit.user.approve('someone', REDIRECT_URI);

    const stranger = new DashboardClient(app.url);
    expect((await stranger.signUp(uniqueEmail('stranger'))).status).toBe(303);
    const foreign = await stranger.get(`/dashboard/connections/reddit/callback?state=${state}&code=${code}`);
    expect(foreign.status).toBe(400);
    expect(foreign.body).toContain('not started from your current dashboard session');
    // The state was consumed by that attempt: the rightful session cannot reuse it either.
    expect((await account.dashboard.get(`/dashboard/connections/reddit/callback?state=${state}&code=${code}`)).status).toBe(400);
  });

  it('the person declining on Reddit (error=access_denied) connects nothing', async () => {
    const account = await app.connectedAccount(0, { connect: false });
    const start = await account.dashboard.submit('/dashboard/connections', '/dashboard/connections/reddit', {});
    const state = new URL(start.location!).searchParams.get('state')!;
    const declined = await account.dashboard.get(`/dashboard/connections/reddit/callback?state=${state}&error=access_denied`);
    expect(declined.status).toBe(400);
    expect(declined.body).toContain('not approved');
  });

  it('the refresh token is stored encrypted: not in the database as plain text, and opens with SECRET_KEY', async () => {
    const account = await app.connectedAccount(0, { username: 'secret_keeper' });
    const refreshToken = [...app.reddit.user.refreshTokens].find(([, user]) => user === 'secret_keeper')![0];
    const row = await app.services.db
      .selectFrom('reddit_connections')
      .select('refresh_token_sealed')
      .where('account_id', '=', account.accountId)
      .executeTakeFirstOrThrow();
    expect(row.refresh_token_sealed).not.toContain(refreshToken);
    expect(open(Buffer.from(SECRET_KEY_HEX, 'hex'), row.refresh_token_sealed, account.accountId)).toBe(refreshToken);
    expect(() => open(Buffer.from(SECRET_KEY_HEX, 'hex'), row.refresh_token_sealed, 'another-account')).toThrow();
    if (app.database.target.dialect === 'sqlite') {
      const path = app.database.target.path;
      const files = [path, `${path}-wal`].filter(existsSync).map((file) => readFileSync(file));
      expect(files.length).toBeGreaterThan(0);
      for (const bytes of files) expect(bytes.includes(Buffer.from(refreshToken))).toBe(false);
      // The check can see plain text at all: the username is stored in clear.
      expect(files.some((bytes) => bytes.includes(Buffer.from('secret_keeper')))).toBe(true);
    }
  });

  it('Reddit not answering a publish in time → 504, the price held until Reddit is checked; the same text again → 409', async () => {
    const account = await app.connectedAccount(30);
    app.reddit.user.delayMs = 1000;
    const body = { type: 'comment', parent: 't3_abc', body: 'Did this go out?' };
    try {
      const response = await app.api('POST', '/api/v1/publish', { token: account.token, body });
      expect(response.status).toBe(504);
      expect((await response.json()).code).toBe('publish.outcome_unknown');
    } finally {
      app.reddit.user.delayMs = 0;
    }
    expect(await account.balance()).toBe(30 - PRICES.publish); // it may have gone out: held until recovery asks Reddit
    const again = await app.api('POST', '/api/v1/publish', { token: account.token, body });
    expect(again.status).toBe(409);
    // The same text, and a second reply in its thread: each rail is lifted by its own flag.
    const sure = await app.api('POST', '/api/v1/publish', { token: account.token, body: { ...body, allow_duplicate: true, allow_second_reply: true } });
    expect(sure.status).toBe(200);
    expect(await account.balance()).toBe(30 - 2 * PRICES.publish);
  });
});

describe.each(engines)('Reddit connections without SECRET_KEY on %s', (engine) => {
  it('the Connections page says so, the connect route answers 503 and publish answers 503', async () => {
    const app = await startTestApp(engine, { env: { REDDIT_REDIRECT_URI: REDIRECT_URI } });
    try {
      const email = uniqueEmail('nokey');
      const dashboard = new DashboardClient(app.url);
      expect((await dashboard.signUp(email)).status).toBe(303);
      const page = await dashboard.get('/dashboard/connections');
      expect(page.status).toBe(200);
      expect(page.body).toContain('SECRET_KEY');
      expect(page.body).not.toContain('Connect Reddit</button>');
      const connect = await dashboard.post('/dashboard/connections/reddit', { csrf: /name="csrf" value="([^"]+)"/.exec(page.body)![1]! });
      expect(connect.status).toBe(503);
      const { token } = await app.accountWithKey(50);
      const publish = await app.api('POST', '/api/v1/publish', { token, body: { type: 'comment', parent: 't3_abc', body: 'x' } });
      expect(publish.status).toBe(503);
      expect((await publish.json()).code).toBe('connections.not_configured');
    } finally {
      await app.close();
    }
  });
});
