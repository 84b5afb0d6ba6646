import { Command, InvalidArgumentError } from 'commander';
import { ConfigError, loadConfig } from '../shared/config/config.ts';
import { AppError, isAppError } from '../shared/errors.ts';
import { plural } from '../shared/text.ts';
import type { CliIo } from './io.ts';
import { withServices } from './operator.ts';

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Stripe lists the events of the last 30 days only; asking further back would look complete and not be. */
const MAX_SINCE_MS = 30 * UNIT_MS.d;

/** `30m`, `12h`, `3d`: how far back, in milliseconds. */
function parseSince(value: string): number {
  const match = /^(\d+)([mhd])$/.exec(value.trim());
  if (!match || Number(match[1]) === 0) {
    throw new InvalidArgumentError(`--since is a number of minutes, hours or days such as 30m, 12h or 3d, got "${value}"`);
  }
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  if (ms > MAX_SINCE_MS) throw new InvalidArgumentError(`--since reaches back at most 30d: Stripe keeps events for 30 days, got "${value}"`);
  return ms;
}


export function billingCommand(io: CliIo): Command {
  const billing = new Command('billing').description('credits sold through Stripe');
  billing
    .command('reconcile')
    .description(
      "apply the Stripe events of the last --since that this service may have missed (its webhook endpoint was down or lost); safe to run again, and beside live webhooks",
    )
    .requiredOption('--since <age>', 'how far back: 30m, 12h, 3d (minutes, hours, days); at most 30d, as long as Stripe keeps events', parseSince)
    .action(async (options: { since: number }) => {
      const config = loadConfig(io.env);
      if (!config.billing.stripe) {
        throw new ConfigError(
          'billing reconcile asks Stripe for its events, and STRIPE_SECRET_KEY is not set: run it with the environment `subpilot serve` has (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, CREDIT_PACKS, PUBLIC_URL)',
        );
      }
      const since = new Date(Date.now() - options.since);
      // The CLI's own services refuse a database subpilot never set up; billing needs the full
      // container (the Stripe client, and the webhooks a card saved by a replayed Checkout can send).
      const { seen, applied } = await withServices(io, async () => {
        const { createServices } = await import('../app/container.ts');
        const services = await createServices(config);
        try {
          return await services.billing.reconcile(since);
        } catch (error) {
          if (isAppError(error)) throw error;
          throw new AppError({
            code: 'billing.reconcile_failed',
            status: 502,
            message: `reconciling with Stripe failed, and running it again is safe: ${error instanceof Error ? error.message : String(error)}`,
            cause: error,
          });
        } finally {
          await services.close();
        }
      });
      io.stdout.write(
        `Stripe listed ${plural(seen, 'event', 'events')} since ${since.toISOString()}; applied ${applied} (the rest changed nothing or were not ours).\n`,
      );
    });
  return billing;
}
