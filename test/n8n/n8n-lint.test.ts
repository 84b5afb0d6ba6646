import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { packageDir, problems, run } from './package.ts';

type Manifest = { dependencies?: Record<string, string>; devDependencies?: Record<string, string>; peerDependencies?: Record<string, string> };
const manifest = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Manifest;

/*
 * n8n's own linter over the package, from the package's own install: eslint-plugin-n8n-nodes-base
 * has a preinstall script (`npx only-allow pnpm`, a guard for its own repository) that fails a plain
 * `npm ci`, so it cannot be a dependency of the root, whose install runs scripts (better-sqlite3
 * needs its own). The package's lockfile is installed with --ignore-scripts when it is missing,
 * once (about 30 s and 80 MB; later runs reuse it).
 */
describe('the n8n package', () => {
	let installed = '';
	beforeAll(async () => {
		if (existsSync(join(packageDir, 'node_modules', '.bin', 'eslint'))) return;
		installed = await problems(run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: packageDir }));
	}, 300_000);

	it("passes n8n's linter (eslint-plugin-n8n-nodes-base: community, credentials and nodes rules)", async () => {
		expect(installed).toBe('');
		// The plugin reads NODE_ENV=test (which vitest sets) as its own test run and fakes file names then.
		const env = { ...process.env, NODE_ENV: 'production' };
		expect(await problems(run(join(packageDir, 'node_modules', '.bin', 'eslint'), ['--max-warnings', '0', '.'], { cwd: packageDir, env }))).toBe('');
	}, 120_000);

	it('has no runtime dependencies (n8n-workflow is a peer), and none of its packages are runtime dependencies of the service', () => {
		const ours = manifest(join(packageDir, 'package.json'));
		expect(ours.dependencies ?? {}).toEqual({});
		expect(ours.peerDependencies).toEqual({ 'n8n-workflow': '*' });
		const root = manifest('package.json');
		expect(Object.keys(root.dependencies ?? {}).filter((name) => name.includes('n8n') || name.includes('eslint'))).toEqual([]);
	});
});
