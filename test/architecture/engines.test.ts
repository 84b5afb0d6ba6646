import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

// semver is already installed (fastify depends on it); it is the library npm itself checks engines with.
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string, options: { includePrerelease: boolean }): boolean;
  minVersion(range: string): { version: string } | null;
};

interface LockEntry { optional?: boolean; dev?: boolean }
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, LockEntry> };
const ours = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };

/** Every package the lock installed here, with the Node range its own package.json asks for. */
function installed(): { path: string; node: string | undefined }[] {
  return Object.entries(lock.packages).flatMap(([path, entry]) => {
    if (!path) return [];
    const manifest = `${path}/package.json`;
    // npm skips optional packages built for other platforms (esbuild, rolldown and the like).
    if (!existsSync(manifest)) {
      if (entry.optional) return [];
      throw new Error(`${path} is in package-lock.json but not installed: run npm ci`);
    }
    const engines = (JSON.parse(readFileSync(manifest, 'utf8')) as { engines?: { node?: string } }).engines;
    return [{ path, node: typeof engines?.node === 'string' ? engines.node : undefined }];
  });
}

/** The packages whose engines.node leaves out `version`: each is an EBADENGINE warning from npm install. */
function refusing(version: string): string[] {
  return installed()
    .filter(({ node }) => node !== undefined && !semver.satisfies(version, node, { includePrerelease: true }))
    .map(({ path, node }) => `${path.replace(/^node_modules\//, '')} wants node ${node}`);
}

describe('the Node versions the installed packages accept', () => {
  it('every installed package accepts the Node running the tests, so npm install prints no EBADENGINE', () => {
    expect(refusing(process.version)).toEqual([]);
  });

  it('every installed package accepts the oldest Node that package.json promises', () => {
    const oldest = semver.minVersion(ours.engines.node)?.version;
    expect(oldest).toBeDefined();
    expect(refusing(oldest!)).toEqual([]);
  });
});
