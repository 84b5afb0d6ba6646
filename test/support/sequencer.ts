import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { SLOW_TIER } from '../tiers.ts';

/**
 * The slow tier first, its longest files first (in the order SLOW_TIER lists them), so that the
 * files that wait on other programs overlap with the rest instead of ending the run alone; then the
 * fast tier in vitest's own order (longest last time, or largest first on a fresh clone).
 */
export default class SlowTierFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const path = relative(this.ctx.config.root, file.moduleId);
      const listed = SLOW_TIER.indexOf(path);
      return file.project.name !== 'slow' ? SLOW_TIER.length + 1 : listed === -1 ? SLOW_TIER.length : listed;
    };
    return sorted.map((file, order) => ({ file, order, rank: rank(file) })).sort((a, b) => a.rank - b.rank || a.order - b.order).map(({ file }) => file);
  }
}
