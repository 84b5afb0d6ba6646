import Type, { type Static } from 'typebox';
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_KEY_RULE } from '../idempotency/idempotency.schemas.ts';
import { subredditSchema } from '../../shared/http/schemas.ts';

/**
 * One object rather than a union of three: the rules between fields are checked in the usecase,
 * which names the field that is wrong instead of "must match a schema in anyOf".
 */
export const publishBodySchema = Type.Object(
  {
    type: Type.Optional(Type.Union([Type.Literal('comment'), Type.Literal('post')])),
    parent: Type.Optional(
      Type.String({
        pattern: '^t[13]_[a-z0-9]{1,16}$',
        'x-rule': 'must be the id of a post (t3_…) or a comment (t1_…): 1–16 lowercase letters or digits after the prefix',
        description: 'A comment: the t3_ post or t1_ comment replied to',
      }),
    ),
    subreddit: Type.Optional(subredditSchema('A post: r/<name>')),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 300, description: 'A post: 1–300 characters' })),
    body: Type.Optional(Type.String({ minLength: 1, maxLength: 40_000, description: 'Markdown text' })),
    generation_id: Type.Optional(
      Type.String({ pattern: '^gen_[0-9a-f]{28}$', 'x-rule': 'must be a generation id: gen_ and 28 hex digits', description: 'Publish a stored draft instead' }),
    ),
    allow_duplicate: Type.Optional(Type.Boolean({ default: false, description: 'Post the same text again within 10 minutes' })),
  },
  { additionalProperties: false },
);

export type PublishBody = Static<typeof publishBodySchema>;

export const publicationSchema = Type.Object({
  id: Type.String(),
  status: Type.Union([Type.Literal('running'), Type.Literal('published'), Type.Literal('failed'), Type.Literal('unknown')]),
  type: Type.Union([Type.Literal('comment'), Type.Literal('post')]),
  generation_id: Type.Union([Type.String(), Type.Null()]),
  reddit: Type.Union([Type.Object({ id: Type.String(), permalink: Type.String() }), Type.Null()]),
  credits: Type.Object({ charged: Type.Integer(), balance: Type.Optional(Type.Integer()) }),
  error: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
});

export const publishHeadersSchema = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ pattern: IDEMPOTENCY_KEY_PATTERN, 'x-rule': IDEMPOTENCY_KEY_RULE })),
});

export const publicationParamsSchema = Type.Object({ id: Type.String({ maxLength: 64 }) });
