/**
 * What each named subreddit is (available, private, banned, quarantined, missing, refused): one
 * `/api/info?sr_name=` request per 100 names, then the about page of each name that answer cannot
 * settle. Each answer is handed on as soon as it is read, and the work can be bounded, so a caller
 * with thousands of names makes progress in pieces instead of starting over after a failure.
 */
import { RedditUnavailableError } from './reddit.errors.ts';
import type { RedditHttp } from './reddit.http.ts';
import { parseSubredditInfos, reasonFromAbout, type SubredditInfo } from './reddit.mapping.ts';
import { MAX_NAMES_PER_INFO, aboutPath, chunk, subredditInfoPath } from './reddit.query.ts';
import { isRetryableStatus } from './reddit.ratelimit.ts';
import type { DescribeOptions, SubredditDescription } from './reddit.types.ts';

type State = SubredditDescription['state'];

/**
 * `/api/info` leaves out names that do not exist, and (as recorded answers show) banned ones; it
 * answers some refused subreddits with a bare record, no counts (Pyprohly/reddit-api-doc-notes,
 * docs/api-reference/subreddit.rst, says so of banned ones too). Neither tells banned from missing or
 * refused: the about page does. A state recorded from an earlier about page still stands while
 * `/api/info` answers the same way, so a name is asked about once, not at every refresh.
 */
const STANDS: Record<'omitted' | 'bare', readonly State[]> = {
  omitted: ['banned', 'not_found'],
  bare: ['banned', 'forbidden', 'gated'],
};

const describe = (name: string, info: SubredditInfo | undefined, state: State): SubredditDescription => ({
  name,
  displayName: info?.displayName ?? name,
  state,
  nsfw: info?.nsfw ?? false,
});

export async function describeSubreddits(http: RedditHttp, names: string[], options: DescribeOptions = {}): Promise<SubredditDescription[]> {
  let left = options.maxRequests ?? Number.POSITIVE_INFINITY;
  const described: SubredditDescription[] = [];
  const settle = async (batch: SubredditDescription[]) => {
    if (batch.length === 0) return;
    described.push(...batch);
    await options.onDescribed?.(batch);
  };

  for (const batch of chunk(names, MAX_NAMES_PER_INFO)) {
    if (left < 1) break;
    left--;
    const response = await http.get(subredditInfoPath(batch));
    if (response.status !== 200) {
      throw new RedditUnavailableError(`Reddit answered a subreddit look-up with HTTP ${response.status}`, undefined, response.status);
    }
    const infos = parseSubredditInfos(response.body);
    const settled: SubredditDescription[] = [];
    const unsettled: string[] = [];
    for (const name of batch) {
      const info = infos.get(name.toLowerCase());
      const previous = options.previous?.(name);
      if (info && info.reason !== undefined) settled.push(describe(name, info, info.reason ?? 'ok'));
      else if (previous && STANDS[info ? 'bare' : 'omitted'].includes(previous)) settled.push(describe(name, info, previous));
      else unsettled.push(name);
    }
    await settle(settled);

    for (const name of unsettled) {
      if (left < 1) break;
      left--;
      const about = await http.get(aboutPath(name));
      if (isRetryableStatus(about.status)) {
        throw new RedditUnavailableError(`Reddit answered a subreddit's about page with HTTP ${about.status}`, undefined, about.status);
      }
      await settle([describe(name, infos.get(name.toLowerCase()), reasonFromAbout(about.status, about.body) ?? 'ok')]);
    }
  }
  // In the order asked, whichever answer settled each name.
  const order = new Map(names.map((name, i) => [name, i]));
  return described.sort((a, b) => order.get(a.name)! - order.get(b.name)!);
}
