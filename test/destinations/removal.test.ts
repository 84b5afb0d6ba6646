import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDestinationsRepository } from '../../src/modules/destinations/destinations.repository.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { startFakeSlack, type FakeChat } from '../support/fake-chat-webhooks.ts';
import { SECRET_KEY_HEX } from '../support/publishing.ts';

/*
 * A drainer records each answer (an attempt row under its message) while the owner may be deleting
 * the destination. The two meet in the database: the delete must take the attempt with it or make the
 * recording give way, never fail on a row that appeared under it (it did: a 500 on DELETE, seen in CI).
 * An alerts pass recording new messages meets it the same way (it failed on the foreign key).
 */
describe.each(engines)('removing a destination while its drainer records an answer, or an alerts pass a message, on %s', (engine) => {
  let app: TestApp;
  let slack: FakeChat;
  let token: string;
  let accountId: string;

  beforeAll(async () => {
    slack = await startFakeSlack();
    app = await startTestApp(engine, { worker: false, env: { SECRET_KEY: SECRET_KEY_HEX }, overrides: { chat: { bases: { slack: [slack.url], discord: [slack.url] }, timeoutMs: 500 } } });
    ({ token, accountId } = await app.accountWithKey(0));
  });
  afterAll(async () => {
    await app?.close();
    await slack?.close();
  });

  /** A destination with one message waiting: the test message, queued but not sent (no worker runs). */
  const withMessage = async () => {
    const created = await app.api('POST', '/api/v1/destinations', { token, body: { kind: 'slack', name: 'x', url: slack.newWebhook() } });
    const id = ((await created.json()) as { id: string }).id;
    const queued = await app.api('POST', `/api/v1/destinations/${id}/test`, { token, body: {} });
    return { id, outboxId: ((await queued.json()) as { id: string }).id };
  };

  it('the delete always succeeds and leaves no message or attempt behind, whichever of the two commits first', async () => {
    const repo = createDestinationsRepository(app.services.db);
    const attempt = { attempted_at: new Date().toISOString(), status_code: 200, answer: 'ok', error: null, duration_ms: 3 };
    for (let round = 0; round < 40; round += 1) {
      const { id, outboxId } = await withMessage();
      // Several recordings against one delete, started together, so the interleavings vary round to round.
      const recordings = Array.from({ length: 3 }, () => repo.recordAttempt(outboxId, attempt, { status: 'sent' }));
      const [removed] = await Promise.all([repo.remove(accountId, id), ...recordings]);
      expect(removed).toBe(true);
      const left = await app.services.db.selectFrom('outbox').select('id').where('destination_id', '=', id).execute();
      const attempts = await app.services.db.selectFrom('outbox_attempts').select('id').where('outbox_id', '=', outboxId).execute();
      expect([left, attempts]).toEqual([[], []]);
    }
  });

  it('an alerts pass recording messages for a destination being deleted neither fails nor leaves a message behind', async () => {
    const repo = createDestinationsRepository(app.services.db);
    for (let round = 0; round < 40; round += 1) {
      const { id } = await withMessage();
      // As sendDue records a route's matches after reading the route, while the owner deletes its destination.
      const recordings = Array.from({ length: 3 }, (_, n) => app.services.destinations.enqueueMany(id, [{ subject: `match:${round}-${n}`, message: { text: 'hello' } }]));
      const [removed] = await Promise.all([repo.remove(accountId, id), ...recordings]);
      expect(removed).toBe(true);
      expect(await app.services.db.selectFrom('outbox').select('id').where('destination_id', '=', id).execute()).toEqual([]);
    }
  });
});
