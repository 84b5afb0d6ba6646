import { validationError } from '../errors.ts';
import { parseQuery, QuerySyntaxError } from '../matching/query.ts';

/**
 * The wording of every validation message: "<field> <rule>", e.g. "limit is a whole number from 1 to
 * 500". The schema mapping (validation-issues.ts) and the usecases' own checks both word their rules
 * here, so one rule reads the same wherever it is checked. No schema library is loaded: the monitors'
 * checks, which the operator CLI runs, use it too.
 */

/**
 * The OpenAPI specification extension that words a schema's `pattern` for people, as a rule that
 * completes "<field> …" (e.g. "must be r/name: …"). The pattern itself is never shown: the validator
 * compiler refuses a schema whose pattern has none.
 */
export const RULE_KEYWORD = 'x-rule';

export type RequestPart = 'body' | 'querystring' | 'params' | 'headers';

/**
 * How each part of a request is named: as a field's place in a message, as the subject of a 422's
 * summary ("The query string is not valid: …"), and what one of its members is called.
 */
const PARTS: Record<RequestPart, { whole: string; subject: string; member: string }> = {
  body: { whole: 'the request body', subject: 'The request body is', member: 'field' },
  querystring: { whole: 'the query string', subject: 'The query string is', member: 'query parameter' },
  params: { whole: 'the path', subject: 'The path is', member: 'path parameter' },
  headers: { whole: 'the headers', subject: 'The request headers are', member: 'header' },
};

export const memberNoun = (part: RequestPart) => PARTS[part].member;

/** "The request body is", to begin a 422's summary of what is wrong with that part. */
export const partSubject = (part: string | undefined): string => PARTS[(part ?? 'body') as RequestPart]?.subject ?? 'The request is';

const TOKEN_PREFIX = /^(ak|sk|pk|rk|whsec|ghp|gho|github_pat|xox[a-z])_/i;
const TOKEN_LIKE = /[0-9a-f]{16,}|[A-Za-z0-9]{24,}/i;

/**
 * A property name the caller sent may itself be a secret (a key pasted as a field or a query name),
 * so a name is repeated only when it is short, identifier-like and does not look like a token.
 */
export const isHarmlessName = (name: string): boolean =>
  /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/.test(name) && !TOKEN_PREFIX.test(name) && !TOKEN_LIKE.test(name);

/** Whether a text looks like a key or a token: one pasted into the wrong field must not be repeated. */
export const looksLikeSecret = (text: string): boolean => TOKEN_PREFIX.test(text) || TOKEN_LIKE.test(text);

/** The same for a value: short, of name characters and `/ . -`, and not like a token. */
const isHarmlessValue = (value: string): boolean => /^[A-Za-z0-9_][A-Za-z0-9_./-]{0,39}$/.test(value) && !looksLikeSecret(value);

/**
 * The schema extension that lets a refusal repeat the value in full (see `received`), for a field
 * where a person needs to see which of the things they typed was refused (a subreddit or its link).
 */
export const ECHO_KEYWORD = 'x-echo';

/**
 * ` (got "https://www.reddit.com/r/x")`: what was received, for a field marked with ECHO_KEYWORD.
 * A link's query and fragment are left out, a long text is cut, and a text that looks like a key or
 * a token (pasted into the wrong field) is not repeated.
 */
export function received(value: unknown): string {
  if (typeof value !== 'string') return gotType(value);
  const text = value.trim().replace(/[?#].*$/s, '');
  if (text === '') return value === '' ? ' (got an empty text)' : value.trim() === '' ? ' (got only spaces)' : '';
  if (looksLikeSecret(text) || /[\u0000-\u001f]/.test(text)) return ' (got a text that is not repeated: it looks like a key or a token)';
  const chars = [...text];
  return ` (got "${chars.length > 80 ? `${chars.slice(0, 80).join('')}…` : text}")`;
}

/** ` (got "typescript")` for a short harmless text, else nothing: what was sent may be a secret. */
export const got = (value: unknown): string => (typeof value === 'string' && isHarmlessValue(value) ? ` (got "${value}")` : '');

/** ` (got a string)`: only the JSON type of what was sent, which is never a secret. */
export const gotType = (value: unknown): string => ` (got ${typeName(jsonType(value))})`;

export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
  null: 'null',
};
export const typeName = (type: string) => TYPE_NAMES[type] ?? type;

const capitalized = (header: string) => header.replace(/(^|-)([a-z])/g, (_all, dash: string, letter: string) => dash + letter.toUpperCase());

/**
 * A JSON pointer as a field name: `/subreddits/0` is "subreddits[0]", `/a/b` is "a.b", a header is
 * "the Idempotency-Key header", the root is the part itself. A name the schema did not give (the
 * caller's own, which may be a secret) becomes `*`.
 */
export function fieldName(pointer: string, part: RequestPart = 'body'): string {
  const segments = pointer.split('/').slice(1).map((raw) => raw.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (segments.length === 0) return PARTS[part].whole;
  if (part === 'headers') return `the ${capitalized(segments[0]!)} header`;
  return segments
    .map((segment, index) => {
      if (/^\d{1,9}$/.test(segment)) return `[${segment}]`;
      const name = isHarmlessName(segment) ? segment : '*';
      return index === 0 ? name : `.${name}`;
    })
    .join('');
}

/** How a value reads in a message: strings bare (they are the schema's own), the rest as JSON. */
const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** "1 to 20 items", "at least 1 item", "at most 2000 characters", "exactly 3 items". */
function amount(min: number | undefined, max: number | undefined, unit: string): string {
  const of = (n: number) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (min !== undefined && max !== undefined) return min === max ? `exactly ${of(max)}` : `${min} to ${of(max)}`;
  if (min !== undefined) return `at least ${of(min)}`;
  return max === undefined ? `any number of ${unit}s` : `at most ${of(max)}`;
}

interface Bounds {
  type?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
}

const FORMATS: Record<string, string> = {
  uri: 'must be an absolute URL',
  url: 'must be an absolute URL',
  'date-time': 'must be a date and time like 2025-01-31T12:00:00Z',
  date: 'must be a date like 2025-01-31',
  time: 'must be a time like 12:00:00Z',
  email: 'must be an email address',
  uuid: 'must be a UUID',
};

/** Rules as they complete "<field> …". */
export const rules = {
  required: 'is required',
  boolean: 'must be true or false',
  unique: 'must list each value only once',
  oneOf: (values: readonly unknown[]) => (values.length === 1 ? `must be ${shown(values[0])}` : `must be one of ${values.map(shown).join(', ')}`),
  /** "a string or an array": the JSON types a value may have. */
  types: (types: readonly string[]) => `must be ${[...new Set(types)].map(typeName).join(' or ')}`,
  length: (min?: number, max?: number) => `is ${amount(min, max, 'character')} long`,
  /**
   * Text the server trims, one rule wherever it is checked (the schema's x-rule, the usecases' own
   * check): `max` once trimmed, and, where the schema allows more spaces around it, the raw bound too.
   */
  trimmed: (max: number, raw?: number) =>
    `is ${amount(1, max, 'character')} long after trimming spaces${raw !== undefined && raw > max ? ` (at most ${raw} with the spaces)` : ''}, ` +
    'without the NUL character (U+0000)',
  /** A string, and its length when the schema bounds it: for a value of the wrong type. */
  text: (min?: number, max?: number) => (min === undefined && max === undefined ? 'must be a string' : `must be a string of ${amount(min, max, 'character')}`),
  items: (min?: number, max?: number) => `holds ${amount(min, max, 'item')}`,
  fields: (min?: number, max?: number) => `has ${amount(min, max, 'field')}`,
  format: (format: string) => FORMATS[format] ?? `must be in the ${format} format`,
  multipleOf: (step: number) => `must be a multiple of ${step}`,
  /** "is a whole number from 1 to 500", "is a number greater than 0", "must be a whole number". */
  number(bounds: Bounds): string {
    const whole = bounds.type === 'integer';
    // For whole numbers an exclusive bound is the inclusive one next to it.
    const min = bounds.minimum ?? (whole && bounds.exclusiveMinimum !== undefined ? bounds.exclusiveMinimum + 1 : undefined);
    const max = bounds.maximum ?? (whole && bounds.exclusiveMaximum !== undefined ? bounds.exclusiveMaximum - 1 : undefined);
    const kind = whole ? 'a whole number' : 'a number';
    const parts = [
      min !== undefined && max !== undefined ? `from ${min} to ${max}` : undefined,
      min !== undefined && max === undefined ? `of at least ${min}` : undefined,
      max !== undefined && min === undefined ? `of at most ${max}` : undefined,
      !whole && bounds.exclusiveMinimum !== undefined && min === undefined ? `greater than ${bounds.exclusiveMinimum}` : undefined,
      !whole && bounds.exclusiveMaximum !== undefined && max === undefined ? `less than ${bounds.exclusiveMaximum}` : undefined,
    ].filter(Boolean);
    return parts.length === 0 ? `must be ${kind}` : `is ${kind} ${parts.join(' and ')}`;
  },
};

/**
 * The 422 a usecase throws for the checks a schema cannot make (text after trimming, rules between
 * fields): each problem is a rule at a path, worded "<field> <rule>" like the schema's own.
 */
export function invalidFields(subject: string, problems: Problem[], code = 'request.invalid') {
  // `position`: where in a text field (a query) the problem is, 1-based in characters, for a tool to point at.
  const errors = problems.map(({ path, message, position }) => ({ path, message: `${fieldName(path)} ${message}`, ...(position ? { position } : {}) }));
  return validationError(`${subject} is not valid: ${errors.map((e) => e.message).join('; ')}.`, errors, code);
}

type Problem = { path: string; message: string; position?: number };

/**
 * The code of a 422 about a rule of what to match (monitors, scrapes). A query the grammar refuses,
 * and nothing else wrong, is `query.invalid`: no JSON Schema can state the grammar, so a client that
 * checks its bodies against the API document still meets it (docs/api/queries.md). Neither keywords
 * nor a query is `query.missing` (NOTHING_TO_MATCH), a rule between two fields. Anything else is the
 * schema's own `request.invalid`.
 */
export function matchingRuleCode(problems: Problem[]): string {
  if (problems.every((p) => p.path === '/query')) return 'query.invalid';
  return problems.every((p) => p.message === NOTHING_TO_MATCH) ? 'query.missing' : 'request.invalid';
}

/** A query field's problem (monitors, scrapes): where the grammar refused it and why; null when it parses. */
export function queryProblem(query: string): Problem | null {
  try {
    parseQuery(query);
    return null;
  } catch (error) {
    if (!(error instanceof QuerySyntaxError)) throw error;
    return { path: '/query', message: `is not a valid query: ${error.message}`, position: error.position };
  }
}

/** Monitors and scrapes: at least one keyword, or a query. */
export const NOTHING_TO_MATCH = 'must name at least one keyword, unless a query is given';

/** The two refusals of a rule of what to match, as a route's documented errors show them. */
export const matchingRuleErrors = (subject: string) => [
  invalidFields(subject, [{ path: '/query', message: 'is not a valid query: at character 11: expected a word, a phrase or "(" after OR', position: 11 }], 'query.invalid'),
  invalidFields(subject, [{ path: '/keywords', message: NOTHING_TO_MATCH }], 'query.missing'),
];
