/**
 * What the site-wide stream covers now (stream.serving.ts), read from its committed rows: the poller
 * asks it each cycle (passed in by the composition root, so the poller imports nothing of the stream)
 * and the monitors' health shows it, with how late the stream is where it does not serve (`state`).
 * Only built while the stream is configured on.
 */
import type { Database } from '../../../shared/db/database.ts';
import type { StreamCovers, StreamState } from '../monitors.stream-serving.ts';
import { createStreamRepository } from './stream.repository.ts';
import { coversOf, stateOf } from './stream.serving.ts';

export function createStreamServing(deps: { db: Database; clock: () => Date; maxLagSeconds: number }) {
  const repo = createStreamRepository(deps.db);
  return {
    covers: async (): Promise<StreamCovers> => coversOf(await repo.serving(), deps.clock(), deps.maxLagSeconds),
    /** For the monitors' health: the covers, and how late the stream is where it does not serve. */
    state: async (): Promise<StreamState> => stateOf(await repo.serving(), deps.clock(), deps.maxLagSeconds),
  };
}
