import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { startFakeSmtp, type FakeSmtp } from '../support/fake-smtp.ts';
import { startFakeTelegram, type FakeTelegram } from '../support/fake-telegram.ts';
import { startSubpilot } from '../support/processes.ts';
import { eventually } from '../support/receiver.ts';

const SECRET_KEY = 'e'.repeat(64);
const TESTS_EACH = 8;

/*
 * A worker killed with SIGKILL while it drains the outbox (docs/api/destinations.md, "After a crash").
 * A real `subpilot worker` sends to Telegram chats and email addresses (the fakes; both reachable
 * through the environment) and is killed once a dozen messages are out, with mail answers slowed so
 * that some are in flight. What it held (the destinations' leases, its attempts' leases) ends after
 * 60 s: rather than wait, this process takes over with its clock moved past them, as a new worker
 * would a minute later, and drains what is left. Every message arrives, and only a message in flight
 * at the kill may arrive twice: at most one per destination.
 */
describe.each(engines)('a worker killed with SIGKILL mid-drain on %s', (engine) => {
  let app: TestApp;
  let telegram: FakeTelegram;
  let smtp: FakeSmtp;
  let worker: ChildProcess | undefined;
  /** This process's clock: the real one until the take-over, then past every lease the dead worker held. */
  let offsetMs = 0;
  const now = () => new Date(Date.now() + offsetMs);
  const env = () => ({
    SECRET_KEY,
    PUBLIC_URL: 'https://app.subpilot.test',
    SMTP_URL: smtp.url,
    MAIL_FROM: 'alerts@subpilot.test',
    TELEGRAM_BOT_TOKEN: telegram.token,
    TELEGRAM_API_URL: telegram.url,
    DESTINATION_PACE_MS: 'telegram=1000,email=200',
  });

  beforeAll(async () => {
    [telegram, smtp] = await Promise.all([startFakeTelegram(), startFakeSmtp()]);
    telegram.now = () => now().getTime();
    app = await startTestApp(engine, {
      worker: false,
      env: env(),
      overrides: { clock: now, sleep: async (ms) => void (offsetMs += ms) },
    });
  });
  afterAll(async () => {
    worker?.kill('SIGKILL');
    await app?.close();
    await Promise.all([telegram?.close(), smtp?.close()]);
  });

  it('loses nothing, and sends again only what was in flight, at most once per destination', async () => {
    const { token } = await app.accountWithKey(0);
    const create = async (body: object) => ((await (await app.api('POST', '/api/v1/destinations', { token, body })).json()) as { id: string; link: string | null }).id;
    const destinations: { id: string; kind: 'telegram' | 'email'; to: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const id = await create({ kind: 'telegram', name: `chat ${i}` });
      const { link } = (await (await app.api('GET', `/api/v1/destinations/${id}`, { token })).json()) as { link: string };
      telegram.userSends(900 + i, `/start ${link.split('start=')[1]}`);
      destinations.push({ id, kind: 'telegram', to: String(900 + i) });
    }
    await app.services.telegramLinking!.pollOnce(0);
    for (let i = 0; i < 3; i++) {
      const address = `inbox${i}@example.com`;
      const id = await create({ kind: 'email', name: `inbox ${i}`, address });
      // Confirmed as its link would (tested in test/destinations/email.test.ts): the confirmation mail still goes out.
      await app.services.db.updateTable('destinations').set({ status: 'active', confirm_expires_at: null }).where('id', '=', id).execute();
      destinations.push({ id, kind: 'email', to: address });
    }
    for (let n = 0; n < TESTS_EACH; n++) {
      for (const { id } of destinations) expect((await app.api('POST', `/api/v1/destinations/${id}/test`, { token, body: { text: `message ${n}` } })).status).toBe(202);
    }
    const outbox = await app.services.db.selectFrom('outbox').select(['id', 'subject', 'destination_id']).execute();

    const received = (to: string) => (/@/.test(to) ? smtp.mails.filter((m) => m.envelope.to.includes(to)).map((m) => m.text) : telegram.accepted(to).map((m) => String(m.text)));
    const sent = () => destinations.reduce((total, d) => total + received(d.to).length, 0);
    smtp.slow(150);
    worker = (await startSubpilot(['worker'], { ...app.database.env, ...env() })).child;
    await eventually(() => (sent() >= 12 ? true : undefined), 60_000);
    worker.kill('SIGKILL');
    await new Promise((resolve) => worker!.once('exit', resolve));
    const atKill = sent();

    // A new worker a minute later: the dead one's leases are over by then.
    offsetMs += 61_000;
    for (let round = 0; round < 40; round++) {
      const pending = await app.services.db.selectFrom('outbox').select('destination_id').where('status', '=', 'pending').groupBy('destination_id').execute();
      if (pending.length === 0) break;
      await Promise.all(pending.map(({ destination_id }) => app.services.destinations.drain(destination_id)));
      offsetMs += 5000;
    }
    expect(await app.services.db.selectFrom('outbox').select('id').where('status', '!=', 'sent').execute()).toEqual([]);

    // Every message arrived; a few twice, each one that was in flight at the kill.
    const times = new Map<string, number>();
    for (const { to, id } of destinations) {
      const texts = received(to);
      for (const row of outbox.filter((r) => r.destination_id === id)) {
        // A test names its id; the other two are the chat's "Linked:" and the address's confirmation.
        const [kind, subject] = row.subject.split(':') as [string, string];
        const mark = kind === 'test' ? subject : kind === 'linked' ? 'Linked:' : 'confirm the address';
        times.set(row.id, texts.filter((text) => text.includes(mark)).length);
      }
    }
    expect([...times.values()].filter((copies) => copies === 0)).toEqual([]);
    const twice = [...times.entries()].filter(([, copies]) => copies > 1);
    console.log(`${engine}: ${atKill} of ${outbox.length} messages out at the kill, ${twice.length} sent twice`);
    expect(twice.every(([, copies]) => copies === 2)).toBe(true);
    expect(twice.length).toBeLessThanOrEqual(destinations.length);
    expect(sent()).toBe(outbox.length + twice.length);
    expect(atKill).toBeGreaterThanOrEqual(12);
    // A mail sent twice is the same mail: the same Message-ID.
    const ids = smtp.mails.map((m) => m.messageId);
    expect(new Set(ids).size).toBe(smtp.mails.length - twice.filter(([id]) => outbox.find((r) => r.id === id && destinations.find((d) => d.id === r.destination_id)?.kind === 'email')).length);
  }, 120_000);
});
