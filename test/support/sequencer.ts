import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { SLOW_TIER } from '../tiers.ts';

/**
 * The files SLOW_TIER names one by one first, longest first as it lists them, so that the files that
 * wait longest on other programs overlap with the rest instead of ending the run alone; then every
 * other file, browser suites and fast tier together, largest first (vitest's own guess on a fresh
 * clone, which it would otherwise apply one project after the other).
 */
export default class SlowTierFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const listed = file.project.name === 'slow' ? SLOW_TIER.indexOf(relative(this.ctx.config.root, file.moduleId)) : -1;
      return listed === -1 ? SLOW_TIER.length : listed;
    };
    return files
      .map((file) => ({ file, rank: rank(file), size: statSync(file.moduleId).size }))
      .sort((a, b) => a.rank - b.rank || b.size - a.size)
      .map(({ file }) => file);
  }
}
