/**
 * The slow tier: files that start other programs (Chromium, `subpilot` processes they kill or cut off
 * from the database, tsc, Redocly, pyright, bash and python running the documents' examples and the
 * Python SDK). Their time is mostly those programs', so the ones listed by name start first, longest
 * first as listed (test/support/sequencer.ts), and run beside the fast tier. Everything else is the
 * fast tier: it runs in the worker's own process, and `npm run test:fast` runs it alone.
 * docs/testing.md says how to choose.
 */
export const SLOW_TIER = [
  'test/docs/examples.test.ts',
  'test/cli/cli-new-database.test.ts',
  'test/scale/monitors-kill.test.ts',
  'test/scale/destinations-kill.test.ts',
  'test/sdk/python-sdk.test.ts',
  'test/docs/api-reference.e2e.test.ts',
  'test/architecture/typecheck.test.ts',
  'test/sdk/python-sdk-package.test.ts',
  'test/scale/idempotency-faults.test.ts',
  'test/api/crash-recovery.test.ts',
  'test/api/reddit-blocked.test.ts',
  'test/cli/mcp-bridge.test.ts',
  'test/scale/multi-process.test.ts',
  'test/scale/database-outage.test.ts',
  'test/cli/serve-startup.test.ts',
  'test/docs/quickstart-demo.test.ts',
  'test/docs/typescript-examples.test.ts',
  'sdk/typescript/test/compile.test.ts',
  'test/n8n/n8n-lint.test.ts',
  'test/n8n/n8n-node.test.ts',
  'test/scale/account-limits.test.ts',
  'test/api/openapi-lint.test.ts',
  'test/docs/webhook-receivers.test.ts',
  'test/**/*.e2e.test.ts',
];
