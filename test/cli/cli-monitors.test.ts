import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMonitorsUsecases } from '../../src/modules/monitors/monitors.usecases.ts';
import { previewOf } from '../../src/modules/monitors/stream/stream.preview.ts';
import { createSubredditsUsecases } from '../../src/modules/subreddits/subreddits.usecases.ts';
import { migrate } from '../../src/shared/db/migrate.ts';
import { runCli } from '../support/cli.ts';
import { engines, openTestDatabase, type TestDatabase } from '../support/engines.ts';

describe.each(engines)('subpilot monitors list on %s', (engine) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await openTestDatabase(engine);
    await migrate(database.db);
  });
  afterAll(() => database.drop());

  const subpilot = (args: string[]) => runCli(database, args);

  /** The owners' usecases on the same database, as the API would run them (no webhook URLs here, so no check of one). */
  const monitorsAt = (at: Date) =>
    createMonitorsUsecases({
      db: database.db,
      clock: () => at,
      random: randomBytes,
      assertWebhookUrl: async () => {
        throw new Error('no webhook URL is given in these tests');
      },
      subreddits: createSubredditsUsecases({ db: database.db, reddit: null, clock: () => at }),
      redditConfigured: true,
      llmConfigured: false,
      intervalSeconds: 60,
      limits: { maxPerAccount: 25, maxSubredditsPerAccount: 500 },
      streamOn: false,
      preview: (row) => previewOf(null, row, at, 2_000),
    });

  async function storeMatch(monitorId: string, accountId: string, foundAt: string, n: number) {
    await database.db
      .insertInto('monitor_matches')
      .values({
        id: `mat_${n.toString(16).padStart(28, '0')}`,
        monitor_id: monitorId,
        account_id: accountId,
        type: 'post',
        reddit_id: `t3_cli${n}`,
        subreddit: 'r/node',
        title: 'A title',
        body: '',
        author: 'someone',
        permalink: `https://www.reddit.com/r/node/comments/cli${n}/`,
        created_at: foundAt,
        matched_keywords: '["node"]',
        found_at: foundAt,
        webhook_batch: null,
        notified_at: null,
      })
      .execute();
  }

  it('lists the account’s monitors newest first with their status, sizes and the matches stored today (UTC)', async () => {
    const owner = 'watcher@example.com';
    const accountId = (await subpilot(['accounts', 'create', '--email', owner])).stdout.split(' ')[0]!;
    const now = new Date();
    const older = await monitorsAt(new Date(now.getTime() - 2000)).create(accountId, {
      name: 'Launch watch',
      subreddits: ['r/node', 'r/typescript'],
      keywords: ['subpilot', 'reddit api', 'launch'],
    }, { via: 'api' });
    const newer = await monitorsAt(new Date(now.getTime() - 1000)).create(accountId, { name: 'Hiring', subreddits: ['r/jobs'], keywords: ['node'] }, { via: 'api' });
    await monitorsAt(now).update(accountId, newer.id, { status: 'paused' });
    await storeMatch(older.id, accountId, now.toISOString(), 1);
    await storeMatch(older.id, accountId, now.toISOString(), 2);
    await storeMatch(older.id, accountId, new Date(now.getTime() - 2 * 86_400_000).toISOString(), 3);

    const table = await subpilot(['monitors', 'list', '--email', owner]);
    expect(table).toMatchObject({ code: 0, stderr: '' });
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID +NAME +STATUS +SUBREDDITS +KEYWORDS +MATCHES TODAY +CREATED$/);
    expect(lines[1]).toMatch(new RegExp(`^${newer.id} +Hiring +paused \\(user\\) +1 +1 +0 +${newer.created_at}$`));
    expect(lines[2]).toMatch(new RegExp(`^${older.id} +Launch watch +active +2 +3 +2 +${older.created_at}$`));

    const json = JSON.parse((await subpilot(['monitors', 'list', '--email', owner, '--json'])).stdout);
    expect(json).toEqual([
      { id: newer.id, name: 'Hiring', status: 'paused', paused_reason: 'user', subreddits: 1, keywords: 1, matches_today: 0, created_at: newer.created_at },
      { id: older.id, name: 'Launch watch', status: 'active', paused_reason: null, subreddits: 2, keywords: 3, matches_today: 2, created_at: older.created_at },
    ]);
  });

  it('an account without monitors gets the header alone, an unknown email one error line', async () => {
    await subpilot(['accounts', 'create', '--email', 'quiet@example.com']);
    expect((await subpilot(['monitors', 'list', '--email', 'quiet@example.com'])).stdout).toMatch(/^ID +NAME .*CREATED\n$/);
    const unknown = await subpilot(['monitors', 'list', '--email', 'nobody@example.com']);
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toMatch(/^subpilot: .*nobody@example.com/);
  });
});

describe.each(engines)('subpilot monitors coverage on %s', (engine) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(engine);
    await migrate(database.db);
  });
  afterAll(() => database.drop());

  it("prints what the stream read per hour and the ranges it skipped, the API's JSON with --json, and refuses hours out of range", async () => {
    const hour = `${new Date().toISOString().slice(0, 13)}:00:00.000Z`;
    await database.db
      .insertInto('stream_coverage')
      .values([
        { hour, kind: 't3', first_id: 'a00', last_id: 'a0z', asked: 30, returned: 28, unavailable: 2, skipped: 6 },
        { hour, kind: 't1', first_id: 'b00', last_id: 'b1z', asked: 72, returned: 70, unavailable: 2, skipped: 0 },
      ])
      .execute();
    await database.db.insertInto('stream_gaps').values({ kind: 't3', from_id: 'a0u', to_id: 'a0z', recorded_at: new Date().toISOString() }).execute();

    const table = await runCli(database, ['monitors', 'coverage', '--hours', '2']);
    expect(table.code).toBe(0);
    // No REDDIT_STREAM_SHARE in the test's environment: the stream is off, and what it read stays readable.
    expect(table.stdout).toContain('The stream is off in this configuration');
    expect(table.stdout).toMatch(/HOUR\s+SOURCE\s+IDS\s+ASKED\s+RETURNED\s+UNAVAILABLE\s+PENDING\s+SKIPPED/);
    expect(table.stdout).toMatch(/posts\s+t3_a00…t3_a0z\s+30\s+28\s+2\s+0\s+6/);
    expect(table.stdout).toMatch(/comments\s+t1_b00…t1_b1z\s+72\s+70\s+2\s+0\s+0/);
    expect(table.stdout).toMatch(/posts\s+t3_a0u\s+t3_a0z/);

    const json = await runCli(database, ['monitors', 'coverage', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ enabled: false, hours: [{ source: 'posts', asked: 30, skipped: 6 }, { source: 'comments', asked: 72 }], gaps: [{ from_id: 't3_a0u', to_id: 't3_a0z' }] });

    const refused = await runCli(database, ['monitors', 'coverage', '--hours', '169']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('--hours must be a whole number from 1 to 168, got "169"');
  });
});
