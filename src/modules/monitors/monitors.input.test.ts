import { describe, expect, it } from 'vitest';
import { checkSettings, newMonitorSettings } from './monitors.input.ts';

describe('a monitor’s settings as the usecases check them', () => {
  it('a new monitor gets the defaults, trimmed keywords and folded duplicates, in the first spelling given', () => {
    const subreddits = ['r/Node', 'node', 'https://old.reddit.com/r/NODE/', 'R/typescript'];
    expect(newMonitorSettings({ name: ' Watch ', subreddits, keywords: [' API ', 'api', 'ü'] })).toEqual({
      name: 'Watch',
      subreddits: ['r/Node', 'r/typescript'],
      exclude_subreddits: [],
      keywords: ['API', 'ü'],
      exclude_keywords: [],
      match: 'word',
      sources: ['posts'],
      include_nsfw: false,
      webhook_url: null,
      max_matches_per_day: null,
      query: null,
      intent: null,
      min_relevance: 60,
      draft_replies: false,
      draft_instructions: null,
    });
  });

  it('what a form could send that a schema would refuse is a 422 naming every bad field', () => {
    const refused = (() => {
      try {
        checkSettings({ subreddits: ['r/no-de'], keywords: 'api', sources: ['posts', 'posts'], include_nsfw: 'yes', max_matches_per_day: 1.5 });
      } catch (error) {
        return error as { status: number; extra: { errors: { path: string }[] } };
      }
    })();
    expect(refused?.status).toBe(422);
    expect(refused?.extra.errors.map((e) => e.path)).toEqual(['/subreddits/0', '/keywords', '/sources', '/include_nsfw', '/max_matches_per_day']);
  });

  it('an edit checks only the fields it gives', () => {
    expect(checkSettings({ exclude_keywords: [' hiring '], webhook_url: null })).toEqual({ exclude_keywords: ['hiring'], webhook_url: null });
  });

  it('all of Reddit, in any form, is r/all and must be alone; excludes go through the same rule', () => {
    for (const form of ['all', 'r/all', 'R/ALL', '/r/all', 'https://www.reddit.com/r/all/']) {
      expect(checkSettings({ subreddits: [form] }).subreddits).toEqual(['r/all']);
    }
    expect(checkSettings({ exclude_subreddits: ['gaming', 'r/Gaming', 'https://old.reddit.com/r/funny'] }).exclude_subreddits).toEqual(['r/gaming', 'r/funny']);
    const mixed = (() => {
      try {
        checkSettings({ subreddits: ['r/node', 'all'] });
      } catch (error) {
        return error as { extra: { errors: { path: string; message: string }[] } };
      }
    })();
    expect(mixed?.extra.errors).toEqual([{ path: '/subreddits', message: expect.stringContaining('must then be the only subreddit') }]);
    expect(() => checkSettings({ exclude_subreddits: ['all'] })).toThrow();
  });
});
