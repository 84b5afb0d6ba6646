import { describe, expect, it } from 'vitest';
import type { MonitorHealth } from '../../monitors/monitors.usecases.ts';
import { age, healthSummary } from './monitor-health.ts';

const NOW = '2026-11-25T12:00:00.000Z';
const sub = (subreddit: string, over: Partial<MonitorHealth['subreddits'][number]> = {}): MonitorHealth['subreddits'][number] => ({
  subreddit,
  state: 'ok',
  stale: false,
  last_read_at: '2026-11-25T11:59:20.000Z',
  last_error: null,
  ...over,
});
/** The health with what the summary does not read filled in. */
const words = (health: Pick<MonitorHealth, 'subreddits' | 'gaps'> & Partial<MonitorHealth>) =>
  healthSummary({ status: 'ok', reddit: { state: 'ok', since: null }, judge: null, stream: null, destinations: [], read_by_stream: [], ...health }, NOW).value.replace(/<[^>]+>/g, '');

describe('a monitor’s health in a few words', () => {
  it('says how long ago in seconds, minutes, hours or days, never less than 0 s', () => {
    expect(age('2026-11-25T11:59:20.000Z', NOW)).toBe('40 s');
    expect(age('2026-11-25T11:55:00.000Z', NOW)).toBe('5 min');
    expect(age('2026-11-25T09:00:00.000Z', NOW)).toBe('3 h');
    expect(age('2026-11-22T12:00:00.000Z', NOW)).toBe('3 d');
    expect(age('2026-11-25T12:00:05.000Z', NOW)).toBe('0 s');
  });

  it('counts unavailable subreddits past two rather than naming them', () => {
    const health = { subreddits: [sub('r/a', { state: 'private' }), sub('r/b', { state: 'banned' }), sub('r/c', { state: 'not_found' }), sub('r/d')], gaps: [] };
    expect(words(health)).toBe('3 subreddits unavailable · 1 of 4 read 40 s ago');
    expect(words({ ...health, subreddits: health.subreddits.slice(2) })).toBe('r/c not found · 1 of 2 read 40 s ago');
  });

  it('says a monitor whose subreddits were never read is not read yet', () => {
    expect(words({ subreddits: [sub('r/a', { last_read_at: null })], gaps: [] })).toBe('not read yet');
  });

  it('an error older than the last good reading is over and not mentioned', () => {
    const recovered = sub('r/a', { last_error: { code: 'rate_limited', at: '2026-11-25T11:00:00.000Z' } });
    expect(words({ subreddits: [recovered], gaps: [] })).toBe('read 40 s ago');
  });

  it('puts "stale" first when the health says so', () => {
    const health = { subreddits: [sub('r/a')], gaps: [] };
    expect(words({ ...health, status: 'stale' })).toBe('stale · read 40 s ago');
    expect(words({ ...health, status: 'ok' })).toBe('read 40 s ago');
  });

  it('says the relevance judge is failing while it fails, and nothing of it while it answers or judges nothing', () => {
    const health = { subreddits: [sub('r/a')], gaps: [] };
    expect(words({ ...health, judge: { state: 'failing', since: NOW, error: 'the language model answered HTTP 503' } })).toBe('relevance judge failing · read 40 s ago');
    expect(words({ ...health, judge: { state: 'ok', since: NOW, error: null } })).toBe('read 40 s ago');
    expect(words({ ...health, judge: null })).toBe('read 40 s ago');
  });
});
