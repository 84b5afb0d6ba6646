/**
 * What the site-wide stream covered (GET /stream/coverage): per hour and kind, the id range walked and
 * how many ids were asked, returned, unavailable, still waiting for their second asking, and skipped,
 * with the ranges skipped. Site-wide figures with nothing of any account in them: any key may read them.
 */
import type { Database } from '../../../shared/db/database.ts';
import { createStreamRepository } from './stream.repository.ts';
import { COVERAGE_HOURS, SOURCE_OF } from './stream.cycle.ts';

export function createStreamCoverage(deps: { db: Database; clock: () => Date; enabled: boolean }) {
  const repo = createStreamRepository(deps.db);
  return {
    /** The last `hours` hours (the current one included), newest first. */
    async coverage(hours: number = COVERAGE_HOURS.byDefault) {
      const since = new Date(deps.clock().getTime() - (hours - 1) * 3_600_000);
      const from = `${since.toISOString().slice(0, 13)}:00:00.000Z`;
      const { rows, gaps, pending } = await repo.coverage(from);
      const waiting = new Map(pending.map((p) => [`${p.hour}|${p.kind}`, p.n]));
      return {
        enabled: deps.enabled,
        hours: rows.map((row) => ({
          hour: row.hour,
          source: SOURCE_OF[row.kind],
          first_id: `${row.kind}_${row.first_id}`,
          last_id: `${row.kind}_${row.last_id}`,
          asked: Number(row.asked),
          returned: Number(row.returned),
          unavailable: Number(row.unavailable),
          pending: waiting.get(`${row.hour}|${row.kind}`) ?? 0,
          skipped: Number(row.skipped),
        })),
        gaps: gaps.map((gap) => ({ source: SOURCE_OF[gap.kind], from_id: `${gap.kind}_${gap.from_id}`, to_id: `${gap.kind}_${gap.to_id}`, recorded_at: gap.recorded_at })),
      };
    },
  };
}

export type StreamCoverageUsecases = ReturnType<typeof createStreamCoverage>;
export type StreamCoverage = Awaited<ReturnType<StreamCoverageUsecases['coverage']>>;
