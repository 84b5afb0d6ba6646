import pino from 'pino';
import type { Overrides } from '../../src/app/container.ts';
import { startTestApp, type TestApp } from './app.ts';
import type { Engine } from './engines.ts';

/** A clock the test moves by hand; every part of the service (and the fake Reddit) reads it. */
export function pinnedClock(start = '2026-11-23T12:00:00.000Z') {
  let now = new Date(start);
  return {
    now: () => now,
    seconds: () => Math.floor(now.getTime() / 1000),
    advance(seconds: number) {
      now = new Date(now.getTime() + seconds * 1000);
    },
    set(iso: string) {
      now = new Date(iso);
    },
  };
}

export type PinnedClock = ReturnType<typeof pinnedClock>;

/** The service with a pinned clock and no background worker: tests run the poller's cycles themselves. */
export async function startMonitorsApp(
  engine: Engine,
  /** `waitsMoveClock`: a wait for the shared Reddit budget moves the pinned clock instead of sleeping. */
  options: { env?: Record<string, string>; worker?: boolean; overrides?: Overrides; waitsMoveClock?: boolean } = {},
) {
  const clock = pinnedClock();
  const sleep = options.waitsMoveClock ? { sleep: async (ms: number) => clock.advance(ms / 1000) } : {};
  const app = await startTestApp(engine, { env: options.env, worker: options.worker ?? false, overrides: { ...options.overrides, ...sleep, clock: clock.now } });
  app.reddit.clock = () => clock.now().getTime();
  return { app, clock };
}

export async function createMonitor(app: TestApp, token: string, body: Record<string, unknown>) {
  const response = await app.api('POST', '/api/v1/monitors', { token, body: { name: 'watch', ...body } });
  if (response.status !== 201) throw new Error(`monitor not created: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id: string; [key: string]: unknown };
}

export const cycle = (app: TestApp) => app.services.monitorPoller.runCycle();

/** The listing requests (not look-ups) the fake Reddit received. */
export const listingRequests = (app: TestApp) => app.reddit.requests.filter((r) => /\/(new|comments)$/.test(r.path));

export const storedMatches = (app: TestApp, monitorId: string) =>
  app.database.db.selectFrom('monitor_matches').selectAll().where('monitor_id', '=', monitorId).orderBy('seq').execute();

/** A logger whose lines (parsed JSON) a test can read. */
export function capturedLog() {
  const lines: { level: number; msg: string; [key: string]: unknown }[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { log, lines, warnings: () => lines.filter((line) => line.level === 40) };
}
