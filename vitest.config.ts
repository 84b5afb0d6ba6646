import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import SlowTierFirst from './test/support/sequencer.ts';
import { SLOW_TIER } from './test/tiers.ts';

/** What both tiers run with; each project takes it (not the root's globalSetup, which runs once). */
const tier = {
  testTimeout: 30_000,
  hookTimeout: 30_000,
  pool: 'forks',
  // A worker loads the app's modules once and runs file after file in them: loading took about
  // 3.6 s a file. Tests keep no state in modules, so sharing them changes nothing they check.
  isolate: false,
  // A poll waits for what a loaded machine does late (a page drawn, a delivery made); vitest's 1 s
  // default failed a page that had not yet drawn while every worker was busy. A poll still fails if
  // the value never comes; only its patience changed.
  expect: { poll: { timeout: 10_000 } },
  // Test databases and other temporary files in memory where the machine has it: SQLite syncs every
  // commit to disk, which cost about a tenth of a run's CPU, and nothing here must outlive the run.
  env: existsSync('/dev/shm') ? { TMPDIR: '/dev/shm' } : {},
} as const;

export default defineConfig({
  test: {
    // The root's: it builds the migrated templates once a run and provides them to both tiers.
    globalSetup: ['test/support/global-setup.ts'],
    sequence: { sequencer: SlowTierFirst },
    // Each file's time is kept for the next look at where the gate's minutes go (docs/testing.md).
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    // Much of a test's time is waiting on sockets and child processes: with a worker per core and one
    // more, the machine is about 90% busy during a run (docs/testing.md, "Where the gate's time goes").
    maxWorkers: availableParallelism() + 1,
    projects: [
      { test: { ...tier, name: 'fast', include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'sdk/*/test/**/*.test.ts'], exclude: SLOW_TIER } },
      { test: { ...tier, name: 'slow', include: SLOW_TIER } },
    ],
  },
});
