/**
 * What the demo source (REDDIT_SOURCE=demo) serves: a fixed set of posts and comments, dated, and the
 * samples its trickle lists as new (demo.content.ts). The answers carry the fields and envelopes of
 * Reddit's recorded answers that the service's fakes cite (test/support/fake-reddit*.ts: asyncpraw's
 * and PRAW's cassettes of `/r/<sub>/comments` and `/api/info`, a recorded `/r/golang/new.json`); the
 * text is written for the demo, about tools a developer might ask Reddit for, and no real person's
 * words or name are in it. Every author is a `demo_` name and every id a demo id (shared/demo.ts).
 * The subreddits are those of the README's quickstart (r/typescript, r/node, "kysely") and a few more.
 */

export interface DemoPost {
  /** Its id number (shared/demo.ts demoId); below every trickled one. */
  n: number;
  subreddit: string;
  title: string;
  selftext: string;
  author: string;
  /** ISO instant. */
  created: string;
  score: number;
  num_comments: number;
  flair?: string;
}

export interface DemoComment {
  n: number;
  /** The `n` of the post it was written under. */
  post: number;
  body: string;
  author: string;
  created: string;
  score: number;
}

/** A trickled sample: a post, or a comment under one of the fixed posts. */
export type DemoSample =
  | { kind: 'post'; subreddit: string; title: string; selftext: string; author: string; flair?: string }
  | { kind: 'comment'; post: number; body: string; author: string };

export const DEMO_POSTS: DemoPost[] = [
  { n: 1, subreddit: 'typescript', title: 'Kysely or Prisma for a new project in 2026?', selftext: 'Starting a small API on Node 20 with PostgreSQL. I like that Kysely is just typed SQL, but Prisma has migrations built in. What did you pick and would you pick it again?', author: 'demo_mira', created: '2026-11-02T09:14:00Z', score: 87, num_comments: 4, flair: 'Discussion' },
  { n: 2, subreddit: 'node', title: 'Migrations with kysely: how do you run them in production?', selftext: 'We run kysely migrations from a start-up script. Works, but two instances starting together race. Do you take a lock, or run them as a separate job?', author: 'demo_tobi', created: '2026-11-04T16:40:00Z', score: 41, num_comments: 3 },
  { n: 3, subreddit: 'typescript', title: 'Strict mode caught a bug I had for a year', selftext: 'noUncheckedIndexedAccess found an array read that could be undefined in our billing code. Turn it on.', author: 'demo_jun', created: '2026-11-06T11:02:00Z', score: 203, num_comments: 1 },
  { n: 4, subreddit: 'node', title: 'Which tool do you use to monitor Reddit for mentions of your product?', selftext: 'I keep missing threads where people ask for a tool like ours. Looking for something that alerts me on Slack when a keyword shows up in a few subreddits.', author: 'demo_ola', created: '2026-11-08T08:25:00Z', score: 19, num_comments: 2, flair: 'Help' },
  { n: 5, subreddit: 'javascript', title: 'Is there a query builder as nice as Kysely for plain JavaScript?', selftext: 'Our codebase is not TypeScript yet. Does kysely still help without the types, or should we look elsewhere?', author: 'demo_ravi', created: '2026-11-09T19:51:00Z', score: 12, num_comments: 1 },
  { n: 6, subreddit: 'webdev', title: 'Server-rendered dashboards are fine, actually', selftext: 'No SPA, no build step, forms and a little CSS. Our admin pages load in 40 ms.', author: 'demo_lena', created: '2026-11-11T13:37:00Z', score: 356, num_comments: 1 },
  { n: 7, subreddit: 'selfhosted', title: 'Recommend a self-hosted alternative to F5Bot?', selftext: 'I want keyword alerts for a handful of subreddits, on my own server, with a webhook. SQLite is fine.', author: 'demo_nils', created: '2026-11-13T07:12:00Z', score: 64, num_comments: 2, flair: 'Need Help' },
  { n: 8, subreddit: 'typescript', title: 'Typing a Kysely plugin that rewrites identifiers', selftext: 'I am writing a plugin that turns camelCase into snake_case. The transformQuery types are confusing; has anyone done this?', author: 'demo_ana', created: '2026-11-15T21:05:00Z', score: 23, num_comments: 1 },
  { n: 9, subreddit: 'node', title: 'Node 20 fetch keeps sockets open after tests', selftext: 'Our vitest run hangs for 5 s at the end. Turned out undici keeps idle connections; closing the agent fixed it.', author: 'demo_kai', created: '2026-11-17T10:48:00Z', score: 55, num_comments: 0 },
  { n: 10, subreddit: 'SaaS', title: 'How do you find people asking for exactly what you sell?', selftext: 'Cold outreach is dead for us. The best leads were people on Reddit asking "which tool does X". How do you catch those in time?', author: 'demo_sofia', created: '2026-11-19T15:20:00Z', score: 38, num_comments: 1 },
  { n: 11, subreddit: 'javascript', title: 'Temporal is finally usable in every browser we support', selftext: 'Dropped moment and date-fns from the bundle. The API takes a day to learn and then it is lovely.', author: 'demo_ivo', created: '2026-11-21T12:00:00Z', score: 141, num_comments: 0 },
  { n: 12, subreddit: 'node', title: 'kysely vs drizzle for a team new to SQL?', selftext: 'Half the team has only used an ORM. Is a typed query builder a good way to learn SQL, or a trap?', author: 'demo_emre', created: '2026-11-23T18:33:00Z', score: 29, num_comments: 2 },
  { n: 13, subreddit: 'webdev', title: 'Looking for a tool that drafts replies but lets me edit before posting', selftext: 'Every AI reply tool posts on its own. I want drafts I approve. Anything like that?', author: 'demo_mei', created: '2026-11-25T09:09:00Z', score: 17, num_comments: 0 },
  { n: 14, subreddit: 'selfhosted', title: 'Backups of a SQLite file while the app is running', selftext: 'Is sqlite3 .backup safe while the app writes? Or do I need to stop it?', author: 'demo_finn', created: '2026-11-26T20:44:00Z', score: 48, num_comments: 0 },
];

export const DEMO_COMMENTS: DemoComment[] = [
  { n: 1, post: 1, body: 'Kysely. The generated types from kysely-codegen keep the schema and the code honest, and there is no engine binary.', author: 'demo_tobi', created: '2026-11-02T10:01:00Z', score: 31 },
  { n: 2, post: 1, body: 'Prisma for us: the team knew it. Would try kysely next time for the raw SQL feel.', author: 'demo_lena', created: '2026-11-02T11:30:00Z', score: 12 },
  { n: 3, post: 2, body: 'Run the migrator in its own one-off job before the new version starts. Kysely takes a lock on PostgreSQL anyway.', author: 'demo_mira', created: '2026-11-04T17:15:00Z', score: 22 },
  { n: 4, post: 4, body: 'We poll the subreddits we care about every minute and post matches to Slack. Comments matter more than posts.', author: 'demo_nils', created: '2026-11-08T09:02:00Z', score: 9 },
  { n: 5, post: 4, body: 'F5Bot for a start, then something with a webhook once you want to filter out job posts.', author: 'demo_sofia', created: '2026-11-08T10:40:00Z', score: 7 },
  { n: 6, post: 7, body: 'Anything that reads the subreddit listings with an approved app works; the unauthenticated JSON was shut down.', author: 'demo_kai', created: '2026-11-13T08:03:00Z', score: 15 },
  { n: 7, post: 8, body: 'Look at the CamelCasePlugin that ships with kysely; its source shows the types you need.', author: 'demo_jun', created: '2026-11-15T22:10:00Z', score: 11 },
  { n: 8, post: 12, body: 'Kysely. Reading the SQL it builds taught our juniors more than any ORM did.', author: 'demo_ravi', created: '2026-11-23T19:02:00Z', score: 8 },
  { n: 9, post: 3, body: 'Same here. exactOptionalPropertyTypes next, if you are brave.', author: 'demo_ana', created: '2026-11-06T12:30:00Z', score: 40 },
  { n: 10, post: 10, body: 'Keyword alerts on a few subreddits, and a person who answers the same day. That is the whole trick.', author: 'demo_ola', created: '2026-11-19T16:05:00Z', score: 6 },
];

/**
 * What the trickle lists as new, one every DEMO_TRICKLE_SECONDS, in this order and round again. Every
 * third one or so mentions kysely in r/typescript or r/node, so the quickstart's monitor finds a
 * match within a few of them.
 */
export const DEMO_TRICKLE: DemoSample[] = [
  { kind: 'post', subreddit: 'typescript', title: 'Sample: first week with Kysely, notes', selftext: 'Type inference on joins is great; the docs on transactions took me a while.', author: 'demo_sample_ada' },
  { kind: 'comment', post: 4, body: 'Sample: we set up a monitor for "which tool" questions and answer them the same day now.', author: 'demo_sample_ben' },
  { kind: 'post', subreddit: 'webdev', title: 'Sample: what do you use for feature flags?', selftext: 'A table and an if, or a service?', author: 'demo_sample_cleo' },
  { kind: 'comment', post: 2, body: 'Sample: kysely migrations in a separate job here too, no more races.', author: 'demo_sample_dan' },
  { kind: 'post', subreddit: 'selfhosted', title: 'Sample: which monitoring tool for a small VPS?', selftext: 'Looking for alerts on disk and memory, nothing heavy.', author: 'demo_sample_eve', flair: 'Need Help' },
  { kind: 'comment', post: 6, body: 'Sample: forms and a little CSS have aged better than our SPA did.', author: 'demo_sample_fay' },
  { kind: 'post', subreddit: 'node', title: 'Sample: kysely with SQLite and PostgreSQL from one codebase', selftext: 'Dialects differ in a few places (returning, json). How do you test both?', author: 'demo_sample_gus' },
  { kind: 'comment', post: 10, body: 'Sample: we recommend whatever tool lets a person approve a reply before it goes out.', author: 'demo_sample_hal' },
  { kind: 'post', subreddit: 'javascript', title: 'Sample: is there a tool to track mentions of our library?', selftext: 'We would like to know when people ask about it on Reddit.', author: 'demo_sample_ivy' },
  { kind: 'comment', post: 1, body: 'Sample: switched from Prisma to kysely last month, no regrets so far.', author: 'demo_sample_jay' },
  { kind: 'post', subreddit: 'SaaS', title: 'Sample: our first customer came from a Reddit thread', selftext: 'Someone asked "which tool does X" and we answered within the hour.', author: 'demo_sample_kim' },
  { kind: 'comment', post: 9, body: 'Sample: closing the undici agent in afterAll fixed the same hang for us.', author: 'demo_sample_leo' },
];
