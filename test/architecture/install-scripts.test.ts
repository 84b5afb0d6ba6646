import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<string, { hasInstallScript?: boolean; optional?: boolean }>;
};
const ours = JSON.parse(readFileSync('package.json', 'utf8')) as { allowScripts?: Record<string, boolean> };

describe('the install scripts npm runs', () => {
  // npm 11 only warns about install scripts missing from allowScripts; npm 12 skips them, and without its
  // script better-sqlite3 has no compiled binding, so the service would not start after `npm ci`.
  // A script the service does without is denied by name instead (false): swagger-ui-dist's dependency
  // @scarf/scarf only reports the install to its vendor, and npm 11, which still runs denied scripts, is
  // kept from that by package.json scarfSettings.
  it('every dependency with an install script is approved or denied by name in package.json allowScripts', () => {
    const needed = Object.entries(lock.packages)
      .filter(([path, entry]) => path && entry.hasInstallScript && !entry.optional)
      .map(([path]) => path.replace(/^.*node_modules\//, ''));
    expect(needed).toContain('better-sqlite3');
    expect(needed.filter((name) => typeof ours.allowScripts?.[name] !== 'boolean')).toEqual([]);
    expect(ours.allowScripts?.['better-sqlite3']).toBe(true);
  });
});
