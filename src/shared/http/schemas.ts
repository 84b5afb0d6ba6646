import Type, { type Static, type TSchema, type TUnion } from 'typebox';
import { SUBREDDIT_PATTERN, SUBREDDIT_RULE } from './subreddit.ts';

export const pageQuerySchema = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    cursor: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);

/** A subreddit in a request, `r/<name>`; `description` says what it is for, else the rule. */
export const subredditSchema = (description = 'r/<name>: 2–21 of A–Z a–z 0–9 _, not starting with _') =>
  Type.String({ pattern: SUBREDDIT_PATTERN, 'x-rule': SUBREDDIT_RULE, description });

/**
 * Text the server trims before it uses it: `max` raw characters, and `min`–`trimmedMax` once trimmed,
 * said as a pattern so that the document and the validator both hold the whole rule (JSON Schema counts
 * characters as code points, and so does the pattern).
 */
export const trimmedText = (options: { max: number; trimmedMax: number; description: string }) =>
  Type.String({
    minLength: 1,
    maxLength: options.max,
    pattern: `^\\s*[^\\s\\u0000](?:[^\\u0000]{0,${options.trimmedMax - 2}}[^\\s\\u0000])?\\s*$`,
    'x-rule': `is 1 to ${options.trimmedMax} characters long after trimming spaces, without the NUL character (U+0000)`,
    description: options.description,
  });

/**
 * Text that must hold something besides white space (spread into a string schema). Nor may it hold
 * U+0000, which PostgreSQL's text cannot store. White space, then one character that is neither, then
 * anything but U+0000: each character has one place to go, so the check stays linear on 40,000 of them.
 */
export const NOT_BLANK = { pattern: '^\\s*[^\\s\\u0000][^\\u0000]*$', 'x-rule': 'must not be blank or hold the NUL character (U+0000)' };

/** A receiver's URL: absolute, http(s); where it may point is checked when it is used (webhooks.urls.ts). */
export const webhookUrlSchema = (description: string) =>
  Type.String({ minLength: 1, maxLength: 2000, format: 'uri', pattern: '^https?://', 'x-rule': 'must be an https URL', description });

/** A field that is `schema` or null (JSON's null, not left out). */
export const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * Exactly one of the branches: what OpenAPI calls `oneOf`. TypeBox writes its unions as `anyOf`,
 * which code generators read as "any mix of these"; the validator checks `oneOf` as written.
 */
export const oneOf = <T extends TSchema[]>(branches: [...T], options: Record<string, unknown> = {}) =>
  Type.Unsafe<Static<TUnion<T>>>({ ...options, oneOf: branches });

/** Where a post, comment or publication comes from (shared/demo.ts): Reddit, or the demo source (REDDIT_SOURCE=demo). */
export const dataSourceSchema = (what: string) =>
  Type.Union([Type.Literal('reddit'), Type.Literal('demo')], {
    description: `"demo": ${what} from the demo source's recorded answers and samples (REDDIT_SOURCE=demo), not from Reddit and never charged as Reddit data`,
    examples: ['reddit', 'demo'],
  });
