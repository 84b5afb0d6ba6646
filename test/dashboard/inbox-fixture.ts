/**
 * What the Inbox suites start from: an app with the fake language model and a pinned clock (the poller,
 * the rails and the fake Reddit read it), and a connected account whose monitor found, in a real poll of
 * the fake Reddit, a post and a comment under another post.
 */
import { expect } from 'vitest';
import type { Engine } from '../support/engines.ts';
import { pinnedClock, type PinnedClock } from '../support/monitors.ts';
import { startPublishingApp, type ConnectedAccount, type PublishingApp } from '../support/publishing.ts';

export interface InboxApp {
  app: PublishingApp;
  clock: PinnedClock;
}

export async function startInboxApp(engine: Engine): Promise<InboxApp> {
  const clock = pinnedClock();
  // No worker: the tests run the poller's cycles themselves.
  const app = await startPublishingApp(engine, { worker: false, overrides: () => ({ clock: clock.now }) });
  app.reddit.clock = () => clock.now().getTime();
  app.reddit.user.now = () => clock.seconds();
  return { app, clock };
}

export interface Found {
  monitorId: string;
  /** The thread the comment is under, as the fake Reddit lists it (no "t3_"). */
  threadId: string;
  post: { matchId: string; redditId: string; title: string };
  comment: { matchId: string; redditId: string; author: string; body: string };
}

let subreddits = 0;

/**
 * A monitor of `account` on a subreddit of its own, watching posts and comments for "kysely"; then a
 * matching post, and a matching comment under a post that does not match, found by one poll.
 */
export async function foundMatches({ app, clock }: InboxApp, account: ConnectedAccount): Promise<Found> {
  const subreddit = `inbox${++subreddits}`;
  const thread = app.reddit.addPost({ subreddit, title: 'Which query builder for Node?', selftext: 'We write raw SQL today.', created_utc: clock.seconds() - 60 });
  const monitor = await app.services.monitors.create(
    account.accountId,
    { name: `Kysely in r/${subreddit}`, subreddits: [`r/${subreddit}`], keywords: ['kysely'], sources: ['posts', 'comments'] },
    { via: 'dashboard' },
  );
  await app.services.monitorPoller.runCycle();
  clock.advance(5);
  const post = app.reddit.addPost({ subreddit, title: 'Is Kysely worth it over Knex?', selftext: 'Migrating a big app.', created_utc: clock.seconds() - 1 });
  const body = 'Has anyone tried Kysely with PostgreSQL in production?';
  const comment = app.reddit.addComment({ subreddit, body, link_id: thread.id, author: 'curious_dev', created_utc: clock.seconds() - 1 });
  clock.advance(5);
  await app.services.monitorPoller.runCycle();
  const rows = await app.services.db.selectFrom('monitor_matches').select(['id', 'reddit_id']).where('monitor_id', '=', monitor.id).execute();
  const idOf = (redditId: string) => rows.find((row) => row.reddit_id === redditId)?.id;
  expect(rows.map((row) => row.reddit_id).sort()).toEqual([`t1_${comment.id}`, `t3_${post.id}`].sort());
  return {
    monitorId: monitor.id,
    threadId: thread.id,
    post: { matchId: idOf(`t3_${post.id}`)!, redditId: `t3_${post.id}`, title: post.title },
    comment: { matchId: idOf(`t1_${comment.id}`)!, redditId: `t1_${comment.id}`, author: 'curious_dev', body },
  };
}
