import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';
import { ledgerSum } from '../support/ledger.ts';
import { eventually } from '../support/receiver.ts';

const PASSWORD = 'correct horse battery';
const attemptIn = (page: string) => /name="attempt" value="(dashboard-[0-9a-f-]{36})"/.exec(page)![1]!;

describe.each(engines)('starting a scrape from the dashboard on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine);
  });
  afterAll(() => app.close());

  async function member(credits: number) {
    const email = uniqueEmail('scrapeform');
    const account = await app.services.accounts.createAccount(email, PASSWORD);
    if (credits > 0) await app.services.credits.grant(account.id, credits, 'test');
    const browser = new DashboardClient(app.url);
    await browser.logIn(email, PASSWORD);
    return { browser, accountId: account.id };
  }
  const scrapesOf = async (accountId: string) => (await app.services.scrape.list(accountId, { limit: 10 })).data;
  const balanceOf = async (accountId: string) => (await app.services.credits.standing(accountId)).balance;

  it('the form starts a scrape paid from the account, bare subreddit names accepted, and opens it; it completes with its results', async () => {
    app.reddit.addPost({ subreddit: 'formtest', title: 'Which scraper would you pick for this?' });
    const { browser, accountId } = await member(10);
    const page = (await browser.get('/dashboard/scrapes')).body;
    expect(page).toContain('New scrape');
    expect(page).toContain('Costs 1 credit per subreddit × keyword pair');
    const started = await browser.submit('/dashboard/scrapes', '/dashboard/scrapes', {
      attempt: attemptIn(page), subreddits: 'formtest', keywords: 'scraper', sources: 'posts', time: 'week', limit: '',
    });
    expect(started.status).toBe(303);
    const [scrape] = await scrapesOf(accountId);
    expect(started.location).toBe(`/dashboard/scrapes/${scrape!.id}`);
    expect(scrape).toMatchObject({ subreddits: ['r/formtest'], keywords: ['scraper'] });
    await eventually(async () => (await app.services.scrape.get(accountId, scrape!.id)).status === 'completed' || undefined);
    expect((await browser.get(started.location!)).body).toContain('Which scraper would you pick for this?');
    expect(await balanceOf(accountId)).toBe(9);
    expect(await ledgerSum(app.services.db, accountId)).toBe(9);
  });

  it('a Reddit link in the form is taken as the API takes it, stored as r/name', async () => {
    const { browser, accountId } = await member(10);
    const attempt = attemptIn((await browser.get('/dashboard/scrapes')).body);
    const started = await browser.submit('/dashboard/scrapes', '/dashboard/scrapes', {
      attempt, subreddits: 'https://www.reddit.com/r/formtest/', keywords: 'scraper', sources: 'posts', time: 'week', limit: '',
    });
    expect(started.status).toBe(303);
    expect((await scrapesOf(accountId))[0]).toMatchObject({ subreddits: ['r/formtest'] });
  });

  it('a second press of the same form opens the first scrape and pays once', async () => {
    const { browser, accountId } = await member(10);
    const attempt = attemptIn((await browser.get('/dashboard/scrapes')).body);
    const fields = { attempt, subreddits: 'r/formtest', keywords: 'anything', sources: 'posts', time: 'day', limit: '10' };
    const first = await browser.submit('/dashboard/scrapes', '/dashboard/scrapes', fields);
    const second = await browser.submit('/dashboard/scrapes', '/dashboard/scrapes', fields);
    expect(second.status).toBe(303);
    expect(second.location).toBe(first.location);
    expect(await scrapesOf(accountId)).toHaveLength(1);
    await eventually(async () => (await scrapesOf(accountId))[0]!.status === 'completed' || undefined);
    expect(await balanceOf(accountId)).toBe(9);
    expect(await ledgerSum(app.services.db, accountId)).toBe(9);
  });

  it('a form the API would refuse is shown again with the words of the refusal, the fields kept, nothing started or held', async () => {
    const { browser, accountId } = await member(10);
    const attempt = attemptIn((await browser.get('/dashboard/scrapes')).body);
    const refused = await browser.submit('/dashboard/scrapes', '/dashboard/scrapes', {
      attempt, subreddits: 'r/formtest', keywords: '', sources: '', time: 'week', limit: '9000',
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toContain('The scrape is not valid: limit is a whole number from 1 to 500; sources holds 1 to 2 items.');
    expect(refused.body).toContain('>r/formtest</textarea>');
    expect(await scrapesOf(accountId)).toEqual([]);
    expect(await balanceOf(accountId)).toBe(10);
  });

  it('an account without the credits is told what the scrape costs and what it has', async () => {
    const { browser, accountId } = await member(0);
    const attempt = attemptIn((await browser.get('/dashboard/scrapes')).body);
    const refused = await browser.submit('/dashboard/scrapes', '/dashboard/scrapes', {
      attempt, subreddits: 'r/one, r/two', keywords: 'a\nb', sources: 'posts', time: 'week', limit: '',
    });
    expect(refused.status).toBe(402);
    expect(refused.body).toMatch(/4 credits/);
    expect(await scrapesOf(accountId)).toEqual([]);
  });
});
