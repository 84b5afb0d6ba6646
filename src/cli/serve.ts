import type { Config } from '../app/config.ts';
import { createServices } from '../app/container.ts';
import { buildServer } from '../app/server.ts';

const RECOVERY_INTERVAL_MS = 60_000;

/** Runs the HTTP service until SIGINT/SIGTERM; migrations run in createServices. */
export async function serve(config: Config): Promise<void> {
  const services = await createServices(config);
  const app = await buildServer(services);
  const recover = () =>
    services.scrape
      .recoverAbandoned()
      .then((count) => count > 0 && app.log.warn({ count }, 'refunded abandoned scrapes'))
      .catch((err) => app.log.error({ err }, 'scrape recovery failed'));
  await recover();
  const timer = setInterval(recover, RECOVERY_INTERVAL_MS);
  timer.unref();

  if (!config.reddit) app.log.warn('REDDIT_CLIENT_ID is not set: POST /api/v1/scrape answers 503 until it is');
  await app.listen({ port: config.port, host: config.host });

  const stop = async () => {
    clearInterval(timer);
    await app.close();
    await services.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
