import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { streamPerMinute } from './stream.ts';

describe('the site-wide stream’s configuration', () => {
  it('is off by default, with a lag bound of ten minutes', () => {
    expect(loadConfig({}).stream).toEqual({ share: 0, maxLagSeconds: 600, previewDailyLimit: 2000 });
  });

  it('reads REDDIT_STREAM_SHARE and REDDIT_STREAM_MAX_LAG_SECONDS; the share is the stream’s own calls a minute, rounded down', () => {
    const config = loadConfig({ REDDIT_STREAM_SHARE: '0.7', REDDIT_STREAM_MAX_LAG_SECONDS: '120', REDDIT_REQUESTS_PER_MINUTE: '95' });
    expect(config.stream).toEqual({ share: 0.7, maxLagSeconds: 120, previewDailyLimit: 2000 });
    expect(streamPerMinute(config.stream, config.redditRequestsPerMinute)).toBe(66);
  });

  it.each(['1', '0.95', '-0.1', '70%', 'abc', '0.7.1'])('refuses REDDIT_STREAM_SHARE=%s, naming the variable', (value) => {
    expect(() => loadConfig({ REDDIT_STREAM_SHARE: value })).toThrow(ConfigError);
    expect(() => loadConfig({ REDDIT_STREAM_SHARE: value })).toThrow(/REDDIT_STREAM_SHARE must be a decimal from 0 \(the stream off\) to 0.9/);
  });

  it('reads MONITOR_PREVIEW_DAILY_LIMIT, a whole number of at least 1', () => {
    expect(loadConfig({ MONITOR_PREVIEW_DAILY_LIMIT: '500' }).stream.previewDailyLimit).toBe(500);
    expect(() => loadConfig({ MONITOR_PREVIEW_DAILY_LIMIT: '0' })).toThrow(/MONITOR_PREVIEW_DAILY_LIMIT must be a whole number from 1/);
    expect(() => loadConfig({ MONITOR_PREVIEW_DAILY_LIMIT: 'lots' })).toThrow(ConfigError);
  });

  it('refuses a lag bound under 30 s', () => {
    expect(() => loadConfig({ REDDIT_STREAM_MAX_LAG_SECONDS: '10' })).toThrow(/REDDIT_STREAM_MAX_LAG_SECONDS must be a whole number from 30/);
  });
});
