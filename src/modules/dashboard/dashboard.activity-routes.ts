import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { AccountSettingsUsecases } from '../accounts/accounts.usecases.ts';
import type { CreditsUsecases } from '../credits/credits.usecases.ts';
import type { ScrapeUsecases } from '../scrape/scrape.usecases.ts';
import { formProblem, sendPage } from './dashboard.reply.ts';
import { sessionOf, viewerOf } from './dashboard.session.ts';
import { creditsPage, type CreditsPage } from './views/credits.ts';
import { scrapePage, scrapesPage } from './views/scrapes.ts';

const PAGE_SIZE = 25;
const pageQuery = Type.Object({ cursor: Type.Optional(Type.String({ maxLength: 200 })) });
const creditsQuery = Type.Object({ cursor: Type.Optional(Type.String({ maxLength: 200 })), done: Type.Optional(Type.Literal('threshold')) });
const thresholdBody = Type.Object({ csrf: Type.Optional(Type.String()), threshold: Type.String({ maxLength: 20 }) });
const scrapeParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const resultsQuery = Type.Object({
  keyword: Type.Optional(Type.String({ maxLength: 200 })),
  subreddit: Type.Optional(Type.String({ maxLength: 200 })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
});

/** Pages of what the account's keys did: credits spent (and the low-balance threshold) and scrapes run. Behind requireSession. */
export const activityRoutes: FastifyPluginAsyncTypebox<{
  credits: CreditsUsecases;
  scrape: ScrapeUsecases;
  accountSettings: AccountSettingsUsecases;
}> = async (app, { credits, scrape, accountSettings }) => {
  const renderCredits = async (request: FastifyRequest, cursor: string | undefined, extras: Pick<CreditsPage, 'notice' | 'thresholdError' | 'thresholdInput'>) => {
    const { accountId } = sessionOf(request);
    const [balance, usage, settings] = await Promise.all([
      credits.spendableBalance(accountId),
      credits.usage(accountId, { limit: PAGE_SIZE, cursor }),
      accountSettings.settings(accountId),
    ]);
    return creditsPage({ viewer: viewerOf(request)!, balance, usage, firstPage: !cursor, threshold: settings.low_balance_threshold, ...extras });
  };

  app.get('/credits', { schema: { querystring: creditsQuery } }, async (request, reply) => {
    const { cursor, done } = request.query;
    return sendPage(reply, await renderCredits(request, cursor, { notice: done ? 'The low-balance threshold was saved.' : undefined }));
  });

  app.post('/credits/low-balance', { schema: { body: thresholdBody } }, async (request, reply) => {
    const input = request.body.threshold.trim();
    try {
      // Empty switches alerts off; digits are a number whose range the usecase checks; anything else is refused by it too.
      const threshold = input === '' ? null : /^\d+$/.test(input) ? Number(input) : Number.NaN;
      await accountSettings.setLowBalanceThreshold(sessionOf(request).accountId, threshold);
    } catch (error) {
      const problem = formProblem(error);
      return sendPage(reply, await renderCredits(request, undefined, { thresholdError: problem.message, thresholdInput: input }), problem.status);
    }
    return reply.redirect('/dashboard/credits?done=threshold', 303);
  });

  app.get('/scrapes', { schema: { querystring: pageQuery } }, async (request, reply) => {
    const { cursor } = request.query;
    const scrapes = await scrape.list(sessionOf(request).accountId, { limit: PAGE_SIZE, cursor });
    return sendPage(reply, scrapesPage({ viewer: viewerOf(request)!, scrapes, firstPage: !cursor }));
  });

  app.get('/scrapes/:id', { schema: { params: scrapeParams, querystring: resultsQuery } }, async (request, reply) => {
    // An empty select ("any") arrives as an empty string.
    const { keyword, subreddit, page = 1 } = request.query;
    const filters = { keyword: keyword || undefined, subreddit: subreddit || undefined };
    const view = await scrape.resultsPage(sessionOf(request).accountId, request.params.id, { ...filters, page, pageSize: PAGE_SIZE });
    return sendPage(reply, scrapePage({ viewer: viewerOf(request)!, ...view, filters }));
  });
};
