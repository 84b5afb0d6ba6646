import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { packPythonSdk, SDK_DIR, writeReadmeExamples, type PythonSdk } from '../support/python-sdk.ts';

const run = promisify(execFile);

/** What pyright (the repository's, from npm) finds in the project of `config`: one line per problem. */
async function pyright(config: string) {
  const output = await run(resolve('node_modules/.bin/pyright'), ['--outputjson', '-p', config]).then(
    ({ stdout }) => stdout,
    (error: { stdout: string }) => error.stdout,
  );
  const report = JSON.parse(output) as { generalDiagnostics: { file: string; range: { start: { line: number } }; message: string }[]; summary: { filesAnalyzed: number } };
  return { problems: report.generalDiagnostics.map((d) => `${d.file}:${d.range.start.line + 1} ${d.message}`), files: report.summary.filesAnalyzed };
}

/** The Python SDK as a package: what it ships, its types, and whether its generated code is the server's document. */
describe('the Python SDK package (sdk/python)', () => {
  let sdk: PythonSdk;
  beforeAll(async () => {
    sdk = await packPythonSdk();
  }, 60_000);
  afterAll(() => sdk?.remove());

  it('is built by the backend its pyproject.toml declares into a distribution with every module, py.typed, and no dependency', () => {
    const files = sdk.files();
    const modules = ['__init__', '_base', 'client', 'errors', 'response', 'version', 'webhooks', 'models/__init__', '_api/__init__'];
    expect(files).toEqual(expect.arrayContaining([...modules.map((name) => `subpilot/${name}.py`), 'subpilot/py.typed']));
    const metadata = readFileSync(join(sdk.root, 'PKG-INFO'), 'utf8');
    expect(metadata).toMatch(/^Name: subpilot$/m);
    expect(metadata).toMatch(/^Requires-Python: >=3\.9$/m);
    expect(metadata).not.toMatch(/^Requires-Dist:/m);
  });

  it('passes its own tests of the client without a server, on the standard library alone', async () => {
    const { stderr } = await sdk.python('test_client.py');
    expect(stderr).toMatch(/\nOK\n/);
  });

  it('type-checks with pyright in strict mode for Python 3.9: the package, its generator and its tests', async () => {
    const config = JSON.parse(readFileSync(join(SDK_DIR, 'pyrightconfig.json'), 'utf8')) as { typeCheckingMode: string; pythonVersion: string };
    expect([config.typeCheckingMode, config.pythonVersion]).toEqual(['strict', '3.9']);
    const report = await pyright(join(SDK_DIR, 'pyrightconfig.json'));
    expect(report.problems).toEqual([]);
    expect(report.files).toBeGreaterThanOrEqual(25);
  }, 240_000);

  it('type-checks the examples of its README in strict mode, against the distribution', async () => {
    const dir = join(sdk.root, 'readme');
    expect(writeReadmeExamples(dir)).toHaveLength(4);
    writeFileSync(join(dir, 'pyrightconfig.json'), JSON.stringify({ typeCheckingMode: 'strict', pythonVersion: '3.9', extraPaths: [sdk.root] }));
    const report = await pyright(join(dir, 'pyrightconfig.json'));
    expect(report.problems).toEqual([]);
    expect(report.files).toBe(4);
  }, 240_000);

  it('parses as Python 3.9 (no match statements, no newer grammar)', async () => {
    const check = [
      'import ast, pathlib, sys',
      'for path in sorted(pathlib.Path(sys.argv[1]).rglob("*.py")):',
      '    ast.parse(path.read_text(), str(path), feature_version=(3, 9))',
    ].join('\n');
    await expect(run('python3', ['-c', check, SDK_DIR])).resolves.toBeDefined();
  });

  it('holds the models and methods that codegen/generate.py makes from the running server’s document', async () => {
    const app = await startTestApp(engines[0]!, { worker: false });
    try {
      const document = join(sdk.root, 'openapi.json');
      writeFileSync(document, await (await fetch(`${app.url}/openapi.json`)).text());
      const checked = await run('python3', [join(SDK_DIR, 'codegen', 'generate.py'), document, '--check'], { env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } }).then(
        () => '',
        (error: { stderr: string }) => `${error.stderr}run: python3 sdk/python/codegen/generate.py <server>/openapi.json`,
      );
      expect(checked).toBe('');
    } finally {
      await app.close();
    }
  });
});
