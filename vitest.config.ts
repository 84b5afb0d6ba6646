import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import SlowTierFirst from './test/support/sequencer.ts';
import { SLOW_TIER } from './test/tiers.ts';

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    sequence: { sequencer: SlowTierFirst },
    // Each file's time is kept for the next look at where the gate's minutes go (docs/testing.md).
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    // Much of a test's time is waiting on sockets and child processes: with a worker per core and one
    // more, the machine is about 90% busy during a run (docs/testing.md, "Where the gate's time goes").
    maxWorkers: availableParallelism() + 1,
    // A worker loads the app's modules once and runs file after file in them: loading took about
    // 3.6 s a file. Tests keep no state in modules, so sharing them changes nothing they check.
    isolate: false,
    // Test databases and other temporary files in memory where the machine has it: SQLite syncs every
    // commit to disk, which cost about a tenth of a run's CPU, and nothing here must outlive the run.
    env: existsSync('/dev/shm') ? { TMPDIR: '/dev/shm' } : {},
    projects: [
      {
        extends: true,
        test: { name: 'fast', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], exclude: SLOW_TIER },
      },
      {
        extends: true,
        test: { name: 'slow', include: SLOW_TIER },
      },
    ],
  },
});
