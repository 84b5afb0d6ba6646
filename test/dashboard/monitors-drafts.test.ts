import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';

const PASSWORD = 'correct horse battery';
const FORM = { name: 'Kysely questions', subreddits: 'node', keywords: 'kysely', sources: 'posts' };
const INSTRUCTIONS = 'Point to the docs, and say I maintain a plugin.';

describe.each(engines)('reply drafts on the dashboard’s monitor form on %s', (engine) => {
  let app: TestApp;
  let modelless: TestApp;
  beforeAll(async () => {
    // A model is configured, so drafts are accepted; no worker, so it is never called.
    app = await startTestApp(engine, { worker: false, env: { LLM_BASE_URL: 'http://127.0.0.1:9/v1', LLM_MODEL: 'fake-model' } });
    modelless = await startTestApp(engine, { worker: false });
  });
  afterAll(async () => {
    await app.close();
    await modelless.close();
  });

  async function member(on: TestApp) {
    const email = uniqueEmail('drafts');
    const account = await on.services.accounts.createAccount(email, PASSWORD);
    const browser = new DashboardClient(on.url);
    await browser.logIn(email, PASSWORD);
    return { browser, accountId: account.id };
  }

  it('offers “Draft a reply for each match” and its instructions, saves both, shows them, and unticking turns drafts off', async () => {
    const { browser, accountId } = await member(app);
    const form = (await browser.get('/dashboard/monitors')).body;
    expect(form).toContain('<input type="checkbox" name="draft_replies" value="on">');
    expect(form).toMatch(/Instructions for the drafts[^]*?<textarea name="draft_instructions" rows="3" maxlength="2000"><\/textarea>/);

    const created = await browser.submit('/dashboard/monitors', '/dashboard/monitors', { ...FORM, draft_replies: 'on', draft_instructions: INSTRUCTIONS });
    expect(created.status, created.body).toBe(303);
    const monitorId = /monitors\/(mon_[^?]+)/.exec(created.location!)![1]!;
    expect(await app.services.monitors.get(accountId, monitorId)).toMatchObject({ draft_replies: true, draft_instructions: INSTRUCTIONS });
    const page = (await browser.get(`/dashboard/monitors/${monitorId}`)).body;
    expect(page).toContain(`<dt>Reply drafts</dt><dd>one for each match, in the <a href="/dashboard/inbox">Inbox</a>: “<bdi>${INSTRUCTIONS}</bdi>”</dd>`);
    expect(page).toContain('<input type="checkbox" name="draft_replies" value="on" checked>');
    expect(page).toContain(`>${INSTRUCTIONS}</textarea>`);

    // An unticked box posts nothing: drafts off; emptied instructions: none.
    const saved = await browser.submit(`/dashboard/monitors/${monitorId}`, `/dashboard/monitors/${monitorId}`, { ...FORM, draft_instructions: ' ' });
    expect(saved.status, saved.body).toBe(303);
    expect(await app.services.monitors.get(accountId, monitorId)).toMatchObject({ draft_replies: false, draft_instructions: null });
  });

  it('refuses instructions over 2,000 characters beside their field, keeping what was typed', async () => {
    const { browser } = await member(app);
    const long = 'x'.repeat(2001);
    const refused = await browser.submit('/dashboard/monitors', '/dashboard/monitors', { ...FORM, draft_replies: 'on', draft_instructions: long });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatch(new RegExp(`<span class="field-error">Instructions for the drafts [^<]+</span>\\s*<textarea name="draft_instructions"[^>]*aria-invalid="true">${long}</textarea>`));
    expect(refused.body).toContain('<input type="checkbox" name="draft_replies" value="on" checked>');
  });

  it('without a language model, refuses the box beside it in words and creates nothing', async () => {
    const { browser, accountId } = await member(modelless);
    const refused = await browser.submit('/dashboard/monitors', '/dashboard/monitors', { ...FORM, draft_replies: 'on' });
    expect(refused.status).toBe(503);
    expect(refused.body).toMatch(/<legend>Reply drafts<\/legend>\s*<span class="field-error">Draft a reply for each match cannot be used: this server has no language model configured/);
    expect((await modelless.services.monitors.list(accountId, { limit: 10 })).data).toEqual([]);
  });
});
