import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { IdempotencyUsecases } from '../idempotency/idempotency.usecases.ts';
import type { ScrapeUsecases } from '../scrape/scrape.usecases.ts';
import { appProblem, sendPage } from './dashboard.reply.ts';
import { EMPTY_SCRAPE_FORM, scrapeBodyOf, scrapeFormBody, scrapeFormOf } from './dashboard.scrape-form.ts';
import { dashboardCaller, sessionOf, viewerOf } from './dashboard.session.ts';
import { scrapeFormSection, type ScrapeForm } from './views/scrape-form.ts';
import { scrapePage, scrapesPage } from './views/scrapes.ts';

const PAGE_SIZE = 25;
const pageQuery = Type.Object({ cursor: Type.Optional(Type.String({ maxLength: 200 })) });
const scrapeParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const resultsQuery = Type.Object({
  keyword: Type.Optional(Type.String({ maxLength: 200 })),
  subreddit: Type.Optional(Type.String({ maxLength: 200 })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
});

/**
 * Pages of the account's scrapes, and the form that starts one (paid from the account, no key). Behind
 * requireSession. (The Credits page: dashboard.credits-routes.ts.)
 */
export const activityRoutes: FastifyPluginAsyncTypebox<{ scrape: ScrapeUsecases; idempotency: IdempotencyUsecases; pairPrice: number }> = async (
  app,
  { scrape, idempotency, pairPrice },
) => {
  /** The list with its form: a fresh attempt each time, the fields as typed and the refusal after a failed press. */
  async function renderList(request: FastifyRequest, cursor: string | undefined, form: ScrapeForm = EMPTY_SCRAPE_FORM, error?: string) {
    const scrapes = await scrape.list(sessionOf(request).accountId, { limit: PAGE_SIZE, cursor });
    const viewer = viewerOf(request)!;
    const section = scrapeFormSection({ viewer, form, attempt: `dashboard-${randomUUID()}`, pairPrice, error });
    return scrapesPage({ viewer, scrapes, firstPage: !cursor, form: section });
  }

  app.get('/scrapes', { schema: { querystring: pageQuery } }, async (request, reply) => sendPage(reply, await renderList(request, request.query.cursor)));

  app.post('/scrapes', { schema: { body: scrapeFormBody } }, async (request, reply) => {
    const { accountId } = sessionOf(request);
    const form = scrapeFormOf(request.body);
    try {
      const body = scrapeBodyOf(form);
      // The form's attempt is its Idempotency-Key: a second press (or a reload of the answer) opens the first scrape.
      const claim = await idempotency.begin(accountId, request.body.attempt, 'POST /dashboard/scrapes', body);
      if (claim.kind !== 'proceed') return reply.redirect(claim.kind === 'resource' ? `/dashboard/scrapes/${claim.resourceId}` : '/dashboard/scrapes', 303);
      const { scrape: started } = await scrape.submit(dashboardCaller(request), body, { respondAsync: true, idempotency: claim.claim });
      return reply.redirect(`/dashboard/scrapes/${started.id}`, 303);
    } catch (error) {
      const problem = appProblem(error);
      return sendPage(reply, await renderList(request, undefined, form, problem.message), problem.status);
    }
  });

  app.get('/scrapes/:id', { schema: { params: scrapeParams, querystring: resultsQuery } }, async (request, reply) => {
    // An empty select ("any") arrives as an empty string.
    const { keyword, subreddit, page = 1 } = request.query;
    const filters = { keyword: keyword || undefined, subreddit: subreddit || undefined };
    const view = await scrape.resultsPage(sessionOf(request).accountId, request.params.id, { ...filters, page, pageSize: PAGE_SIZE });
    return sendPage(reply, scrapePage({ viewer: viewerOf(request)!, ...view, filters }));
  });
};
