import Type, { type Static } from 'typebox';
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_KEY_RULE } from '../idempotency/idempotency.schemas.ts';
import { NOT_BLANK, dataSourceSchema, oneOf, subredditSchema } from '../../shared/http/schemas.ts';

const allowDuplicate = Type.Optional(
  Type.Boolean({ description: 'true: publish it even though this account published the same text, anywhere, within the last 24 hours (PUBLISH_DUPLICATE_HOURS); default false' }),
);
/** Only comments go into a thread: a post starts one, so its shape has no such flag. */
const allowSecondReply = Type.Optional(
  Type.Boolean({ description: 'true: reply even though this account already replied in this thread (under the same post); default false, one reply per thread' }),
);
const markdown = Type.String({ minLength: 1, maxLength: 40_000, ...NOT_BLANK, description: 'Markdown text, not blank' });

/** Three shapes: a stored draft, a comment, a self post. Exactly one fits any body. */
export const publishBodySchema = oneOf(
  [
    Type.Object(
      {
        generation_id: Type.String({
          pattern: '^gen_[0-9a-f]{28}$',
          'x-rule': 'must be a generation id: gen_ and 28 hex digits',
          description: 'A completed draft of POST /generate: its text goes where it was written for',
        }),
        allow_duplicate: allowDuplicate,
        allow_second_reply: allowSecondReply,
      },
      { additionalProperties: false, title: 'PublishDraft' },
    ),
    Type.Object(
      {
        type: Type.Literal('comment'),
        parent: Type.String({
          pattern: '^t[13]_[a-z0-9]{1,16}$',
          'x-rule': 'must be the id of a post (t3_…) or a comment (t1_…): 1–16 lowercase letters or digits after the prefix',
          description: 'The t3_ post or t1_ comment replied to',
        }),
        body: markdown,
        allow_duplicate: allowDuplicate,
        allow_second_reply: allowSecondReply,
      },
      { additionalProperties: false, title: 'PublishComment' },
    ),
    Type.Object(
      {
        type: Type.Literal('post'),
        subreddit: subredditSchema('The subreddit to post in'),
        title: Type.String({ minLength: 1, maxLength: 300, ...NOT_BLANK, description: '1–300 characters, not blank' }),
        body: markdown,
        allow_duplicate: allowDuplicate,
      },
      { additionalProperties: false, title: 'PublishPost' },
    ),
  ],
  { title: 'PublishRequest' },
);

/** Any of the three shapes, read field by field. */
export type PublishFields = Partial<{
  type: 'comment' | 'post';
  parent: string;
  subreddit: string;
  title: string;
  body: string;
  generation_id: string;
  allow_duplicate: boolean;
  allow_second_reply: boolean;
}>;

export type PublishBody = Static<typeof publishBodySchema>;

export const publicationSchema = Type.Object(
  {
    id: Type.String(),
    status: Type.Union([Type.Literal('running'), Type.Literal('published'), Type.Literal('failed'), Type.Literal('unknown')]),
    type: Type.Union([Type.Literal('comment'), Type.Literal('post')]),
    generation_id: Type.Union([Type.String(), Type.Null()]),
    reddit: Type.Union([Type.Object({ id: Type.String(), permalink: Type.String() }), Type.Null()]),
    credits: Type.Object({ charged: Type.Integer(), balance: Type.Optional(Type.Integer()) }),
    error: Type.Union([Type.String(), Type.Null()]),
    created_at: Type.String({ format: 'date-time' }),
    source: dataSourceSchema('a simulated publication: answered by the demo, it reached no one on Reddit (the id its answer or its parent has decides)'),
  },
  { title: 'Publication' },
);

export const publishHeadersSchema = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ pattern: IDEMPOTENCY_KEY_PATTERN, 'x-rule': IDEMPOTENCY_KEY_RULE })),
});

export const publicationParamsSchema = Type.Object({ id: Type.String({ maxLength: 64 }) });
