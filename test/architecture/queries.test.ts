import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { misplacedQueries, misplacedQueriesIn } from './queries.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

const usecase = `export async function pay(db) {
  const row = await db.selectFrom('accounts').selectAll().executeTakeFirst();
  await sql\`select 1\`.execute(db);
  await sql<number>\`select 2\`.execute(db);
  return row;
}`;

describe('where SQL is written', () => {
  it('every query in src is in a repository, a store or the database layer', () => {
    expect(misplacedQueriesIn(root)).toEqual([]);
  });

  it('a query built in a usecases file is caught, with its line', () => {
    expect(misplacedQueries('src/modules/credits/credits.usecases.ts', usecase)).toEqual([
      'src/modules/credits/credits.usecases.ts:2: .selectFrom(',
      'src/modules/credits/credits.usecases.ts:3: sql`',
      'src/modules/credits/credits.usecases.ts:4: sql`',
    ]);
  });

  it('every kind of query counts: inserts, updates, deletes, sql helpers and schema changes', () => {
    const text = ["db.insertInto('a')", "db.updateTable('a')", "db.deleteFrom('a')", "db.replaceInto('a')", "sql.raw('x')", "db.schema.createTable('a')"].join('\n');
    expect(misplacedQueries('src/app/container.ts', text)).toHaveLength(6);
  });

  it('the same queries in a repository, a store or shared/db are allowed', () => {
    expect(misplacedQueries('src/modules/credits/credits.repository.ts', usecase)).toEqual([]);
    expect(misplacedQueries('src/modules/ratelimit/ratelimit.budget-stores.ts', usecase)).toEqual([]);
    expect(misplacedQueries('src/shared/db/migrations/0001_core.ts', usecase)).toEqual([]);
  });

  it('a comment that names a query is not one', () => {
    expect(misplacedQueries('src/modules/credits/credits.usecases.ts', ' * read with `.selectFrom(` in the repository\n// sql`x`')).toEqual([]);
  });
});
