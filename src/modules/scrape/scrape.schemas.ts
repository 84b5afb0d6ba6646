import Type, { type Static } from 'typebox';
import { pageQuerySchema } from '../../shared/http/schemas.ts';

export const SUBREDDIT_PATTERN = '^r/[A-Za-z0-9][A-Za-z0-9_]{1,20}$';
export const MAX_RESULTS = 500;

export const scrapeBodySchema = Type.Object(
  {
    subreddits: Type.Array(
      Type.String({ pattern: SUBREDDIT_PATTERN, description: 'r/<name>: 2–21 of A–Z a–z 0–9 _, not starting with _' }),
      { minItems: 1, maxItems: 20, description: 'Folded case-insensitively; duplicates are charged once.' },
    ),
    keywords: Type.Array(Type.String({ minLength: 1, maxLength: 200, description: '1–100 characters after trimming' }), {
      minItems: 1,
      maxItems: 20,
      description: 'Words or phrases, matched case-insensitively in title and body; duplicates are charged once.',
    }),
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
    webhook_url: Type.Optional(
      Type.String({
        maxLength: 2000,
        description: 'https URL that gets a signed POST (Standard Webhooks) when the scrape completes or fails',
      }),
    ),
  },
  { additionalProperties: false },
);

export type ScrapeBody = Static<typeof scrapeBodySchema>;

const resultSchema = Type.Object({
  id: Type.String({ description: 't3_ id of the Reddit post' }),
  subreddit: Type.String(),
  title: Type.String(),
  body: Type.String(),
  author: Type.String(),
  url: Type.String(),
  permalink: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  score: Type.Integer(),
  num_comments: Type.Integer(),
  nsfw: Type.Boolean(),
  matched_keywords: Type.Array(Type.String()),
  truncated: Type.Optional(
    Type.Boolean({ description: 'The title or body was over Reddit\'s limit (300 / 40,000 characters) and was cut' }),
  ),
});

export const scrapeSchema = Type.Object({
  id: Type.String(),
  status: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('completed'), Type.Literal('failed')]),
  subreddits: Type.Array(Type.String()),
  keywords: Type.Array(Type.String()),
  sort: Type.String(),
  time: Type.String(),
  limit: Type.Integer(),
  include_nsfw: Type.Boolean(),
  webhook_url: Type.Union([Type.String(), Type.Null()]),
  results: Type.Array(resultSchema),
  unavailable: Type.Array(Type.Object({ subreddit: Type.String(), reason: Type.String() })),
  skipped: Type.Integer({ description: 'Posts Reddit sent that could not be read (a bad date, no id) and were left out' }),
  credits: Type.Object({ charged: Type.Integer(), balance: Type.Optional(Type.Integer()) }),
  error: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  completed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const scrapeListSchema = Type.Object({
  data: Type.Array(Type.Omit(scrapeSchema, ['results'])),
  has_more: Type.Boolean(),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});

export const scrapeParamsSchema = Type.Object({ id: Type.String({ maxLength: 64 }) });
export { pageQuerySchema };
