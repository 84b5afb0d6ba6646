import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { csrfIn, DashboardClient, uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';

const TOKEN_PATTERN = /ak_live_[0-9a-f]{64}/g;

describe.each(engines)('dashboard API keys, credits and scrapes pages on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine);
    app.reddit.posts.push({ id: 'k1', subreddit: 'n8n', title: 'Automating <b>Reddit</b>', created_utc: 1_700_000_000 });
  });
  afterAll(() => app.close());

  async function signedIn() {
    const browser = new DashboardClient(app.url);
    const email = uniqueEmail();
    await browser.signUp(email);
    return { browser, accountId: (await app.services.accounts.requireByEmail(email)).id };
  }
  const createKey = async (browser: DashboardClient, name: string) =>
    browser.submit('/dashboard/keys', '/dashboard/keys', { name });

  it('the API keys page is titled "API keys" and has the getting-started block with a placeholder key', async () => {
    const { browser } = await signedIn();
    const { body } = await browser.get('/dashboard/keys');
    expect(body).toContain('<title>API keys</title>');
    expect(body).toContain('<h1>API keys</h1>');
    expect(body).toContain(`curl -X POST ${app.url}/api/v1/scrape`);
    expect(body).toContain('ak_live_…');
    expect(body.match(TOKEN_PATTERN)).toBeNull();
    for (const advice of ['client-side code, mobile apps and public repositories', 'environment variable or a credential store', 'one key per tool', 'means of payment']) {
      expect(body).toContain(advice);
    }
  });

  it('the token is shown once, in the 201 reply to the create POST, and in no later page, header or cookie', async () => {
    const { browser, accountId } = await signedIn();
    const created = await createKey(browser, 'n8n');
    expect(created.status).toBe(201);
    expect(created.body).toContain('it will not be shown again');
    const [token] = created.body.match(TOKEN_PATTERN)!;
    expect(token).toHaveLength(72);
    expect(created.setCookies.join()).not.toContain(token!.slice(8));

    expect((await app.api('GET', '/api/v1/balance', { token })).status).toBe(200);
    const key = (await app.services.keys.listKeys(accountId))[0]!;
    const later = [
      await browser.get('/dashboard/keys'),
      await browser.get('/dashboard/credits'),
      await browser.get('/dashboard/scrapes'),
      await browser.get(`/dashboard/keys/${key.id}/revoke`),
      await browser.submit(`/dashboard/keys/${key.id}/revoke`, `/dashboard/keys/${key.id}/revoke`, {}),
      await browser.get('/dashboard/keys?revoked=1'),
    ];
    for (const response of later) {
      expect(response.body).not.toContain(token!.slice(8));
      expect(response.location ?? '').not.toContain(token!.slice(8));
      expect(response.setCookies.join()).not.toContain(token!.slice(8));
    }
    const list = later[5]!.body;
    expect(list).toContain(`${key.prefix}…`);
    expect(list).toContain('revoked');
    expect((await app.api('GET', '/api/v1/balance', { token })).status).toBe(401);
  });

  it('a duplicate active name or an empty name is refused with a clear message; a revoked name can be reused', async () => {
    const { browser, accountId } = await signedIn();
    expect((await createKey(browser, 'zapier')).status).toBe(201);
    const duplicate = await createKey(browser, 'zapier');
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toContain('An active key named &quot;zapier&quot; already exists.');
    expect(duplicate.body.match(TOKEN_PATTERN)).toBeNull();
    expect((await createKey(browser, '   ')).status).toBe(422);
    await app.services.keys.revokeKey(accountId, { name: 'zapier' });
    expect((await createKey(browser, 'zapier')).status).toBe(201);
  });

  it('escapes what people type: a key named <script> is shown as text', async () => {
    const { browser } = await signedIn();
    await createKey(browser, '<script>alert(1)</script>');
    const { body } = await browser.get('/dashboard/keys');
    expect(body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(body).not.toContain('<script>alert(1)');
  });

  it("revoking another account's key id is a 404 and leaves it active", async () => {
    const { browser } = await signedIn();
    const other = await app.accountWithKey(0);
    const [key] = await app.services.keys.listKeys(other.accountId);
    expect((await browser.get(`/dashboard/keys/${key!.id}/revoke`)).status).toBe(404);
    const csrf = csrfIn((await browser.get('/dashboard/keys')).body);
    expect((await browser.post(`/dashboard/keys/${key!.id}/revoke`, { csrf })).status).toBe(404);
    expect((await app.services.keys.listKeys(other.accountId))[0]!.revoked_at).toBeNull();
  });

  it('credits and scrapes pages show the balance, the charge with its key, and readable results', async () => {
    const { browser, accountId } = await signedIn();
    const [token] = (await createKey(browser, 'make')).body.match(TOKEN_PATTERN)!;
    await app.services.credits.grant(accountId, 10, 'welcome');
    const scrape = await app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/n8n'], keywords: ['reddit'] } });
    expect(scrape.status).toBe(200);
    const { id } = await scrape.json();

    const credits = (await browser.get('/dashboard/credits')).body;
    expect(credits).toContain('Balance: <strong>9</strong>');
    expect(credits).toMatch(/charge<\/td>\s*<td class="num minus"[^>]*>-1<\/td>[\s\S]*?make <code>ak_live_[0-9a-f]{8}…<\/code>/);
    expect(credits.indexOf('charge')).toBeLessThan(credits.indexOf('welcome'));

    const list = (await browser.get('/dashboard/scrapes')).body;
    expect(list).toContain(`/dashboard/scrapes/${id}`);
    const detail = (await browser.get(`/dashboard/scrapes/${id}`)).body;
    expect(detail).toContain('Automating &lt;b&gt;Reddit&lt;/b&gt;');
    expect(detail).toMatch(/<a href="https:\/\/[^"]+" target="_blank" rel="noopener noreferrer">/);
    expect((await browser.get('/dashboard/scrapes/scr_nope')).status).toBe(404);
  });

  it('the credits ledger is paginated newest first', async () => {
    const { browser, accountId } = await signedIn();
    for (let i = 1; i <= 30; i++) await app.services.credits.grant(accountId, i, `grant ${i}`);
    const first = (await browser.get('/dashboard/credits')).body;
    expect(first).toContain('grant 30');
    expect(first).not.toContain('grant 5<');
    const next = /href="(\/dashboard\/credits\?cursor=[^"]+)"/.exec(first)![1]!;
    const second = (await browser.get(next.replace(/&amp;/g, '&'))).body;
    expect(second).toContain('grant 5<');
    expect(second).not.toContain('grant 30');
  });
});
