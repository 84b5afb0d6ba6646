/**
 * The fake Reddit's answers about subreddits as such, and about a blocked app.
 *
 * - `GET /api/info?sr_name=a,b,c`: a Listing of t5 things; names that do not exist are left out,
 *   and so are banned ones, as real Reddit's answers show (until 2026-11 this fake answered them
 *   with a bare t5, as Pyprohly/reddit-api-doc-notes' subreddit.rst still says of non-public ones; the
 *   client asks the about page in both cases). Private ones come back with `subreddit_type: "private"`
 *   and null counts; forbidden ones as a t5 "null right through" (name, id and type only); quarantined
 *   ones in full with `quarantine: true` (as PRAW's recorded `test_info_sr_names`, redditwarp's
 *   "potentially inaccessible" subreddits and Infinity's `/api/info` parser describe). `over18` is true
 *   for names in `nsfwSubreddits`.
 * - `refusal(...)`: how a path naming one unavailable subreddit is answered (see fake-reddit.ts).
 * - `blockApp('html')`: every call, the token endpoint included, answers Reddit's 2026 block page (403,
 *   `Server: snooserv`, an HTML body saying "You've been blocked by network security");
 *   `blockApp(401 | 403)`: the token endpoint refuses the app's credentials with that status.
 */
import type { ServerResponse } from 'node:http';
import type { FakeSubredditState } from './fake-reddit.ts';

type Json = Record<string, unknown>;

/** Reddit's 2026 answer to a client it blocks (karanb192/reddit-mcp-buddy PR #60). */
export function sendBlockPage(res: ServerResponse): void {
  res.writeHead(403, { 'content-type': 'text/html; charset=utf-8', server: 'snooserv' });
  res.end(
    '<!doctype html><html><head><title>Blocked</title></head><body><h1>whoa there, pardner!</h1>' +
      "<p>You've been blocked by network security.</p></body></html>",
  );
}

/** The children of an `/api/info?sr_name=` listing; `about` gives a public subreddit's full t5. */
export function subredditInfos(
  requested: string[],
  stateOf: (name: string) => FakeSubredditState | 'missing',
  about: (name: string) => Json,
): Json[] {
  const seen = new Set<string>();
  const children: Json[] = [];
  for (const name of requested) {
    const lower = name.trim().toLowerCase();
    const state = stateOf(lower);
    if (!lower || seen.has(lower) || state === 'missing' || state === 'banned') continue;
    seen.add(lower);
    const full = about(lower).data as Json;
    if (state === 'public' || state === 'quarantined') {
      children.push({ kind: 't5', data: { ...full, quarantine: state === 'quarantined' } });
      continue;
    }
    const type = state === 'private' ? 'private' : 'public';
    const limited = { display_name: full.display_name, name: full.name, id: String(full.name).slice(3), subreddit_type: type };
    children.push({ kind: 't5', data: { ...limited, title: null, subscribers: null, over18: null, public_traffic: null, quarantine: null } });
  }
  return children;
}

/** The error answer (status, body, headers) for a path naming one unavailable subreddit, or null when it is public. */
export function refusal(state: FakeSubredditState | 'missing', name: string, baseUrl: string): [number, unknown, Record<string, string>?] | null {
  if (state === 'missing') return [302, undefined, { location: `${baseUrl}/subreddits/search.json?q=${encodeURIComponent(name)}` }];
  if (state === 'private') return [403, { reason: 'private', message: 'Forbidden', error: 403 }];
  if (state === 'quarantined') {
    // The fields of the 403 recorded in praw-dev/asyncpraw's TestSubredditQuarantine.test_opt_out cassette.
    const message = { quarantine_message: 'Quarantined.', quarantine_message_html: '<div class="md"><p>Quarantined.</p></div>' };
    return [403, { reason: 'quarantined', ...message, message: 'Forbidden', error: 403 }];
  }
  // As Pyprohly/reddit-api-doc-notes records a banned subreddit's about page (docs/api-reference/subreddit.rst).
  if (state === 'banned') return [404, { reason: 'banned', message: 'Not Found', error: 404 }];
  if (state === 'forbidden') return [403, { message: 'Forbidden', error: 403 }];
  // The answer issue 42 records from Reddit for a gated subreddit (behind its content gate); its /api/info
  // record is taken to be the bare one of other refused subreddits, an ASSUMPTION (none is on record).
  if (state === 'gated') return [403, { reason: 'gated', message: 'Forbidden', error: 403 }];
  return null;
}
