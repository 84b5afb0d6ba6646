/** The listings the fake Reddit answers with, in Reddit's wire format (kept apart to keep the server short). */
import type { FakePost } from './fake-reddit.ts';

type Json = Record<string, unknown>;

/** A search listing page of `posts`, as Reddit answers `/r/{names}/search` (see fake-reddit.ts). */
export function searchListing(posts: FakePost[], extraChildren: unknown[], names: string[], params: URLSearchParams): Json {
  const wanted = new Set(names.map((n) => n.toLowerCase()));
  const restrict = params.get('restrict_sr') === '1' || params.get('restrict_sr') === 'on' || params.get('restrict_sr') === 'true';
  const nsfw = params.get('include_over_18') === 'on' || params.get('include_over_18') === '1';
  const terms = parseQuery(params.get('q') ?? '');
  const sort = params.get('sort') ?? 'relevance';
  const matches = posts
    .filter((p) => !restrict || wanted.has(p.subreddit.toLowerCase()))
    .filter((p) => nsfw || !p.over_18)
    .filter((p) => terms.some((term) => term(`${p.title}\n${p.selftext ?? ''}`.toLowerCase())))
    .sort((a, b) =>
      sort === 'new'
        ? b.created_utc - a.created_utc
        : (b.score ?? 0) - (a.score ?? 0) || b.created_utc - a.created_utc,
    );
  const limit = Math.min(100, Math.max(1, Number(params.get('limit')) || 25));
  const after = params.get('after');
  const start = after ? matches.findIndex((p) => `t3_${p.id}` === after) + 1 : 0;
  const page = start === 0 && after ? [] : matches.slice(start, start + limit);
  const more = start + page.length < matches.length && page.length > 0;
  return {
    kind: 'Listing',
    data: {
      after: more ? `t3_${page[page.length - 1]!.id}` : null,
      dist: page.length,
      modhash: '',
      geo_filter: '',
      children: [...page.map((p) => ({ kind: 't3', data: postThing(p) })), ...extraChildren],
      before: null,
    },
  };
}

/** A post as Reddit's listing `data` (t3). */
export function postThing(p: FakePost): Json {
  const permalink = `/r/${p.subreddit}/comments/${p.id}/${slug(p.title)}/`;
  return {
    name: `t3_${p.id}`,
    id: p.id,
    subreddit: p.subreddit,
    subreddit_name_prefixed: `r/${p.subreddit}`,
    title: p.title,
    selftext: p.selftext ?? '',
    author: p.author ?? 'fake_user',
    url: p.url ?? `https://www.reddit.com${permalink}`,
    is_self: p.url === undefined,
    permalink,
    created_utc: p.created_utc,
    score: p.score ?? 1,
    num_comments: p.num_comments ?? 0,
    over_18: p.over_18 ?? false,
    link_flair_text: p.flair ?? null,
    ...p.raw,
  };
}

/** " OR "-separated terms → predicates on lower-cased text. */
function parseQuery(q: string): ((text: string) => boolean)[] {
  return q
    .split(/\s+OR\s+/)
    .map((term) => term.trim())
    .filter(Boolean)
    .map((term) => {
      const phrase = /^"(.*)"$/.exec(term);
      if (phrase) {
        const needle = phrase[1]!.toLowerCase();
        return (text: string) => needle.length > 0 && text.includes(needle);
      }
      const words = term.toLowerCase().split(/\s+/);
      return (text: string) => words.every((word) => text.includes(word));
    });
}

/**
 * The title part of a permalink, as Reddit shortens it: letters and digits of any script are kept as
 * they are, not percent-encoded (with raw_json=1 a permalink arrives as `/r/de/comments/abc/über_straße/`;
 * RedditKit.rb #29 quotes one Reddit sent as `/r/RenameMe/comments/1gxyac/이것은_웹_페이지입니다`).
 */
export function slug(title: string): string {
  const kept = title.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '_').replace(/^_+|_+$/g, '');
  return [...kept].slice(0, 50).join('') || 'post';
}
