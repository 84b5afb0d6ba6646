import Type, { type Static } from 'typebox';
import { QUERY_LIMITS } from '../../shared/matching/query.ts';
import { SOMETHING_TO_MATCH } from '../../shared/http/field-rules.ts';
import { dataSourceSchema, matchModeSchema, pageQuerySchema, subredditSchema, trimmedText, webhookUrlSchema } from '../../shared/http/schemas.ts';

export const MAX_RESULTS = 500;
/** What a scrape reads, in the order it is stored and shown. */
export const SCRAPE_SOURCES = ['posts', 'comments'] as const;

export const scrapeBodySchema = Type.Object(
  {
    subreddits: Type.Array(subredditSchema('A subreddit to search'), {
      minItems: 1,
      maxItems: 20,
      description: 'Folded case-insensitively; duplicates are charged once.',
    }),
    keywords: Type.Optional(
      Type.Array(trimmedText({ max: 200, trimmedMax: 100, description: '1–100 characters after trimming' }), {
        maxItems: 20,
        description:
          'Words or phrases, matched case-insensitively in title and body; duplicates are charged once. At least one, unless `query` is given; with both, both must hold.',
      }),
    ),
    query: Type.Optional(
      trimmedText({
        max: 4000,
        trimmedMax: QUERY_LIMITS.length,
        description:
          'A boolean query ([Queries](/docs/guides/queries)): words, "quoted phrases", implicit AND, OR, NOT or -term, parentheses, title:, body:, ' +
          'author:, type:post|comment, flair:. Reddit is searched for its words and phrases (each priced like a keyword) and every result ' +
          'is checked against the whole query. A syntax error is a 422 whose errors[].position points at the character.',
      }),
    ),
    match: Type.Optional(matchModeSchema({ default: 'word' })),
    sort: Type.Optional(Type.Union([Type.Literal('new'), Type.Literal('relevance'), Type.Literal('top')], { default: 'new' })),
    time: Type.Optional(
      Type.Union(
        [
          Type.Literal('hour'),
          Type.Literal('day'),
          Type.Literal('week'),
          Type.Literal('month'),
          Type.Literal('year'),
          Type.Literal('all'),
        ],
        { default: 'week', description: 'How far back Reddit searches.' },
      ),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_RESULTS, default: 100, description: 'Maximum results.' })),
    include_nsfw: Type.Optional(Type.Boolean({ default: false })),
    sources: Type.Optional(
      Type.Array(Type.Union([Type.Literal('posts'), Type.Literal('comments')]), {
        minItems: 1,
        maxItems: 2,
        uniqueItems: true,
        default: ['posts'],
        description:
          'What to look in: "posts" (Reddit\'s search) and/or "comments" (the subreddits\' recent-comments listing, ' +
          'matched here on the comment body; Reddit lists only about the newest 1,000 comments of the subreddits, ' +
          'so on a busy subreddit they reach back hours, not the whole `time` window). Same price either way.',
      }),
    ),
    webhook_url: Type.Optional(
      webhookUrlSchema(
        'https URL that gets a signed POST (Standard Webhooks) when the scrape completes or fails; it must resolve to a public address',
      ),
    ),
  },
  // No `title`: a named schema's defaulted fields become required in openapi-typescript's output
  // (defaultNonNullable), which would make clients send every one; inline, they stay optional.
  { additionalProperties: false, ...SOMETHING_TO_MATCH },
);

export type ScrapeBody = Static<typeof scrapeBodySchema>;

const resultSchema = Type.Object(
  {
    type: Type.Union([Type.Literal('post'), Type.Literal('comment')]),
    id: Type.String({ description: 't3_ id of the Reddit post, or t1_ id of the comment' }),
    subreddit: Type.String(),
    title: Type.String({ description: "The post's title; for a comment, the title of the post it was written under" }),
    body: Type.String({ description: "The post's self text, or the comment's text" }),
    author: Type.String(),
    url: Type.String({ description: "The post's link (its permalink for a self post); for a comment, its permalink" }),
    permalink: Type.String({ description: 'Absolute https URL of the post or of the comment itself' }),
    created_at: Type.String({ format: 'date-time' }),
    score: Type.Integer(),
    num_comments: Type.Integer({ description: 'Always 0 for a comment' }),
    nsfw: Type.Boolean(),
    matched_keywords: Type.Array(Type.String()),
    source: dataSourceSchema('the post or comment is sample data'),
    truncated: Type.Optional(
      Type.Boolean({ description: 'The title or body was over Reddit\'s limit (300 / 40,000 characters) and was cut' }),
    ),
  },
  { title: 'ScrapeResult' },
);

export const scrapeSchema = Type.Object(
  {
    id: Type.String(),
    status: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('completed'), Type.Literal('failed')]),
    subreddits: Type.Array(Type.String()),
    keywords: Type.Array(Type.String()),
    query: Type.Union([Type.String(), Type.Null()]),
    match: matchModeSchema({ description: 'How keywords and query terms were matched: "word" or "phrase" (scrapes made before the choice: "phrase")' }),
    sort: Type.String(),
    time: Type.String(),
    limit: Type.Integer(),
    include_nsfw: Type.Boolean(),
    sources: Type.Array(Type.Union([Type.Literal('posts'), Type.Literal('comments')])),
    webhook_url: Type.Union([Type.String(), Type.Null()]),
    results: Type.Array(resultSchema),
    unavailable: Type.Array(Type.Object({ subreddit: Type.String(), reason: Type.String() })),
    skipped: Type.Integer({ description: 'Posts Reddit sent that could not be read (a bad date, no id) and were left out' }),
    credits: Type.Object({ charged: Type.Integer(), balance: Type.Optional(Type.Integer()) }),
    error: Type.Union([Type.String(), Type.Null()]),
    created_at: Type.String({ format: 'date-time' }),
    completed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { title: 'Scrape' },
);

export const scrapeListSchema = Type.Object(
  {
    data: Type.Array(Type.Omit(scrapeSchema, ['results'], { title: 'ScrapeSummary' })),
    has_more: Type.Boolean(),
    next_cursor: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'ScrapeList' },
);

export const scrapeParamsSchema = Type.Object({ id: Type.String({ maxLength: 64 }) });
export { pageQuerySchema };
