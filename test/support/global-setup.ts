/** Says plainly, once per run, which suites did not run. */
export default function setup() {
  if (!process.env.TEST_DATABASE_URL) {
    process.stdout.write(
      '\nTEST_DATABASE_URL is not set: the PostgreSQL variants of the suites are SKIPPED; only SQLite runs.\n' +
        'Set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test to run them (.ci/run does).\n\n',
    );
  }
  if (!process.env.TEST_REDIS_URL) {
    process.stdout.write('TEST_REDIS_URL is not set: the Redis rate-limit suite is SKIPPED (.ci/run sets redis://127.0.0.1:6379).\n\n');
  }
}
