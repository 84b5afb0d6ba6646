import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError } from 'fastify';
import { logFailure, toAppError } from '../../shared/http/error-mapper.ts';
import type { AppError } from '../../shared/errors.ts';
import type { CreditsUsecases } from '../credits/credits.usecases.ts';
import type { KeysUsecases } from '../keys/keys.usecases.ts';
import type { MonitorsUsecases } from '../monitors/monitors.usecases.ts';
import type { InboxUsecases } from '../monitors/inbox/inbox.usecases.ts';
import type { ScrapeUsecases } from '../scrape/scrape.usecases.ts';
import type { ConnectionsUsecases } from '../connections/connections.usecases.ts';
import type { SessionsUsecases } from '../sessions/sessions.usecases.ts';
import type { SignupUsecases } from '../sessions/sessions.signup.usecases.ts';
import type { PasswordResetUsecases } from '../sessions/sessions.reset.usecases.ts';
import type { WebhooksUsecases } from '../webhooks/webhooks.usecases.ts';
import type { GenerateUsecases } from '../generate/generate.usecases.ts';
import type { PublishUsecases } from '../publish/publish.usecases.ts';
import type { AccountSettingsUsecases } from '../accounts/accounts.usecases.ts';
import type { BillingUsecases } from '../billing/billing.usecases.ts';
import type { DestinationsUsecases } from '../destinations/destinations.usecases.ts';
import type { AlertsUsecases } from '../destinations/alerts/alerts.usecases.ts';
import { publishingRoutes } from './dashboard.publishing-routes.ts';
import { activityRoutes } from './dashboard.activity-routes.ts';
import type { IdempotencyUsecases } from '../idempotency/idempotency.usecases.ts';
import { checkoutOrigins, creditsRoutes } from './dashboard.credits-routes.ts';
import { connectionsRoutes } from './dashboard.connections-routes.ts';
import { webhooksRoutes } from './dashboard.webhooks-routes.ts';
import { destinationsRoutes } from './dashboard.destinations-routes.ts';
import { registerAssets } from './dashboard.assets.ts';
import { contentSecurityPolicy, PAGE_SECURITY_HEADERS } from '../../shared/http/page-security.ts';
import { guestRoutes } from './dashboard.guest-routes.ts';
import { passwordRoutes } from './dashboard.password-routes.ts';
import { recipientRoutes } from './dashboard.recipient-routes.ts';
import { inboxRoutes } from './dashboard.inbox-routes.ts';
import { keysRoutes } from './dashboard.keys-routes.ts';
import type { StreamCoverageUsecases } from '../monitors/stream/stream.coverage.usecases.ts';
import { monitorsRoutes } from './dashboard.monitors-routes.ts';
import { sendPage } from './dashboard.reply.ts';
import { checkSessionCsrf, loadSession, requireSession, viewerOf } from './dashboard.session.ts';
import { errorPage } from './views/error.ts';
import type { DataSource } from '../../shared/demo.ts';

export interface DashboardOptions {
  sessions: SessionsUsecases;
  keys: KeysUsecases;
  credits: CreditsUsecases;
  scrape: ScrapeUsecases;
  /** The Scrapes page's form: its attempt is an Idempotency-Key, and it states the price of a pair. */
  idempotency: IdempotencyUsecases;
  scrapePairPrice: number;
  monitors: MonitorsUsecases;
  /** The Inbox page: delivered matches, their reply drafts, and the way to publish them. */
  inbox: InboxUsecases;
  webhooks: WebhooksUsecases;
  generate: GenerateUsecases;
  publish: PublishUsecases;
  /** The Connections page (Reddit identity for publishing); absent: no such page. */
  connections?: ConnectionsUsecases;
  /** Sign-up (at once, or through a mailed link where the server sends mail), and its SIGNUP_CREDITS. */
  signup: SignupUsecases;
  /** "Forgot password?": a mailed link, or the words "ask the operator" where the server sends no mail. */
  passwordReset: PasswordResetUsecases;
  publicUrl: string | null;
  /** The low-balance threshold and the account's webhook endpoint, and the banner every page shows below it. */
  accountSettings: AccountSettingsUsecases;
  /** Buying credits (the Credits page's packs, auto top-up and the page Checkout returns to) and the failed-top-up banner. */
  billing: BillingUsecases;
  /** STRIPE_API_URL while Stripe is configured, else null: where the Credits page's forms may lead (checkoutOrigins). */
  stripeApiUrl: string | null;
  /** Alert destinations: the Destinations page, and the pages a mail's links open (confirm, unsubscribe). */
  destinations: DestinationsUsecases;
  /** Which destinations get a monitor's matches, and how often: the Alerts section of a monitor's page. */
  alerts: AlertsUsecases;
  /** What the site-wide stream covered: the Monitors page's chart of all of Reddit. */
  streamCoverage: StreamCoverageUsecases;
  /** What "now" is for the pages that show it (a key's expiry and state): the services' clock, pinned in tests. */
  clock: () => Date;
  /** Reddit or the demo source (REDDIT_SOURCE): on the demo every page says its data is not Reddit's. */
  redditSource: DataSource;
}

/**
 * The server-rendered dashboard under /dashboard. Registered as its own encapsulated context, so
 * the form parser, the cookie parser and the HTML error pages never reach /api/v1/, which keeps
 * taking Bearer keys only (spec section 5 rule 2).
 */
export const dashboardRoutes: FastifyPluginAsyncTypebox<DashboardOptions> = async (app, options) => {
  const policy = { secure: options.publicUrl?.startsWith('https:') ?? false };
  await app.register(cookie);
  await app.register(formbody);
  app.decorateRequest('dashboardSession', null);
  app.decorateRequest('dashboardBanners', null);
  // The OpenAPI document describes /api/v1/ only; dashboard pages are not an API.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });

  app.addHook('onSend', async (_request, reply) => {
    reply.headers(PAGE_SECURITY_HEADERS);
    // A page whose form leads to another site has set its own (see dashboard.connections-routes.ts).
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', contentSecurityPolicy());
    // Pages can hold a fresh token or account data; assets set their own caching.
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
  const bannersOf = async (accountId: string) => {
    const [lowBalance, failure] = await Promise.all([options.accountSettings.lowBalance(accountId), options.billing.autoTopup.failure(accountId)]);
    return { lowBalance, topupFailure: failure, demo: options.redditSource === 'demo' };
  };
  app.addHook('onRequest', loadSession(options.sessions, policy, bannersOf));

  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const appError = toAppError(error as FastifyError);
    logFailure(error, appError, request);
    return sendPage(reply.headers(appError.headers), errorPage(appError.status, appError.message, viewerOf(request)), appError.status);
  });
  app.setNotFoundHandler((request, reply) =>
    sendPage(reply, errorPage(404, 'There is no dashboard page at this address.', viewerOf(request)), 404),
  );

  registerAssets(app);
  app.get('/', async (_request, reply) => reply.redirect('/dashboard/keys', 302));
  await app.register(guestRoutes, { sessions: options.sessions, signup: options.signup, policy });
  await app.register(passwordRoutes, { sessions: options.sessions, passwordReset: options.passwordReset, policy });
  await app.register(recipientRoutes, { destinations: options.destinations });
  await app.register(async (member) => {
    member.addHook('onRequest', requireSession);
    member.addHook('preValidation', checkSessionCsrf);
    await member.register(keysRoutes, {
      keys: options.keys,
      credits: options.credits,
      sessions: options.sessions,
      publicUrl: options.publicUrl,
      policy,
      clock: options.clock,
    });
    await member.register(creditsRoutes, {
      credits: options.credits,
      accountSettings: options.accountSettings,
      billing: options.billing,
      checkoutOrigins: checkoutOrigins(options.stripeApiUrl),
    });
    await member.register(activityRoutes, { scrape: options.scrape, idempotency: options.idempotency, pairPrice: options.scrapePairPrice });
    await member.register(monitorsRoutes, { monitors: options.monitors, destinations: options.destinations, alerts: options.alerts, streamCoverage: options.streamCoverage });
    await member.register(inboxRoutes, { inbox: options.inbox, monitors: options.monitors, generate: options.generate, accountSettings: options.accountSettings });
    await member.register(publishingRoutes, { generate: options.generate, publish: options.publish, inbox: options.inbox });
    await member.register(webhooksRoutes, { webhooks: options.webhooks, accountSettings: options.accountSettings });
    await member.register(destinationsRoutes, { destinations: options.destinations });
    if (options.connections) await member.register(connectionsRoutes, { connections: options.connections });
  });
};
