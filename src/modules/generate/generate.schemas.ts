import Type, { type Static } from 'typebox';
import { fieldRule } from '../../shared/http/field-rules.ts';
import { NOT_BLANK, oneOf, subredditSchema } from '../../shared/http/schemas.ts';
import { MAX_INSTRUCTIONS } from './generate.limits.ts';

export const POST_ID_PATTERN = '^t3_[a-z0-9]{1,16}$';
export const REPLY_TO_PATTERN = '^(t[13]_[a-z0-9]{1,16}|mat_[0-9a-f]{28})$';

const instructions = Type.String({
  minLength: 1,
  maxLength: MAX_INSTRUCTIONS,
  ...NOT_BLANK,
  description: 'What to write, up to 2,000 characters, not blank',
});
const tone = Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'e.g. friendly, expert, brief' }));
const maxLength = Type.Optional(
  Type.Integer({ minimum: 50, maximum: 10_000, description: 'Most characters (code points) of the body; a longer answer is cut at a word' }),
);

/** `type` says which of the two a request is, and each takes its own fields: a reply its post, a post its subreddit. */
export const generateBodySchema = oneOf(
  [
    Type.Object(
      {
        type: Type.Literal('reply', { description: 'A reply to a post or a comment' }),
        reply_to: Type.Optional(
          Type.String({
            pattern: REPLY_TO_PATTERN,
            'x-rule': 'must be a post (t3_…) or comment (t1_…) id, 1–16 lowercase letters or digits after the prefix, or a match id (mat_ and 28 hex digits)',
            description:
              'What the reply answers: a t3_ post, a t1_ comment (the draft is published under that comment), or a monitor match ' +
              '(mat_…). A match or a scrape result of this account is the context as stored, without a Reddit request.',
          }),
        ),
        post_id: Type.Optional(
          Type.String({
            pattern: POST_ID_PATTERN,
            'x-rule': 'must be the id of a post: t3_ and 1–16 lowercase letters or digits',
            description: 'Deprecated: the older name of reply_to for a post. Send one of the two.',
            deprecated: true,
          }),
        ),
        instructions: Type.Optional(instructions),
        tone,
        max_length: maxLength,
      },
      {
        additionalProperties: false,
        title: 'GenerateReply',
        // Exactly one of the two (each branch names its field's type, as Redocly wants a required field defined).
        ...fieldRule('generate.reply_to_invalid', {
          oneOf: [
            { required: ['reply_to'], properties: { reply_to: { type: 'string' } } },
            { required: ['post_id'], properties: { post_id: { type: 'string' } } },
          ],
        }),
      },
    ),
    Type.Object(
      {
        type: Type.Literal('post', { description: 'A new self post' }),
        subreddit: subredditSchema('The subreddit the post is for'),
        instructions,
        tone,
        max_length: maxLength,
      },
      { additionalProperties: false, title: 'GeneratePost' },
    ),
  ],
  { title: 'GenerateRequest', discriminator: { propertyName: 'type', mapping: { reply: '#/components/schemas/GenerateReply', post: '#/components/schemas/GeneratePost' } } },
);

export type GenerateBody = Static<typeof generateBodySchema>;

export const generationSchema = Type.Object(
  {
    id: Type.String(),
    type: Type.Union([Type.Literal('reply'), Type.Literal('post')]),
    status: Type.Union([Type.Literal('running'), Type.Literal('completed'), Type.Literal('failed')]),
    post_id: Type.Union([Type.String(), Type.Null()], { description: "A reply's thread: the t3_ post it is under" }),
    reply_to: Type.Union([Type.String(), Type.Null()], { description: 'A reply: the t3_ post or t1_ comment it is published under' }),
    match_id: Type.Union([Type.String(), Type.Null()], { description: 'The monitor match it was written for' }),
    subreddit: Type.String(),
    title: Type.Union([Type.String(), Type.Null()], { description: "Posts only, at most 300 characters (Reddit's limit); null for replies" }),
    body: Type.Union([Type.String(), Type.Null()], {
      description: "At most max_length, else 40,000 characters (Reddit's limit), counted in code points; null when failed",
    }),
    model: Type.Union([Type.String(), Type.Null()]),
    usage: Type.Union([
      Type.Object({ prompt_tokens: Type.Integer(), completion_tokens: Type.Integer(), total_tokens: Type.Integer() }),
      Type.Null(),
    ]),
    credits: Type.Object({ charged: Type.Integer(), balance: Type.Optional(Type.Integer()) }),
    error: Type.Union([Type.String(), Type.Null()]),
    created_at: Type.String({ format: 'date-time' }),
    edited_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When a person last changed its text; null: as the model wrote it' }),
  },
  { title: 'Generation' },
);

/** A person's change to a completed draft before it is published. */
export const generationEditSchema = Type.Object(
  {
    body: Type.String({ minLength: 1, maxLength: 40_000, ...NOT_BLANK, description: 'The new text, Markdown, not blank' }),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 300, ...NOT_BLANK, description: 'A post draft\'s new title' })),
  },
  { additionalProperties: false, title: 'GenerationEdit' },
);
export type GenerationEdit = Static<typeof generationEditSchema>;

export const generationParamsSchema = Type.Object({ id: Type.String({ maxLength: 64 }) });
