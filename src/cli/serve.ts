import type { AddressInfo } from 'node:net';
import type { Config } from '../shared/config/config.ts';
import { createServices, type Services } from '../app/container.ts';
import { describeDatabaseError, isDatabaseUnavailable } from '../shared/db/database.errors.ts';
import { buildServer } from '../app/server.ts';
import { startupReport } from '../app/startup-report.ts';

/**
 * pg-boss 10 does not await its own "complete"/"fail" query after a job (timgit/pg-boss#577), so a
 * database connection that drops at that moment rejects a promise no one holds, and Node would exit.
 * Such a rejection is logged (the job runs again after its lease; handlers are idempotent). Any other
 * unhandled rejection is a bug and still ends the process, as Node does by default.
 */
function surviveDatabaseOutages(log: Services['log']) {
  process.on('unhandledRejection', (reason) => {
    if (!isDatabaseUnavailable(reason)) throw reason;
    log.warn(describeDatabaseError(reason), 'a background database call failed while the database was unreachable');
  });
}

/** Closes everything on SIGINT/SIGTERM: running jobs get a few seconds to finish (pg-boss graceful stop). */
function onSignal(stop: () => Promise<void>) {
  const handler = () => void stop().finally(() => process.exit(0));
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
}

/** The HTTP service; with `worker` it also runs the background jobs (scrapes, webhooks). */
export async function serve(config: Config, options: { worker: boolean }): Promise<void> {
  const services = await createServices(config);
  surviveDatabaseOutages(services.log);
  const app = await buildServer(services);
  const stopWorker = options.worker ? await services.startWorker() : () => undefined;
  await app.listen({ port: config.port, host: config.host });
  // The bound port, not config.port: PORT=0 picks a free one.
  const { port } = app.server.address() as AddressInfo;
  for (const line of startupReport(config, { host: config.host, port })) app.log[line.level](line.msg);
  onSignal(async () => {
    stopWorker();
    await app.close();
    await services.close();
  });
}

/** Only the background jobs, no HTTP: run as many as the load needs, next to `serve --no-worker`. */
export async function worker(config: Config): Promise<void> {
  const services = await createServices(config);
  surviveDatabaseOutages(services.log);
  const stopWorker = await services.startWorker();
  process.stdout.write(`${JSON.stringify({ level: 30, time: Date.now(), msg: 'worker started' })}\n`);
  onSignal(async () => {
    stopWorker();
    await services.close();
  });
}
