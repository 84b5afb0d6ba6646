import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/*
 * The type check, as `npm run typecheck` runs it, is one test of the slow tier: it takes about half a
 * minute of one core, and as a test it runs beside the other suites instead of before all of them.
 */
describe('the TypeScript of the repository', () => {
  it('type-checks with tsc --noEmit, sources, tests and benches alike', async () => {
    const checked = await promisify(execFile)(process.execPath, [resolve('node_modules/typescript/bin/tsc'), '--noEmit', '-p', '.']).then(
      () => '',
      (error: { stdout: string; stderr: string }) => `${error.stdout}${error.stderr}`,
    );
    expect(checked).toBe('');
  }, 180_000);
});
