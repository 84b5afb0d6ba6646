import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('the publishing rails configuration', () => {
  it('defaults to 1 publication per subreddit per 10 minutes, 5 an hour, and no same text within 24 hours', () => {
    expect(loadConfig({}).rails).toEqual({ paceSubredditMinutes: 10, pacePerSubreddit: 1, pacePerHour: 5, duplicateHours: 24, repliesPerThread: 1 });
  });

  it('takes 0 (a rail turned off) and other whole numbers', () => {
    const env = { PUBLISH_PACE_SUBREDDIT_MINUTES: '30', PUBLISH_PACE_PER_SUBREDDIT: '0', PUBLISH_PACE_PER_HOUR: '12', PUBLISH_DUPLICATE_HOURS: '0', PUBLISH_REPLIES_PER_THREAD: '0' };
    expect(loadConfig(env).rails).toEqual({ paceSubredditMinutes: 30, pacePerSubreddit: 0, pacePerHour: 12, duplicateHours: 0, repliesPerThread: 0 });
  });

  it.each([
    ['PUBLISH_PACE_PER_HOUR', 'five'],
    ['PUBLISH_PACE_PER_SUBREDDIT', '-1'],
    ['PUBLISH_PACE_SUBREDDIT_MINUTES', '1441'],
    ['PUBLISH_DUPLICATE_HOURS', '1.5'],
    ['PUBLISH_REPLIES_PER_THREAD', '1001'],
  ])('a bad %s (%s) stops the start with a ConfigError naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});
