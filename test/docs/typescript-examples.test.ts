import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { examplesDirectory } from '../support/examples.ts';

const run = promisify(execFile);
const bin = (name: string) => resolve('node_modules', '.bin', name);

/*
 * The TypeScript examples are compiled as a reader compiles them: against types that
 * openapi-typescript generates from the /openapi.json of a running server, with tsc --strict. The
 * document is built from the route schemas, not from the database, so one engine is enough. Like
 * the project's own tsconfig, it skips checking declaration files: the examples' use of the
 * generated types is what is checked.
 */
describe('the TypeScript examples of the documents', () => {
  let app: TestApp;
  let files: ReturnType<typeof examplesDirectory>;
  beforeAll(async () => {
    app = await startTestApp('sqlite', { worker: false });
    files = examplesDirectory();
  });
  afterAll(async () => {
    files?.remove();
    await app?.close();
  });

  it('compile with tsc --strict against the types openapi-typescript generates from the live /openapi.json', async () => {
    // The command docs/api.md gives the reader, against this server.
    await run(bin('openapi-typescript'), [`${app.url}/openapi.json`, '-o', join(files.dir, 'subpilot-api.d.ts')], { cwd: files.dir });
    expect(existsSync(join(files.dir, 'subpilot-api.d.ts'))).toBe(true);

    const sources = readdirSync(files.dir).filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'));
    expect(sources).toEqual(expect.arrayContaining(['client.ts', 'scrape.ts', 'scrape-async.ts', 'monitor-create.ts', 'matches.ts', 'receiver.ts']));
    const options = ['--strict', '--noEmit', '--skipLibCheck', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--types', 'node'];
    const compiled = await run(bin('tsc'), [...options, ...sources], { cwd: files.dir }).then(
      () => '',
      (error: { stdout?: string; message: string }) => error.stdout || error.message,
    );
    expect(compiled).toBe('');
  }, 120_000);
});
