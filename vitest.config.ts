import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The slow tier: files that start other programs (Chromium, `subpilot` processes they kill or cut off
 * from the database, tsc, Redocly, bash and python running the documents' examples). Their time is
 * mostly those programs', so they start first and run beside the fast tier. Everything else is the
 * fast tier: it runs in the worker's own process, and `npm run test:fast` runs it alone.
 * docs/testing.md says how to choose.
 */
export const SLOW_TIER = [
  'test/**/*.e2e.test.ts',
  'test/api/crash-recovery.test.ts',
  'test/api/openapi-lint.test.ts',
  'test/api/reddit-blocked.test.ts',
  'test/architecture/typecheck.test.ts',
  'test/cli/cli-new-database.test.ts',
  'test/cli/mcp-bridge.test.ts',
  'test/cli/serve-startup.test.ts',
  'test/docs/examples.test.ts',
  'test/docs/typescript-examples.test.ts',
  'test/docs/webhook-receivers.test.ts',
  'test/scale/account-limits.test.ts',
  'test/scale/database-outage.test.ts',
  'test/scale/idempotency-faults.test.ts',
  'test/scale/monitors-kill.test.ts',
  'test/scale/multi-process.test.ts',
];

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Each file's time is kept for the next look at where the gate's minutes go (docs/testing.md).
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    // Most of a test's time is waiting on sockets and child processes, so a worker per core and one
    // more keeps both cores busy (measured in docs/testing.md).
    maxWorkers: availableParallelism() + 1,
    // A worker loads the app's modules once and runs file after file in them: loading took about
    // 3.6 s a file. Tests keep no state in modules, so sharing them changes nothing they check.
    isolate: false,
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
