import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { ICredentialType, INodeType } from 'n8n-workflow';

export const run = promisify(execFile);
export const packageDir = resolve('integrations', 'n8n');

/** What a failed command printed (tsc writes its errors to standard output), or '' when it succeeded. */
export const problems = (command: Promise<unknown>) =>
	command.then(
		() => '',
		(error: { stdout?: string; stderr?: string; message: string }) => `${error.stdout ?? ''}${error.stderr ?? ''}` || error.message,
	);

export interface Compiled {
	/** What tsc said ('' when the package compiled). */
	tsc: string;
	Subpilot: new () => INodeType;
	SubpilotTrigger: new () => INodeType;
	SubpilotApi: new () => ICredentialType;
	close(): void;
}

/**
 * The package compiled as its `npm run build` does (its own tsconfig: strict, CommonJS), then loaded
 * with require: the files n8n loads, in the module format it loads them in. Its sources and tsconfig
 * are copied into a temporary directory that sees only this repository's node_modules, as the lint
 * test may be installing the package's own node_modules at the same moment.
 */
export async function compiledPackage(): Promise<Compiled> {
	const dir = mkdtempSync(join(tmpdir(), 'subpilot-n8n-'));
	symlinkSync(resolve('node_modules'), join(dir, 'node_modules'), 'dir');
	for (const part of ['credentials', 'nodes', 'tsconfig.json']) cpSync(join(packageDir, part), join(dir, part), { recursive: true });
	const tsc = await problems(run(process.execPath, [resolve('node_modules/typescript/bin/tsc'), '-p', dir]));
	const load = createRequire(join(dir, 'dist', 'index.js'));
	const built = (path: string) => (tsc === '' ? load(path) : {}) as Record<string, never>;
	return {
		tsc,
		Subpilot: built('./nodes/Subpilot/Subpilot.node.js').Subpilot,
		SubpilotTrigger: built('./nodes/SubpilotTrigger/SubpilotTrigger.node.js').SubpilotTrigger,
		SubpilotApi: built('./credentials/SubpilotApi.credentials.js').SubpilotApi,
		close: () => rmSync(dir, { recursive: true, force: true }),
	};
}
