import Type, { type Static, type TSchema, type TUnion } from 'typebox';
import { SUBREDDIT_EXAMPLES, SUBREDDIT_MAX_LENGTH, SUBREDDIT_PATTERN, SUBREDDIT_RULE } from './subreddit.ts';
import { ECHO_KEYWORD, rules } from './validation-messages.ts';

export const pageQuerySchema = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    cursor: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);

/**
 * A subreddit in a request, in any of the forms subreddit.ts accepts; the usecases turn it into
 * `r/<name>`, which is what is stored and answered. `purpose` says what it is for.
 */
export const subredditSchema = (purpose = 'A subreddit') =>
  Type.String({
    maxLength: SUBREDDIT_MAX_LENGTH,
    pattern: SUBREDDIT_PATTERN,
    'x-rule': SUBREDDIT_RULE,
    // What was typed is repeated in the refusal (the link's query left out, nothing that looks like a key).
    [ECHO_KEYWORD]: true,
    description:
      `${purpose}: r/name, name, /r/name or a Reddit link (https://www.reddit.com/r/name/…, old.reddit.com, reddit.com/r/name), ` +
      'any case; stored and answered as r/name. The name is 2–21 letters, digits or _, not starting with _.',
    examples: SUBREDDIT_EXAMPLES,
  });

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
    'x-rule': rules.trimmed(options.trimmedMax, options.max),
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

/**
 * How keywords and query terms are matched (monitors, scrapes): whole words unless asked otherwise
 * (docs/api/queries.md says why); `options` adds a default or another description.
 */
export const matchModeSchema = (options: { default?: 'word'; description?: string } = {}) =>
  Type.Union([Type.Literal('word'), Type.Literal('phrase')], {
    description:
      '"word" (the default): a keyword or term matches only where it does not cut a word ("api" matches "API," and "the api" but not "rapid"); ' +
      '"phrase": anywhere in the text, inside words too ("api" matches "rapid").',
    ...options,
  });
