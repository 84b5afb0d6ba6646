/**
 * What of a Reddit post is kept, and in which form. Reddit's JSON is outside input: a field can be any
 * length, any type and any text, and it ends up stored, in API answers, in webhooks and in the dashboard.
 * Pure functions, no I/O.
 */

export const REDDIT_ORIGIN = 'https://www.reddit.com';

/**
 * Reddit's own limits (title 300, self text 40,000, username 20, subreddit name 21, or 22 for a `u_`
 * profile), in characters (code points). Text over its limit is cut (the post is marked `truncated`);
 * a name over its limit is not a Reddit name at all. A link longer than `url` is refused, not cut.
 */
export const LIMITS = { title: 300, body: 40_000, author: 20, subreddit: 21, url: 2_048 } as const;

// C0 controls except tab, line feed and carriage return; DEL; C1 controls. Bidirectional marks are not here:
// they are legitimate in Arabic or Hebrew text, so they stay and the dashboard isolates them when rendering.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const USERNAME = new RegExp(`^[A-Za-z0-9_-]{1,${LIMITS.author}}$`);

/** Drops control characters that are not whitespace; a lone surrogate (not valid UTF-8) becomes U+FFFD. */
export const cleanText = (value: string): string => value.replace(CONTROL, '').replace(LONE_SURROGATE, '\uFFFD');

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i;

/**
 * Non-ASCII characters a link keeps as Reddit sent them: letters, marks, digits, punctuation and symbols
 * (a slug such as `über_straße`). Spaces, controls and invisible format characters (a bidirectional
 * override, say) are left percent-encoded, so they can never hide inside a link someone copies.
 */
const VISIBLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

/**
 * `text` (absolute) as it was sent, when the only change the URL parser made to it is percent-encoding
 * visible non-ASCII characters; otherwise the parser's form (`href`). Reddit sends Unicode slugs as they
 * are (with raw_json=1), and a caller comparing or showing our permalink should get Reddit's; anything
 * the parser normalised in another way (a space, a backslash, an upper-case scheme, a Unicode host) is
 * not what a browser would send either, so the parser's form is the safer one there.
 */
function asSent(text: string, href: string): string {
  let encoded = '';
  for (const ch of text) {
    if (ch.codePointAt(0)! < 0x80) encoded += ch;
    else if (VISIBLE.test(ch)) encoded += encodeURIComponent(ch);
    else return href;
  }
  return encoded === href ? text : href;
}

/**
 * `value` resolved against www.reddit.com when it is a path ("/…", not "//…"), else parsed as it is;
 * `text` is the link to hand on (see asSent).
 */
function parseUrl(value: unknown): { url: URL; text: string } | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  if (!trimmed || trimmed.length > LIMITS.url) return null;
  const relative = trimmed.startsWith('/') && !/^\/[/\\]/.test(trimmed);
  if (!relative && !ABSOLUTE.test(trimmed)) return null;
  try {
    const url = new URL(trimmed, REDDIT_ORIGIN);
    // A path must stay on Reddit (the URL parser reads some backslash forms as another host).
    if (relative && url.origin !== REDDIT_ORIGIN) return null;
    if (url.href.length > LIMITS.url) return null;
    return { url, text: asSent(relative ? REDDIT_ORIGIN + trimmed : trimmed, url.href) };
  } catch {
    return null;
  }
}

/** A post's link as an absolute http(s) URL (a crosspost's relative one resolved on Reddit), or null. */
export function linkUrl(value: unknown): string | null {
  const parsed = parseUrl(value);
  return parsed && (parsed.url.protocol === 'https:' || parsed.url.protocol === 'http:') ? parsed.text : null;
}

/** A page on https://www.reddit.com: `value` when it is a path or such a URL, else null. */
export function redditPage(value: unknown): string | null {
  const parsed = parseUrl(value);
  return parsed && parsed.url.origin === REDDIT_ORIGIN ? parsed.text : null;
}

/**
 * The post's page on https://www.reddit.com: the given permalink when it is a path or such a URL,
 * otherwise rebuilt from the subreddit and the id (Reddit redirects that short form to the full one).
 */
export const permalinkOf = (value: unknown, subreddit: string, id36: string): string =>
  redditPage(value) ?? `${REDDIT_ORIGIN}/r/${subreddit}/comments/${id36}/`;

const ID36 = /^[a-z0-9]{1,13}$/;

/** The base-36 id (without "t3_") from `name`, else `id`; null when neither is one. */
export const postId = (data: { name?: unknown; id?: unknown }): string | null => thingId(data, 't3_');

/** The base-36 id without its kind (`prefix`, "t1_" for a comment) from `name`, else `id`; null when neither is one. */
export function thingId(data: { name?: unknown; id?: unknown }, prefix: 't1_' | 't3_'): string | null {
  if (typeof data.name === 'string' && data.name.startsWith(prefix) && ID36.test(data.name.slice(3))) return data.name.slice(3);
  return typeof data.id === 'string' && ID36.test(data.id) ? data.id : null;
}

/** A subreddit name by Reddit's rules, or a user profile's (`u_` + a username of up to 20), or null. */
export function subredditName(value: unknown): string | null {
  if (typeof value !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9_]*$/.test(value)) return null;
  return value.length <= (value.startsWith('u_') ? LIMITS.subreddit + 1 : LIMITS.subreddit) ? value : null;
}

/** A username by Reddit's rules, or `[deleted]`; anything else is not an author and becomes ''. */
export const authorName = (value: unknown): string =>
  typeof value === 'string' && (value === '[deleted]' || USERNAME.test(value)) ? value : '';

/** Seconds since 1970 up to year 9999 as ISO 8601, or null (1e20 is no time a Date can hold). */
export function createdAt(value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value >= 253_402_300_800) return null;
  return new Date(value * 1000).toISOString();
}

/** A count as a safe whole number; anything that is not a finite number is 0. */
export function wholeNumber(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 0;
  return Math.max(-Number.MAX_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, Math.trunc(value)));
}
