/**
 * The one rule for a subreddit given by a person or a program, wherever it comes in (the API's
 * schemas, the MCP tools, the dashboard's forms, the operator CLI): `r/name`, `name`, `/r/name`,
 * `R/name` and a Reddit link (`https://www.reddit.com/r/name/…`, `old.reddit.com`, `reddit.com/r/name`)
 * all mean `r/name`, which is what is stored and answered. The name keeps its spelling (Reddit's names
 * are case-insensitive, and monitors and scrapes already fold duplicates without case), so what was
 * stored before this rule reads the same. Free of typebox: the monitors' own checks, which the
 * operator CLI loads, use it too.
 */

import { received } from './validation-messages.ts';

/** Reddit's rule for a name: 2–21 of A–Z a–z 0–9 _, not starting with _. */
const NAME = '[A-Za-z0-9][A-Za-z0-9_]{1,20}';

/** A literal in either case, for a pattern that JSON Schema checks without an `i` flag. */
const caseless = (text: string) => [...text].map((c) => (/[a-z]/.test(c) ? `[${c}${c.toUpperCase()}]` : c.replace('.', '\\.'))).join('');

/** `r/name` or `/r/name`, with what a link's path may carry after it (`/`, `/comments/…`, `?sort=new`). */
const PATH = `/?${caseless('r')}/${NAME}(?:[/?#][^\\s]*)?`;
/** A link: an optional http(s) scheme, reddit.com or one of its subdomains (www, old, new, np, m …), then the path. */
const LINK = `(?:${caseless('http')}[Ss]?://)?(?:[A-Za-z]{1,10}\\.)?${caseless('reddit.com')}/${caseless('r')}/${NAME}(?:[/?#][^\\s]*)?`;

/** Every form accepted, as one JSON Schema `pattern` (spaces around it are allowed: it is trimmed). */
export const SUBREDDIT_PATTERN = `^\\s*(?:${NAME}|${PATH}|${LINK})\\s*$`;

/** The longest text taken for one subreddit: room for a link to a post with its title in the path. */
export const SUBREDDIT_MAX_LENGTH = 500;

/** The forms in words, as it completes "<field> …" (the schemas' `x-rule`, and every other entry point's message). */
export const SUBREDDIT_RULE =
  'must be a subreddit: r/name, name, /r/name or a link such as https://www.reddit.com/r/name, ' +
  'its name 2–21 letters, digits or _, not starting with _';

/** What each form looks like, for the API document and the tools' descriptions. */
export const SUBREDDIT_EXAMPLES = ['r/typescript', 'typescript', '/r/typescript', 'https://www.reddit.com/r/typescript/'];

const ACCEPTED = new RegExp(SUBREDDIT_PATTERN);
/** The name after `r/` (a link's or a path's), or the whole text when it is a bare name. */
const NAME_IN = new RegExp(`(?:^|/)[Rr]/(${NAME})(?:[/?#]|$)|^(${NAME})$`);

/**
 * All of Reddit: `all`, `r/all`, `/r/all` or a reddit.com/r/all link, in any case, is this one name.
 * Reddit's own r/all is every public subreddit, and that is what a monitor given it watches (served by
 * the site-wide stream, never by reading the listing /r/all/new).
 */
export const ALL_OF_REDDIT = 'r/all';

/** `r/name` for any accepted form of a subreddit (`r/all` for every form of all of Reddit); null when the text is none of them. */
export function subredditName(text: string): string | null {
  if (text.length > SUBREDDIT_MAX_LENGTH || !ACCEPTED.test(text)) return null;
  const found = NAME_IN.exec(text.trim());
  const name = found?.[1] ?? found?.[2];
  if (name === undefined) return null;
  return name.toLowerCase() === 'all' ? ALL_OF_REDDIT : `r/${name}`;
}

/** Whether a stored `r/name` (or any accepted form) means all of Reddit. */
export const isAllOfReddit = (text: string) => subredditName(text) === ALL_OF_REDDIT;

/** What all of Reddit may not be mixed with, in words (the monitors' checks). */
export const ALL_ALONE_RULE =
  'means all of Reddit when it is "all" (or r/all, or a reddit.com/r/all link), which must then be the only subreddit: ' +
  'give either ["all"] with exclude_subreddits for what to leave out, or the subreddits by name';

/** The refusal of one subreddit, worded for people: the rule and what was received. */
export const subredditProblem = (value: unknown) => `${SUBREDDIT_RULE}${received(value)}`;

/** `r/name` for a subreddit a schema has already accepted (the API's, a tool's): one it did not is a bug. */
export function checkedSubreddit(text: string): string {
  const name = subredditName(text);
  if (name === null) throw new TypeError('a subreddit reached the usecases without passing its schema');
  return name;
}
