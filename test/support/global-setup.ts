import type { TestProject } from 'vitest/node';
import { buildTemplates, type DatabaseTemplates } from './templates.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseTemplates: DatabaseTemplates;
  }
}

/**
 * The root project's, so it runs once per run, for both tiers: says plainly which suites will not run,
 * and builds the migrated databases every test app copies (provided to every project from the root).
 */
export default async function setup(project: TestProject) {
  if (!process.env.TEST_DATABASE_URL) {
    process.stdout.write(
      '\nTEST_DATABASE_URL is not set: the PostgreSQL variants of the suites are SKIPPED; only SQLite runs.\n' +
        'Set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test to run them (.ci/run does).\n\n',
    );
  }
  if (!process.env.TEST_REDIS_URL) {
    process.stdout.write('TEST_REDIS_URL is not set: the Redis rate-limit suite is SKIPPED (.ci/run sets redis://127.0.0.1:6379).\n\n');
  }
  const { templates, remove } = await buildTemplates(process.env.TEST_DATABASE_URL);
  project.provide('databaseTemplates', templates);
  return remove;
}
