import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cycles, folderEdges, folderOf, importsOf, refusal } from './imports.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const edges = importsOf(root);

describe('the direction of imports', () => {
  it('every import in src runs down the layers and roles, never up', () => {
    const against = edges.flatMap((edge) => {
      const why = refusal(edge);
      return why ? [`${edge.from} → ${edge.to}: ${why}`] : [];
    });
    expect(against).toEqual([]);
  });

  it('no files in src import each other in a loop', () => {
    expect(cycles(edges)).toEqual([]);
  });

  it('no two folders (features, their subfolders, integrations, parts of shared) import each other', () => {
    expect(cycles(folderEdges(edges))).toEqual([]);
  });

  it('a feature and its own subfolder importing each other is a loop of folders', () => {
    const loop = [
      { from: 'src/modules/monitors/monitors.usecases.ts', to: 'src/modules/monitors/poller/reddit-app.ts' },
      { from: 'src/modules/monitors/poller/poller.cycle.ts', to: 'src/modules/monitors/monitors.tables.ts' },
    ];
    expect(cycles(folderEdges(loop))).toEqual([['src/modules/monitors', 'src/modules/monitors/poller']]);
    expect(folderOf('src/modules/monitors/inbox/inbox.usecases.ts')).toBe('src/modules/monitors/inbox');
    expect(folderOf('src/shared/db/migrations/0001_core.ts')).toBe('src/shared/db');
  });

  it('shared code importing a module is refused', () => {
    expect(refusal({ from: 'src/shared/crypto/ids.ts', to: 'src/modules/keys/keys.tokens.ts' })).toMatch(/above/);
  });

  it('a usecase importing its own routes is refused', () => {
    expect(refusal({ from: 'src/modules/scrape/scrape.usecases.ts', to: 'src/modules/scrape/scrape.routes.ts' })).toMatch(/above/);
  });

  it('a module reading another module’s repository is refused, its usecases are not', () => {
    expect(refusal({ from: 'src/modules/scrape/scrape.usecases.ts', to: 'src/modules/credits/credits.repository.ts' })).toMatch(/belongs/);
    expect(refusal({ from: 'src/modules/scrape/scrape.usecases.ts', to: 'src/modules/credits/credits.usecases.ts' })).toBeNull();
  });

  it('a loop of two files is found, a chain is not', () => {
    expect(cycles([{ from: 'a', to: 'b' }, { from: 'b', to: 'a' }, { from: 'b', to: 'c' }])).toEqual([['a', 'b']]);
    expect(cycles([{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }])).toEqual([]);
  });
});
