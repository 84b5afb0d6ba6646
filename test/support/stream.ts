/**
 * What the site-wide stream's tests (issue 45) share: a monitors app on the fake Reddit's firehose, the
 * stream's cycles run on the pinned clock, and where its walk stands.
 */
import type { TestApp } from './app.ts';
import type { Engine } from './engines.ts';
import { createFirehose, type FirehoseItem, type FirehoseOptions } from './fake-reddit-firehose.ts';
import { startMonitorsApp, type PinnedClock } from './monitors.ts';

/** An item's fullname: `t3_…` or `t1_…`. */
export const fullnameOf = (item: FirehoseItem) => `${item.kind}_${item.id}`;
/** A base-36 id as the number the stream walks. */
export const idNumber = (id36: string) => Number.parseInt(id36, 36);

/** A monitors app whose stream has half the Reddit budget, on a firehose of the test's time (`options` may be changed as it runs). */
export async function startFirehoseApp(engine: Engine, env: Record<string, string>, firehose: Omit<FirehoseOptions, 'clock'>) {
  const { app, clock } = await startMonitorsApp(engine, { env: { REDDIT_STREAM_SHARE: '0.5', ...env }, waitsMoveClock: true });
  const options: FirehoseOptions = { ...firehose, clock: () => clock.now().getTime() };
  app.reddit.firehose = createFirehose(options);
  return { app, clock, options };
}

/** `seconds` of the test's time: a stream cycle every 10 s, each followed by `between` (a poller's cycle) when given. */
export async function runStream(services: { monitorStream: { runCycle(): Promise<unknown> } | null }, clock: PinnedClock, seconds: number, between?: () => Promise<void>) {
  for (let t = 0; t < seconds; t += 10) {
    clock.advance(10);
    await services.monitorStream!.runCycle();
    await between?.();
  }
}

/** Per kind, the id up to which the stream has asked every one (its committed position). */
export const streamPositions = async (app: TestApp) =>
  new Map((await app.database.db.selectFrom('stream_positions').selectAll().execute()).map((row) => [row.kind, idNumber(row.read_to)]));
