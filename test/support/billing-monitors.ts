import type { Engine } from './engines.ts';
import { startFakeStripe } from './fake-stripe.ts';
import { PACKS } from './billing.ts';
import { startMonitorsApp } from './monitors.ts';

export { createMonitor, cycle } from './monitors.ts';

/** A monitors app on a pinned clock (no worker) that sells credits through a fake Stripe. */
export async function pinnedClockApp(engine: Engine) {
  const stripe = await startFakeStripe();
  const { app, clock } = await startMonitorsApp(engine, {
    env: { STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: stripe.webhookSecret, STRIPE_API_URL: stripe.url, CREDIT_PACKS: PACKS, PUBLIC_URL: 'https://subpilot.example.com' },
  });
  stripe.webhookUrl = `${app.url}/webhooks/stripe`;
  // One clock for both sides: the app checks a webhook's signature time against its own (pinned) clock.
  stripe.now = () => clock.seconds();
  return {
    app,
    stripe,
    clock,
    async close() {
      await app.close();
      await stripe.close();
    },
  };
}
