// tsc copies no SVGs, and n8n loads a node's icon ('file:subpilot.svg') from beside its compiled .js.
import { copyFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

for (const node of readdirSync('nodes')) {
	for (const file of readdirSync(join('nodes', node)).filter((name) => name.endsWith('.svg'))) {
		copyFileSync(join('nodes', node, file), join('dist', 'nodes', node, file));
	}
}
