import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBREDDIT_RULE } from '../../src/shared/http/subreddit.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { runCli } from '../support/cli.ts';
import { csrfIn, DashboardClient, uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';
import { callTool, mcpClient, textOf } from '../support/mcp.ts';
import { ALL_OF_REDDIT_FORMS, acceptedForms, refusedForms } from '../support/subreddit-forms.ts';

const PASSWORD = 'correct horse battery';
const monitor = (subreddit: string) => ({ name: 'Forms', subreddits: [subreddit], keywords: ['types'] });

/**
 * The table of subreddit forms (test/support/subreddit-forms.ts) through each way in: the API over
 * HTTP, an MCP client, the dashboard's monitor form and the operator CLI. Each stores and answers the
 * same r/name, or refuses with the same rule and what it received.
 */
describe.each(engines)('a subreddit typed in any accepted form is stored as r/name by every entry point (%s)', (engine) => {
  let app: TestApp;
  let token: string;
  let mcp: Client;
  let browser: DashboardClient;
  /** The dashboard's and the CLI's owner. */
  let email: string;
  let accountId: string;

  // An account for each way in, so that no way fills another's monitor limit.
  const account = async () => {
    const address = uniqueEmail('forms');
    const id = (await app.services.accounts.createAccount(address, PASSWORD)).id;
    return { email: address, accountId: id, token: (await app.services.keys.createKey(id, 'forms')).token };
  };

  beforeAll(async () => {
    app = await startTestApp(engine, { worker: false });
    ({ token } = await account());
    mcp = await mcpClient(app.url, (await account()).token);
    ({ email, accountId } = await account());
    browser = new DashboardClient(app.url);
    await browser.logIn(email, PASSWORD);
  });
  afterAll(async () => {
    await mcp.close();
    await app.close();
  });

  describe('the API', () => {
    it.each(acceptedForms)('POST /api/v1/monitors stores $input as $stored and answers it so', async ({ input, stored }) => {
      const response = await app.api('POST', '/api/v1/monitors', { token, body: monitor(input) });
      expect(response.status).toBe(201);
      const created = await response.json();
      expect(created.subreddits).toEqual([stored]);
      expect((await (await app.api('GET', `/api/v1/monitors/${created.id}`, { token })).json()).subreddits).toEqual([stored]);
    });

    it.each(refusedForms)('refuses $input with a 422 saying what it received', async ({ input, shown }) => {
      const response = await app.api('POST', '/api/v1/monitors', { token, body: monitor(input) });
      expect(response.status).toBe(422);
      const problem = await response.json();
      expect(problem).toMatchObject({ code: 'request.invalid', errors: [{ path: '/subreddits/0', message: `subreddits[0] ${SUBREDDIT_RULE}${shown}` }] });
    });

    it('documents the forms, with examples, in the OpenAPI document', async () => {
      const document = await (await app.api('GET', '/openapi.json')).json();
      const body = document.paths['/api/v1/monitors'].post.requestBody.content['application/json'].schema;
      const schema = (body.$ref ? document.components.schemas[body.$ref.split('/').pop()] : body).properties.subreddits.items;
      expect(schema.description).toContain('r/name, name, /r/name or a Reddit link');
      expect(schema.examples).toEqual(['r/typescript', 'typescript', '/r/typescript', 'https://www.reddit.com/r/typescript/']);
    });
  });

  describe('MCP', () => {
    it.each(acceptedForms)('create_monitor stores $input as $stored', async ({ input, stored }) => {
      const outcome = await callTool(mcp, 'create_monitor', monitor(input));
      expect(outcome.isError, textOf(outcome)).toBeFalsy();
      expect(outcome.structuredContent!.subreddits).toEqual([stored]);
      expect(textOf(outcome)).toContain(` in ${stored}`);
    });

    it.each(refusedForms)('create_monitor refuses $input, saying what it received', async ({ input, shown }) => {
      const outcome = await callTool(mcp, 'create_monitor', monitor(input));
      expect(outcome.isError).toBe(true);
      expect(textOf(outcome)).toContain(`subreddits[0] ${SUBREDDIT_RULE}${shown}`);
    });
  });

  describe('the dashboard', () => {
    const post = async (subreddits: string) => {
      const csrf = csrfIn((await browser.get('/dashboard/monitors')).body);
      return browser.post('/dashboard/monitors', { csrf, name: 'Forms', subreddits, keywords: 'types', sources: 'posts' });
    };

    it.each(acceptedForms)('the monitor form stores $input as $stored', async ({ input, stored }) => {
      const answer = await post(input);
      expect(answer.status).toBe(303);
      const id = /\/dashboard\/monitors\/(mon_[^?]+)\?/.exec(answer.location!)![1]!;
      expect((await app.services.monitors.get(accountId, id)).subreddits).toEqual([stored]);
    });

    it.each(refusedForms)('the monitor form refuses $input beside the field, with the rule', async ({ input }) => {
      const answer = await post(input);
      expect(answer.status).toBe(422);
      // The item is quoted before the rule (the field keeps what was typed), so the rule's own "(got …)" is left out.
      expect(answer.body).toContain(`Please fix: Subreddits “${escapeHtml(input.trim())}” ${escapeHtml(SUBREDDIT_RULE)}.`);
    });
  });

  describe('the CLI', () => {
    let watching: string;
    beforeAll(async () => {
      watching = (await app.services.monitors.create(accountId, { name: 'Watching', subreddits: ['r/TypeScript'], keywords: ['cli'] }, { via: 'api' })).id;
    });

    it.each(acceptedForms)('monitors list --subreddit $input finds the monitors watching $stored', async ({ input }) => {
      const listed = await runCli(app.database, ['monitors', 'list', '--email', email, '--subreddit', input, '--json']);
      expect(listed).toMatchObject({ code: 0, stderr: '' });
      expect((JSON.parse(listed.stdout) as { id: string }[]).map((m) => m.id)).toContain(watching);
    });

    it.each(refusedForms)('monitors list --subreddit $input is one error line saying what it received', async ({ input, shown }) => {
      const listed = await runCli(app.database, ['monitors', 'list', '--email', email, '--subreddit', input]);
      expect(listed).toEqual({ code: 1, stdout: '', stderr: `subpilot: --subreddit ${SUBREDDIT_RULE}${shown}\n` });
    });

    it('without a match, lists nothing', async () => {
      const listed = await runCli(app.database, ['monitors', 'list', '--email', email, '--subreddit', 'r/rust', '--json']);
      expect(JSON.parse(listed.stdout)).toEqual([]);
    });
  });
});

/** All of Reddit through the same rule, on a server that runs the site-wide stream (without it, such a monitor is refused). */
describe.each(engines)('all of Reddit typed in any accepted form is stored as r/all by every entry point (%s)', (engine) => {
  let app: TestApp;
  let token: string;
  let mcp: Client;
  let browser: DashboardClient;
  let accountId: string;
  beforeAll(async () => {
    app = await startTestApp(engine, { worker: false, env: { REDDIT_STREAM_SHARE: '0.5' } });
    const mine = async () => {
      const address = uniqueEmail('forms-all');
      const id = (await app.services.accounts.createAccount(address, PASSWORD)).id;
      return { email: address, accountId: id, token: (await app.services.keys.createKey(id, 'forms')).token };
    };
    ({ token } = await mine());
    mcp = await mcpClient(app.url, (await mine()).token);
    const owner = await mine();
    accountId = owner.accountId;
    browser = new DashboardClient(app.url);
    await browser.logIn(owner.email, PASSWORD);
  });
  afterAll(async () => {
    await mcp.close();
    await app.close();
  });

  it.each(ALL_OF_REDDIT_FORMS)('POST /api/v1/monitors stores $input as $stored, its excludes by the same rule', async ({ input, stored }) => {
    const response = await app.api('POST', '/api/v1/monitors', { token, body: { ...monitor(input), exclude_subreddits: ['https://www.reddit.com/r/Gaming/'] } });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ subreddits: [stored], exclude_subreddits: ['r/Gaming'] });
  });

  it.each(ALL_OF_REDDIT_FORMS)('create_monitor stores $input as $stored and says all of Reddit', async ({ input, stored }) => {
    const outcome = await callTool(mcp, 'create_monitor', { ...monitor(input), exclude_subreddits: ['gaming'] });
    expect(outcome.isError, textOf(outcome)).toBeFalsy();
    expect(outcome.structuredContent!.subreddits).toEqual([stored]);
    expect(textOf(outcome)).toContain(' in all of Reddit except r/gaming');
  });

  it.each(ALL_OF_REDDIT_FORMS)('the monitor form stores $input as $stored with its excluded subreddits', async ({ input, stored }) => {
    const csrf = csrfIn((await browser.get('/dashboard/monitors')).body);
    const answer = await browser.post('/dashboard/monitors', { csrf, name: 'Forms', subreddits: input, exclude_subreddits: 'r/gaming, funny', keywords: 'types', sources: 'posts' });
    expect(answer.status).toBe(303);
    const id = /\/dashboard\/monitors\/(mon_[^?]+)\?/.exec(answer.location!)![1]!;
    expect(await app.services.monitors.get(accountId, id)).toMatchObject({ subreddits: [stored], exclude_subreddits: ['r/gaming', 'r/funny'] });
  });

  it('the form refuses all beside names, beside the field', async () => {
    const csrf = csrfIn((await browser.get('/dashboard/monitors')).body);
    const answer = await browser.post('/dashboard/monitors', { csrf, name: 'Forms', subreddits: 'all, r/node', keywords: 'types', sources: 'posts' });
    expect(answer.status).toBe(422);
    expect(answer.body).toContain('must then be the only subreddit');
  });
});

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
