import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import type { FakeComment, FakePost } from '../support/fake-reddit.ts';
import { ledgerSum } from '../support/ledger.ts';

const hoursAgo = (h: number) => Math.floor(Date.now() / 1000) - h * 3600;
const ids = (scrape: { results: { id: string }[] }) => scrape.results.map((r) => r.id);

describe.each(engines)('POST /api/v1/scrape with sources (comments) on %s', (engine) => {
  let app: TestApp;
  let post: FakePost;
  let nodePost: FakePost;
  const c: Record<string, FakeComment> = {};

  beforeAll(async () => {
    app = await startTestApp(engine);
    const reddit = app.reddit;
    post = reddit.addPost({ subreddit: 'typescript', title: 'Node tips', selftext: 'use strict', created_utc: hoursAgo(3) });
    nodePost = reddit.addPost({ subreddit: 'node', title: 'Weekly thread', created_utc: hoursAgo(48) });
    c.old = reddit.addComment({ subreddit: 'typescript', body: 'an old node remark', created_utc: hoursAgo(24 * 10) });
    c.quiet = reddit.addComment({ subreddit: 'typescript', body: 'nothing relevant', created_utc: hoursAgo(2) });
    c.streams = reddit.addComment({ subreddit: 'typescript', body: 'I love Node streams — très bien 🎉', author: 'alice', created_utc: hoursAgo(1) });
    c.great = reddit.addComment({ subreddit: 'node', body: 'NODE is great', created_utc: hoursAgo(0.5), score: 40 });
    c.nsfw = reddit.addComment({ subreddit: 'typescript', body: 'node, but nsfw', created_utc: hoursAgo(0.25), over_18: true });
    reddit.subreddits.set('secretclub', 'private');
  });
  afterAll(() => app.close());

  const scrape = async (token: string, body: Record<string, unknown>) => {
    const response = await app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/typescript', 'r/node'], keywords: ['node'], ...body } });
    expect(response.status).toBe(200);
    return response.json();
  };
  const ledgerMatches = async (accountId: string) => {
    const balance = await app.services.credits.spendableBalance(accountId);
    expect(await ledgerSum(app.services.db, accountId)).toBe(balance);
    return balance;
  };

  it('finds comments whose body contains a keyword and describes each as a comment result', async () => {
    const { token, accountId } = await app.accountWithKey(10);
    const before = app.reddit.requests.length;
    const result = await scrape(token, { sources: ['comments'] });
    expect(result).toMatchObject({ status: 'completed', sources: ['comments'], unavailable: [], credits: { charged: 2, balance: 8 } });
    expect(ids(result)).toEqual([`t1_${c.great!.id}`, `t1_${c.streams!.id}`]);
    const permalink = `https://www.reddit.com/r/typescript/comments/${post.id}/node_tips/${c.streams!.id}/`;
    expect(result.results[1]).toEqual({
      type: 'comment',
      id: `t1_${c.streams!.id}`,
      subreddit: 'r/typescript',
      title: 'Node tips',
      body: 'I love Node streams — très bien 🎉',
      author: 'alice',
      url: permalink,
      permalink,
      created_at: new Date(c.streams!.created_utc * 1000).toISOString(),
      score: 1,
      num_comments: 0,
      nsfw: false,
      matched_keywords: ['node'],
      source: 'reddit',
    });
    expect(result.results[0]).toMatchObject({ title: nodePost.title, score: 40 });
    const calls = app.reddit.requests.slice(before).map((r) => r.path);
    expect(calls).toContain('/r/typescript+node/comments');
    expect(calls.some((path) => path.endsWith('/search'))).toBe(false);
    expect(await ledgerMatches(accountId)).toBe(8);
  });

  it('mixes posts and comments, newest first, under one limit', async () => {
    const { token, accountId } = await app.accountWithKey(10);
    const both = await scrape(token, { sources: ['comments', 'posts'] });
    expect(both.sources).toEqual(['posts', 'comments']);
    expect(both.results.map((r: { type: string; id: string }) => `${r.type} ${r.id}`)).toEqual([
      `comment t1_${c.great!.id}`,
      `comment t1_${c.streams!.id}`,
      `post t3_${post.id}`,
    ]);
    expect(both.credits.charged).toBe(2);
    const limited = await scrape(token, { sources: ['posts', 'comments'], limit: 2 });
    expect(ids(limited)).toEqual([`t1_${c.great!.id}`, `t1_${c.streams!.id}`]);
    expect(await ledgerMatches(accountId)).toBe(6);
  });

  it('keeps the highest-scored results when sort is top and the limit cuts', async () => {
    const { token, accountId } = await app.accountWithKey(10);
    const top = await scrape(token, { sources: ['posts', 'comments'], sort: 'top', limit: 1 });
    expect(ids(top)).toEqual([`t1_${c.great!.id}`]);
    expect(await ledgerMatches(accountId)).toBe(8);
  });

  it('reads comments back only to the start of the time window', async () => {
    const { token, accountId } = await app.accountWithKey(20);
    const hour = await scrape(token, { sources: ['comments'], time: 'hour', subreddits: ['r/typescript'] });
    expect(ids(hour)).toEqual([]);
    const day = await scrape(token, { sources: ['comments'], time: 'day', subreddits: ['r/typescript'] });
    expect(ids(day)).toEqual([`t1_${c.streams!.id}`]);
    const month = await scrape(token, { sources: ['comments'], time: 'month', subreddits: ['r/typescript'], include_nsfw: true });
    expect(ids(month)).toEqual([`t1_${c.nsfw!.id}`, `t1_${c.streams!.id}`, `t1_${c.old!.id}`]);
    expect(await ledgerMatches(accountId)).toBe(17);
  });

  it('stays posts-only when sources is not sent, each result marked as a post', async () => {
    const { token, accountId } = await app.accountWithKey(10);
    const before = app.reddit.requests.length;
    const result = await scrape(token, {});
    expect(result.sources).toEqual(['posts']);
    expect(result.results.map((r: { type: string; id: string }) => `${r.type} ${r.id}`)).toEqual([`post t3_${post.id}`]);
    expect(app.reddit.requests.slice(before).some((r) => r.path.endsWith('/comments'))).toBe(false);
    expect(await ledgerMatches(accountId)).toBe(8);
  });

  it('lists a private subreddit as unavailable and refunds its pairs', async () => {
    const { token, accountId } = await app.accountWithKey(10);
    const result = await scrape(token, { sources: ['comments'], subreddits: ['r/typescript', 'r/secretclub'] });
    expect(result.unavailable).toEqual([{ subreddit: 'r/secretclub', reason: 'private' }]);
    expect(ids(result)).toEqual([`t1_${c.streams!.id}`]);
    expect(result.credits.charged).toBe(1);
    expect(await ledgerMatches(accountId)).toBe(9);
  });

  it.each([[[]], [['posts', 'posts']], [['replies']], ['comments']])('refuses sources %j with 422 and charges nothing', async (sources) => {
    const { token, accountId } = await app.accountWithKey(10);
    const response = await app.api('POST', '/api/v1/scrape', { token, body: { subreddits: ['r/typescript'], keywords: ['node'], sources } });
    expect(response.status).toBe(422);
    expect(await ledgerMatches(accountId)).toBe(10);
  });
});
