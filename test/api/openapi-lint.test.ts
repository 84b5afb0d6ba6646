import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer?: string }[] }[];
}

/**
 * Redocly CLI as a child process, with everything that would reach the network off: telemetry, the
 * check for a newer version and its announcements. It prints a banner on stderr (Node 20 support is
 * ending) and, with --format json, only the report on stdout; the report is cut out of stdout between
 * its outer braces, so a line printed before or after it cannot break the parse.
 */
async function lint(file: string): Promise<LintReport> {
  const { stdout } = await run(
    join(ROOT, 'node_modules/.bin/redocly'),
    // --lint-config error: a mistake in redocly.yaml stops the run instead of passing with the rules it left out.
    ['lint', file, '--config', join(ROOT, 'redocly.yaml'), '--lint-config', 'error', '--format', 'json', '--max-problems', '1000'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        REDOCLY_TELEMETRY: 'off',
        REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
        REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
        NO_COLOR: '1',
      },
      maxBuffer: 16 * 1024 * 1024,
    },
  ).catch((error: { stdout?: string; stderr?: string }) => {
    // A lint with errors exits 1 and still prints its report; anything else is the tool failing.
    if (error.stdout?.includes('"totals"')) return { stdout: error.stdout };
    throw new Error(`redocly lint did not run: ${error.stderr ?? String(error)}`);
  });
  return JSON.parse(stdout.slice(stdout.indexOf('{'), stdout.lastIndexOf('}') + 1)) as LintReport;
}

type Operation = { operationId?: string; summary?: string; description?: string; tags?: string[] };

describe('the served OpenAPI document', () => {
  let app: TestApp;
  let doc: { paths: Record<string, Record<string, Operation>> };
  let dir: string;

  beforeAll(async () => {
    app = await startTestApp('sqlite');
    doc = await (await app.api('GET', '/openapi.json')).json();
    dir = mkdtempSync(join(tmpdir(), 'subpilot-lint-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await app.close();
  });

  it("passes Redocly's recommended rules with no error and no warning", async () => {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const report = await lint(file);
    const problems = report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`);
    console.log(`redocly lint (recommended): ${report.totals.errors} errors, ${report.totals.warnings} warnings, ${report.totals.ignored} ignored`);
    expect(problems).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  }, 60_000);

  it('gives every operation an operationId, a summary, a description and tags', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
    );
    const lacking = (has: (operation: Operation) => boolean) => operations.filter(({ operation }) => !has(operation)).map(({ name }) => name);
    const ids = operations.map(({ operation }) => operation.operationId);

    expect(operations.length).toBeGreaterThan(20);
    expect({
      withoutOperationId: lacking((o) => typeof o.operationId === 'string' && o.operationId.length > 0),
      withoutSummary: lacking((o) => typeof o.summary === 'string' && o.summary.trim().length > 0),
      withoutDescription: lacking((o) => typeof o.description === 'string' && o.description.trim().length > 0),
      withoutTags: lacking((o) => Array.isArray(o.tags) && o.tags.length > 0),
      duplicateOperationIds: ids.filter((id, index) => ids.indexOf(id) !== index),
    }).toEqual({ withoutOperationId: [], withoutSummary: [], withoutDescription: [], withoutTags: [], duplicateOperationIds: [] });
  });
});
