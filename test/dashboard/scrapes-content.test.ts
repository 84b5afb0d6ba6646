import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { DashboardClient, uniqueEmail } from '../support/dashboard-client.ts';
import { engines } from '../support/engines.ts';

const RLO = '\u202E';

describe.each(engines)('the dashboard shows Reddit text isolated on %s', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(engine);
    app.reddit.posts.push(
      { id: 'd1', subreddit: 'bidi', title: `bidi ${RLO}gnp.exe`, author: 'writer_1', created_utc: 1_700_000_000 },
      { id: 'd2', subreddit: 'bidi', title: 'bidi unreadable', created_utc: 1_700_000_100, raw: { created_utc: 1e20 } },
      { id: 'd3', subreddit: 'bidi', title: `bidi ${'long '.repeat(80)}`, created_utc: 1_700_000_200 },
    );
  });
  afterAll(() => app.close());

  it('wraps titles, authors, subreddits and keywords in <bdi>, and says what was cut and how many posts were skipped', async () => {
    const browser = new DashboardClient(app.url);
    const email = uniqueEmail();
    await browser.signUp(email);
    const { id: accountId } = await app.services.accounts.requireByEmail(email);
    await app.services.credits.grant(accountId, 5, 'test');
    const { token } = await app.services.keys.createKey(accountId, 'bidi');
    const response = await app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/bidi'], keywords: [`bidi${RLO}`, 'bidi'] } });
    const { id } = await response.json();

    const detail = (await browser.get(`/dashboard/scrapes/${id}`)).body;
    expect(detail).toContain(`<bdi>bidi ${RLO}gnp.exe</bdi>`);
    expect(detail).toContain('u/<bdi>writer_1</bdi>');
    expect(detail).toContain('<bdi>r/bidi</bdi>');
    expect(detail).toContain(`<bdi>bidi${RLO}</bdi>`);
    expect(detail).toContain('1 post Reddit sent could not be read and was left out.');
    expect(detail.match(/\(cut to Reddit's length limit\)/g)).toHaveLength(1);
    // Nothing carrying a bidi control is left outside an isolating element.
    expect(detail.replace(/<bdi>[^<]*<\/bdi>/g, '')).not.toContain(RLO);

    const list = (await browser.get('/dashboard/scrapes')).body;
    expect(list.replace(/<bdi>[^<]*<\/bdi>/g, '')).not.toContain(RLO);
  });
});
