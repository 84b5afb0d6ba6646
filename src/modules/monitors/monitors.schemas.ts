import Type, { type Static } from 'typebox';
import { QUERY_LIMITS } from '../../shared/matching/query.ts';
import { fieldRule, SOMETHING_TO_MATCH } from '../../shared/http/field-rules.ts';
import { dataSourceSchema, matchModeSchema, nullable, pageQuerySchema, subredditSchema, trimmedText, webhookUrlSchema } from '../../shared/http/schemas.ts';
import { health, source } from './monitors.health-schema.ts';
import { DEFAULT_MIN_RELEVANCE, MONITOR_LIMITS } from './monitors.input.ts';

// Keywords may carry spaces around them, so the raw text may be longer than the trimmed limit.
const keyword = trimmedText({ max: 200, trimmedMax: MONITOR_LIMITS.keywordLength, description: '1–100 characters after trimming' });

/** Not stored: a yes to a rule whose preview estimates more matches a day than the server's limit. */
const confirmVolume = Type.Boolean({
  description:
    'true: create or change the monitor even when its preview estimates more matches a day than the server\'s limit ' +
    '(otherwise a 422 monitors.volume_too_high). Not stored; needed again for a later change above the limit.',
});

/** What the rule would have matched lately, in the answers of a create or a change. */
const preview = Type.Object(
  {
    matched_last_hour: nullable(Type.Integer({ minimum: 0, description: 'Posts and comments of the window the monitor would have matched, with the same matcher' })),
    items_in_window: nullable(Type.Integer({ minimum: 0, description: 'Posts and comments of the window in its reach: its subreddits (all but the excluded), of its sources' })),
    window_started_at: nullable(Type.String({ format: 'date-time', description: 'When the oldest item counted was read; the window ends now, at most an hour long' })),
    estimated_per_day: nullable(Type.Integer({ minimum: 0, description: 'matched_last_hour scaled from the window to 24 hours' })),
    daily_limit: Type.Integer({ description: 'Above this estimate a create or change needs confirm_volume: true' }),
    reason: nullable(Type.String({ description: 'Why the numbers are null: the stream is off, or this instance has read nothing in the last hour' })),
  },
  {
    title: 'MonitorPreview',
    description:
      "What the monitor's rule would have matched among the posts and comments the site-wide stream read in its last hour, kept in " +
      'memory by the process that reads the stream (not stored). Null numbers, with the reason, when there is nothing to count: ' +
      'then nothing is refused. Only in the answers of POST and PATCH.',
  },
);

/** Every field a monitor has, without defaults: POST adds them, PATCH must not (a left-out field keeps its value). */
const fields = {
  name: trimmedText({ max: MONITOR_LIMITS.name, trimmedMax: MONITOR_LIMITS.name, description: '1–64 characters after trimming' }),
  subreddits: Type.Array(subredditSchema('A subreddit to watch'), {
    minItems: 1,
    maxItems: MONITOR_LIMITS.subreddits,
    description:
      'Folded case-insensitively (the first spelling is kept). ["all"] (or "r/all", or a reddit.com/r/all link), alone, watches all of ' +
      'Reddit, stored as ["r/all"]: read only by the site-wide stream (503 monitors.stream_off on a server that does not run it), with ' +
      '`exclude_subreddits` for what to leave out. "all" beside other names is a 422.',
    examples: [['r/typescript', 'r/node'], ['all']],
  }),
  exclude_subreddits: Type.Array(subredditSchema('A subreddit never matched'), {
    maxItems: MONITOR_LIMITS.excludeSubreddits,
    description:
      'Subreddits whose posts and comments never match, in the same forms as `subreddits` (stored as r/name), up to 100: ' +
      'what a monitor over all of Reddit leaves out. Compared case-insensitively.',
    examples: [['r/gaming', 'r/funny']],
  }),
  keywords: Type.Array(keyword, {
    maxItems: MONITOR_LIMITS.keywords,
    description:
      'Words or phrases looked for in the title and body of each new post (the body of a comment), case-insensitively: ' +
      'shorthand for the query `(k1 OR k2 …) -x1 …` with `exclude_keywords`. At least one, unless `query` is given; with both, both must hold.',
  }),
  exclude_keywords: Type.Array(keyword, {
    maxItems: MONITOR_LIMITS.excludeKeywords,
    description: 'A post or comment containing one of these is not a match.',
  }),
  match: matchModeSchema(),
  sources: Type.Array(source, { minItems: 1, maxItems: 2, uniqueItems: true, description: 'What to watch.' }),
  include_nsfw: Type.Boolean({ description: 'Whether posts and comments marked NSFW can match.' }),
  webhook_url: nullable(
    webhookUrlSchema('https URL that gets signed monitor.* events (Standard Webhooks); it must resolve to a public address'),
  ),
  max_matches_per_day: nullable(
    Type.Integer({
      minimum: 1,
      maximum: MONITOR_LIMITS.maxMatchesPerDay,
      description: 'The monitor pauses (daily_cap) after this many delivered matches in a UTC day, until the next one; null: no cap.',
    }),
  ),
  query: nullable(
    trimmedText({
      max: 4000,
      trimmedMax: QUERY_LIMITS.length,
      description:
        'A boolean query ([Queries](/docs/guides/queries)): words, "quoted phrases", implicit AND, OR, NOT or -term, parentheses, and the fields ' +
        'title:, body:, author:, type:post|comment, flair:. Same case folding and `match` mode as keywords. A syntax error is a 422 ' +
        'whose errors[].position points at the character. null: keywords alone decide.',
    }),
  ),
  intent: nullable(
    trimmedText({
      max: 600,
      trimmedMax: MONITOR_LIMITS.intent,
      description:
        'What a match should be about, in plain language ("someone asking which tool to use for monitoring Reddit"). Each keyword or ' +
        'query match is then scored 0–100 by the language model, with a one-sentence reason, for PRICE_JUDGE credits. null: not judged.',
    }),
  ),
  min_relevance: Type.Integer({
    minimum: 0,
    maximum: 100,
    description:
      'The score a judged match needs to be delivered (webhook, the default match list); one below is kept as `filtered`. ' +
      'Changing it re-sorts the matches already judged, without judging again.',
  }),
  draft_replies: Type.Boolean({
    description: 'Draft a reply for each delivered match, for PRICE_GENERATE each ([From a match to a reply](/docs/guides/replies)). Never published by itself: a person approves each one.',
  }),
  draft_instructions: nullable(
    trimmedText({ max: 2200, trimmedMax: MONITOR_LIMITS.draftInstructions, description: 'What those drafts should say or do, with the account\'s voice; null: none' }),
  ),
};

export const monitorBodySchema = Type.Object(
  {
    name: fields.name,
    subreddits: fields.subreddits,
    exclude_subreddits: Type.Optional({ ...fields.exclude_subreddits, default: [] }),
    keywords: Type.Optional({ ...fields.keywords, default: [] }),
    exclude_keywords: Type.Optional({ ...fields.exclude_keywords, default: [] }),
    match: Type.Optional({ ...fields.match, default: 'word' }),
    sources: Type.Optional({ ...fields.sources, default: ['posts'] }),
    include_nsfw: Type.Optional({ ...fields.include_nsfw, default: false }),
    webhook_url: Type.Optional(fields.webhook_url),
    max_matches_per_day: Type.Optional(fields.max_matches_per_day),
    query: Type.Optional(fields.query),
    intent: Type.Optional(fields.intent),
    min_relevance: Type.Optional({ ...fields.min_relevance, default: DEFAULT_MIN_RELEVANCE }),
    draft_replies: Type.Optional({ ...fields.draft_replies, default: false }),
    draft_instructions: Type.Optional(fields.draft_instructions),
    confirm_volume: Type.Optional(confirmVolume),
  },
  // Inline in the document, not named, for its defaults: see scrapeBodySchema.
  { additionalProperties: false, ...SOMETHING_TO_MATCH },
);

/** Any field of POST, and `status`; a field left out keeps its value. */
export const monitorPatchSchema = Type.Object(
  {
    name: Type.Optional(fields.name),
    subreddits: Type.Optional(fields.subreddits),
    exclude_subreddits: Type.Optional(fields.exclude_subreddits),
    keywords: Type.Optional(fields.keywords),
    exclude_keywords: Type.Optional(fields.exclude_keywords),
    match: Type.Optional(fields.match),
    sources: Type.Optional(fields.sources),
    include_nsfw: Type.Optional(fields.include_nsfw),
    webhook_url: Type.Optional(fields.webhook_url),
    max_matches_per_day: Type.Optional(fields.max_matches_per_day),
    query: Type.Optional(fields.query),
    intent: Type.Optional(fields.intent),
    min_relevance: Type.Optional(fields.min_relevance),
    draft_replies: Type.Optional(fields.draft_replies),
    draft_instructions: Type.Optional(fields.draft_instructions),
    confirm_volume: Type.Optional(confirmVolume),
    status: Type.Optional(
      Type.Union([Type.Literal('active'), Type.Literal('paused')], {
        description:
          '"paused" stops matching (paused_reason "user"); "active" resumes, watching from that moment on, or, after a pause for credits, from where it stopped.',
      }),
    ),
  },
  {
    additionalProperties: false,
    title: 'MonitorUpdate',
    // Emptying both at once is refused whatever the monitor holds. Emptying one is refused when the
    // monitor has none of the other, which depends on the monitor, not on the body.
    ...fieldRule('query.missing', { not: { required: ['keywords', 'query'], properties: { keywords: { maxItems: 0 }, query: { type: 'null' } } } }),
  },
);

export type MonitorBody = Static<typeof monitorBodySchema>;
export type MonitorPatchBody = Static<typeof monitorPatchSchema>;

const ID_PATTERN = (prefix: string) => `^${prefix}_[0-9a-f]{28}$`;

export const monitorParamsSchema = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const matchesQuerySchema = Type.Object(
  {
    ...pageQuerySchema.properties,
    after: Type.Optional(
      Type.String({
        pattern: ID_PATTERN('mat'),
        'x-rule': 'must be a match id: mat_ and 28 hex digits',
        description: 'A match id: everything this monitor stored after it, oldest first. Not together with cursor.',
      }),
    ),
    include: Type.Optional(
      Type.Literal('filtered', {
        description: 'List the matches judged below `min_relevance` too (each says `filtered: true`); left out by default.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const monitorSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    status: Type.Union([Type.Literal('active'), Type.Literal('paused')]),
    paused_reason: nullable(Type.String({ description: 'insufficient_credits | daily_cap | user' })),
    paused_until: nullable(Type.String({ format: 'date-time' })),
    subreddits: Type.Array(Type.String(), { description: 'r/name each; ["r/all"]: all of Reddit' }),
    exclude_subreddits: Type.Array(Type.String(), { description: 'r/name each: never matched' }),
    keywords: Type.Array(Type.String()),
    exclude_keywords: Type.Array(Type.String()),
    match: Type.String(),
    sources: Type.Array(source),
    include_nsfw: Type.Boolean(),
    webhook_url: nullable(Type.String()),
    max_matches_per_day: nullable(Type.Integer()),
    query: nullable(Type.String()),
    intent: nullable(Type.String()),
    min_relevance: Type.Integer(),
    draft_replies: Type.Boolean(),
    draft_instructions: nullable(Type.String()),
    health,
    preview: Type.Optional(preview),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { title: 'Monitor' },
);

export const matchSchema = Type.Object(
  {
    id: Type.String(),
    monitor_id: Type.String(),
    type: Type.Union([Type.Literal('post'), Type.Literal('comment')]),
    reddit_id: Type.String({ description: 't3_… for a post, t1_… for a comment' }),
    subreddit: Type.String(),
    title: Type.String({ description: "The post's title, also for a comment" }),
    body: Type.String(),
    author: Type.String(),
    permalink: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    matched_keywords: Type.Array(Type.String({ description: 'The keywords, or the words and phrases of the query, found in it' })),
    found_at: Type.String({ format: 'date-time' }),
    relevance: nullable(Type.Integer({ minimum: 0, maximum: 100, description: "The judge's score; null when not judged" })),
    relevance_reason: nullable(Type.String({ description: "The judge's one sentence on why, pointing at the words that decided it" })),
    judge_error: nullable(
      Type.Object(
        {
          code: Type.String({ description: 'judge_unavailable | judge_timeout | judge_malformed | judge_missing | judge_not_configured' }),
          message: Type.String(),
        },
        { description: 'Why a match of a monitor with an intent was delivered unjudged (and not charged for judging)' },
      ),
    ),
    judge_model: nullable(Type.String({ description: 'The model that judged it' })),
    filtered: Type.Boolean({ description: 'Judged below the bar: kept and listed with ?include=filtered, never sent by webhook' }),
    status: Type.Union([Type.Literal('new'), Type.Literal('drafted'), Type.Literal('published'), Type.Literal('dismissed')], {
      description: 'Where it stands in the inbox ([From a match to a reply](/docs/guides/replies))',
    }),
    draft_id: nullable(Type.String({ description: 'Its newest reply draft (GET /generations/{id}); with draft_replies, named as soon as it is charged' })),
    publication_id: nullable(Type.String({ description: 'The publication that answered it' })),
    source: dataSourceSchema('the post or comment is sample data'),
  },
  { title: 'Match' },
);

const pageOf = <T extends typeof monitorSchema | typeof matchSchema>(item: T, title: string) =>
  Type.Object({ data: Type.Array(item), has_more: Type.Boolean(), next_cursor: nullable(Type.String()) }, { title });

export const monitorListSchema = pageOf(monitorSchema, 'MonitorList');
export const matchListSchema = pageOf(matchSchema, 'MatchList');
export { pageQuerySchema };
