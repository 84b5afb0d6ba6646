import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transaction } from '../../src/shared/db/database.ts';
import { createPollerRepository } from '../../src/modules/monitors/poller/poller.repository.ts';
import type { TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { createMonitor, startMonitorsApp } from '../support/monitors.ts';

/*
 * A reader (the poller, the stream skipping ahead) records a monitor's gap in its cycle's commit, from
 * monitors it read at the cycle's start, while the owner may be deleting one of them. The commit must
 * not fail on a monitor that is gone (it did, on the foreign key, failing the whole cycle).
 */
describe.each(engines)('deleting a monitor while a reader records its gap on %s', (engine) => {
  let app: TestApp;
  let token: string;
  beforeAll(async () => {
    ({ app } = await startMonitorsApp(engine));
    ({ token } = await app.accountWithKey(0));
  });
  afterAll(() => app?.close());

  const at = new Date().toISOString();
  const record = (monitorId: string) =>
    transaction(app.services.db, (trx) => createPollerRepository(trx).insertGap({ monitorId, source: 'posts', subreddits: ['r/node'], from: at, to: at, now: at }));
  const gapsOf = (monitorId: string) => app.services.db.selectFrom('monitor_gaps').select('seq').where('monitor_id', '=', monitorId).execute();

  it('a reader that read the monitor before its owner deleted it records nothing for it, and its commit goes through', async () => {
    const monitor = await createMonitor(app, token, { subreddits: ['r/node'], keywords: ['kysely'] });
    expect((await app.api('DELETE', `/api/v1/monitors/${monitor.id}`, { token })).status).toBe(204);
    await record(monitor.id);
    expect(await gapsOf(monitor.id)).toEqual([]);
  });
});
