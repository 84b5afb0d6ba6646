import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';
import { PRICES, startPublishingApp, type PublishingApp } from '../support/publishing.ts';
import { rawRequest } from '../support/raw-http.ts';

const SCRAPE_BODY = { subreddits: ['r/node'], keywords: ['details'] };

describe.each(engines)('HTTP details of /api/v1 on %s', (engine) => {
  let app: TestApp;
  let token: string;

  beforeAll(async () => {
    app = await startTestApp(engine);
    app.reddit.posts.push({ id: 'd1', subreddit: 'node', title: 'details', created_utc: Math.floor(Date.now() / 1000) });
    ({ token } = await app.accountWithKey(100));
  });
  afterAll(() => app.close());

  async function problem(response: Response, status: number, code: string) {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const body = await response.json();
    expect(body.code).toBe(code);
    return body;
  }

  describe('a body that is not application/json is a 415', () => {
    it.each(['text/plain', 'text/plain; charset=utf-8', 'application/jsonx', 'application/merge-patch+json', 'text/json'])(
      'a JSON body sent as %s is a 415 request.unsupported_media_type',
      async (type) => {
        const response = await app.api('POST', '/api/v1/scrape', { token, body: SCRAPE_BODY, headers: { 'content-type': type } });
        await problem(response, 415, 'request.unsupported_media_type');
      },
    );

    it('a JSON body without a Content-Type is a 415', async () => {
      const response = await fetch(`${app.url}/api/v1/scrape`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: new Blob([JSON.stringify(SCRAPE_BODY)]),
      });
      await problem(response, 415, 'request.unsupported_media_type');
    });

    it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset=UTF-8'])(
      'a JSON body sent as %s is accepted',
      async (type) => {
        const response = await app.api('POST', '/api/v1/scrape', { token, body: SCRAPE_BODY, headers: { 'content-type': type } });
        expect(response.status).toBe(200);
      },
    );

    it('a bad key with a text/plain body is still a 401: the key is checked first', async () => {
      const response = await app.api('POST', '/api/v1/scrape', { body: 'x', headers: { 'content-type': 'text/plain' } });
      await problem(response, 401, 'auth.missing');
    });
  });

  describe('Content-Type: application/json with an empty body is no body on a method that takes none', () => {
    // Many clients set this header on every call, GET and DELETE included.
    const json = { 'content-type': 'application/json' };

    it('a DELETE with it deletes the monitor and answers 204, as a DELETE without it does', async () => {
      const created = await app.api('POST', '/api/v1/monitors', { token, body: { name: 'w', subreddits: ['r/node'], keywords: ['x'] } });
      const { id } = await created.json();
      const response = await app.api('DELETE', `/api/v1/monitors/${id}`, { token, headers: json, body: '' });
      expect(response.status).toBe(204);
      expect((await app.api('GET', `/api/v1/monitors/${id}`, { token })).status).toBe(404);
    });

    it('a DELETE with it to a monitor that does not exist is the 404 it would be without it', async () => {
      const response = await app.api('DELETE', '/api/v1/monitors/mon_0000000000000000000000000000', { token, headers: json });
      await problem(response, 404, 'monitors.not_found');
    });

    it('a GET and a HEAD with it are answered 200', async () => {
      expect((await app.api('GET', '/api/v1/balance', { token, headers: json })).status).toBe(200);
      expect((await app.api('HEAD', '/api/v1/balance', { token, headers: json })).status).toBe(200);
    });

    it('a DELETE or an OPTIONS with it to a path that does not serve them is the 405 it would be without it', async () => {
      for (const method of ['DELETE', 'OPTIONS']) {
        const response = await app.api(method, '/api/v1/balance', { token, headers: json, body: '' });
        await problem(response, 405, 'request.method_not_allowed');
        expect(response.headers.get('allow')).toBe('GET, HEAD');
      }
    });

    it('a POST with it is still a 400 request.malformed_json: a POST needs its body', async () => {
      const body = await problem(await app.api('POST', '/api/v1/scrape', { token, headers: json, body: '' }), 400, 'request.malformed_json');
      expect(body.detail).toContain('empty');
    });

    it('a DELETE with it and a body that is not JSON is still a 400 request.malformed_json: only an empty body is none', async () => {
      await problem(await app.api('DELETE', '/api/v1/monitors/mon_x', { token, headers: json, body: '{broken' }), 400, 'request.malformed_json');
    });
  });

  describe('a known path with a method it does not serve is a 405 with Allow', () => {
    it.each([
      ['DELETE', '/api/v1/balance', 'GET, HEAD'],
      ['PUT', '/api/v1/usage', 'GET, HEAD'],
      ['GET', '/api/v1/scrape', 'POST'],
      ['PATCH', '/api/v1/scrapes/scr_123', 'GET, HEAD'],
      ['DELETE', '/api/v1/publish', 'POST'],
      ['POST', '/healthz', 'GET, HEAD'],
    ])('%s %s is a 405 request.method_not_allowed with Allow: %s', async (method, path, allow) => {
      const response = await app.api(method, path, { token });
      await problem(response, 405, 'request.method_not_allowed');
      expect(response.headers.get('allow')).toBe(allow);
    });

    it('a 405 needs no key, like a 404: it is an answer about the route, not about the account', async () => {
      const response = await app.api('DELETE', '/api/v1/balance');
      await problem(response, 405, 'request.method_not_allowed');
      expect(response.headers.get('allow')).toBe('GET, HEAD');
    });

    it('a HEAD to a POST-only path is a 405 without a body', async () => {
      const response = await app.api('HEAD', '/api/v1/scrape', { token });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    });

    it('an unknown path is still a 404 not_found, whatever the method', async () => {
      await problem(await app.api('DELETE', '/api/v1/nothing-here', { token }), 404, 'not_found');
      await problem(await app.api('GET', '/api/v1/balance/extra', { token }), 404, 'not_found');
    });

    it('an unknown method is a 501 request.method_not_implemented, answered before the path is read', async () => {
      const response = await rawRequest(app.url, `FOO /api/v1/balance HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`);
      expect(response.status).toBe(501);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(response.body).code).toBe('request.method_not_implemented');
    });
  });

  describe('limit is an integer written in digits', () => {
    it.each(['1e1', '%205', '5%20', '5.0', '%2B5', '0x5', '-5', '', '5a'])('limit=%s is a 422 request.invalid naming limit', async (raw) => {
      for (const path of ['/api/v1/usage', '/api/v1/scrapes']) {
        const body = await problem(await app.api('GET', `${path}?limit=${raw}`, { token }), 422, 'request.invalid');
        expect(body.errors).toEqual([{ path: '/limit', message: expect.stringMatching(/^limit is a whole number from 1 to 100, written in digits/) }]);
      }
    });

    it.each([
      ['1', 200],
      ['05', 200],
      ['100', 200],
      ['0', 422],
      ['101', 422],
      ['99999999999999999999999', 422],
    ])('limit=%s answers %i', async (raw, status) => {
      expect((await app.api('GET', `/api/v1/usage?limit=${raw}`, { token })).status).toBe(status);
    });
  });

  describe('an Idempotency-Key as an RFC 8941 string and as a bare token are one key', () => {
    const scrape = (key: string, accessToken: string) =>
      app.api('POST', '/api/v1/scrape', { token: accessToken, body: SCRAPE_BODY, headers: { 'idempotency-key': key } });

    it.each([
      ['"k1"', 'k1'],
      ['k1', '"k1"'],
      ['"a\\"b\\\\c"', 'a"b\\c'],
    ])('a retry of %s as %s replays the first answer and charges once', async (first, retry) => {
      const { token: own, accountId } = await app.accountWithKey(10);
      const answer = await scrape(first, own);
      expect(answer.status).toBe(200);
      const replay = await scrape(retry, own);
      expect(replay.status).toBe(200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(await replay.text()).toBe(await answer.text());
      expect(await app.services.credits.spendableBalance(accountId)).toBe(9);
      expect(await ledgerSum(app.services.db, accountId)).toBe(9);
    });

    it.each(['"k1', '"k1" x', '"k\\1"', '""', `"${'a'.repeat(256)}"`, '"tab\there"'])(
      'the malformed key %s is a 400 idempotency.invalid_key and charges nothing',
      async (key) => {
        const { token: own, accountId } = await app.accountWithKey(10);
        await problem(await scrape(key, own), 400, 'idempotency.invalid_key');
        expect(await app.services.credits.spendableBalance(accountId)).toBe(10);
      },
    );

    it('a quoted key may hold spaces, as RFC 8941 strings may', async () => {
      const { token: own } = await app.accountWithKey(10);
      expect((await scrape('"order 42"', own)).status).toBe(200);
      expect((await scrape('"order 42"', own)).headers.get('idempotent-replayed')).toBe('true');
    });

    it('a 402 commits nothing, so its key stays free: after credits are added the same key runs once', async () => {
      const { token: own, accountId } = await app.accountWithKey(0);
      await problem(await scrape('topup-1', own), 402, 'credits.insufficient');
      await app.services.credits.grant(accountId, 5, 'test');
      const retry = await scrape('"topup-1"', own);
      expect(retry.status).toBe(200);
      expect(retry.headers.get('idempotent-replayed')).toBeNull();
      const again = await scrape('topup-1', own);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect((await again.json()).id).toBe((await retry.json()).id);
      expect(await ledgerSum(app.services.db, accountId)).toBe(4);
    });
  });
});

describe.each(engines)('an Idempotency-Key on POST /api/v1/publish on %s', (engine) => {
  let app: PublishingApp;
  beforeAll(async () => {
    app = await startPublishingApp(engine);
    app.reddit.posts.push({ id: 'h1', subreddit: 'node', title: 'Details', created_utc: Math.floor(Date.now() / 1000) });
  });
  afterAll(() => app.close());

  // allow_duplicate: only the key stands between a retry and a second comment.
  const body = { type: 'comment', parent: 't3_h1', body: 'Said once.', allow_duplicate: true };

  it('a retry with the key quoted replays the first publication: one comment, one charge', async () => {
    const account = await app.connectedAccount(30);
    const before = app.reddit.user.comments.length;
    const first = await app.api('POST', '/api/v1/publish', { token: account.token, body, headers: { 'idempotency-key': 'pub-1' } });
    expect(first.status).toBe(200);
    const retry = await app.api('POST', '/api/v1/publish', { token: account.token, body, headers: { 'idempotency-key': '"pub-1"' } });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect((await retry.json()).id).toBe((await first.json()).id);
    expect(app.reddit.user.comments.length).toBe(before + 1);
    expect(await account.balance()).toBe(30 - PRICES.publish);
    expect(await ledgerSum(app.services.db, account.accountId)).toBe(30 - PRICES.publish);
  });

  it('an unterminated quoted key is a 422 request.invalid, and nothing is posted', async () => {
    const account = await app.connectedAccount(30);
    const response = await app.api('POST', '/api/v1/publish', { token: account.token, body, headers: { 'idempotency-key': '"pub-2' } });
    expect(response.status).toBe(422);
    expect((await response.json()).code).toBe('request.invalid');
    expect(await account.balance()).toBe(30);
  });
});
