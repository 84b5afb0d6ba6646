import type { Config } from '../app/config.ts';
import { createServices } from '../app/container.ts';
import { buildServer } from '../app/server.ts';

/** Closes everything on SIGINT/SIGTERM: running jobs get a few seconds to finish (pg-boss graceful stop). */
function onSignal(stop: () => Promise<void>) {
  const handler = () => void stop().finally(() => process.exit(0));
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
}

/** The HTTP service; with `worker` it also runs the background jobs (scrapes, webhooks). */
export async function serve(config: Config, options: { worker: boolean }): Promise<void> {
  const services = await createServices(config);
  const app = await buildServer(services);
  const stopWorker = options.worker ? await services.startWorker() : () => undefined;
  if (!config.reddit) app.log.warn('REDDIT_CLIENT_ID is not set: POST /api/v1/scrape answers 503 until it is');
  await app.listen({ port: config.port, host: config.host });
  onSignal(async () => {
    stopWorker();
    await app.close();
    await services.close();
  });
}

/** Only the background jobs, no HTTP: run as many as the load needs, next to `serve --no-worker`. */
export async function worker(config: Config): Promise<void> {
  const services = await createServices(config);
  const stopWorker = await services.startWorker();
  process.stdout.write(`${JSON.stringify({ level: 30, time: Date.now(), msg: 'worker started' })}\n`);
  onSignal(async () => {
    stopWorker();
    await services.close();
  });
}
