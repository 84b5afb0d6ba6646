import { describe, expect, it } from 'vitest';
import type { ReadGroup } from './poller.cycle.ts';
import { catchUpGaps, catchUpGroups, fellShort, isCaughtUp } from './resume.ts';
import type { MonitorRow } from '../monitors.tables.ts';

const at = (second: number) => new Date(Date.UTC(2026, 10, 23, 0, 0, second)).toISOString();

function monitorOf(fields: Partial<MonitorRow> = {}): MonitorRow {
  return {
    id: 'mon_1',
    account_id: 'acc_1',
    name: 'watch',
    status: 'active',
    paused_reason: null,
    paused_until: null,
    subreddits: JSON.stringify(['r/Alpha', 'r/beta']),
    keywords: '["otter"]',
    exclude_keywords: '[]',
    exclude_subreddits: '[]',
    match_mode: 'phrase',
    sources: '["posts","comments"]',
    include_nsfw: 0,
    webhook_url: null,
    max_matches_per_day: null,
    query: null,
    intent: null,
    min_relevance: 60,
    draft_replies: 0,
    draft_instructions: null,
    watch_from: at(0),
    resume_from: at(10),
    via: 'api',
    created_at: at(0),
    updated_at: at(0),
    ...fields,
  };
}

/** A read back to `since` of `count` items, the oldest created at `oldest` (null: nothing listed). */
function readOf(count: number, oldest: number | null, complete: boolean, names = ['alpha', 'beta']): ReadGroup {
  const items = Array.from({ length: count }, () => ({}) as ReadGroup['items'][number]);
  const time = oldest === null ? null : at(oldest);
  const ignored = { foreign: 0, implausible: 0 };
  return { items, read: new Map(), top: time, oldest: time, complete, requests: 1, ignored, names, source: 'posts', marks: new Map(), since: at(10) };
}

describe('catching up a monitor that paused for credits', () => {
  it('only a monitor that owes nothing gets its matches from the regular read', () => {
    expect(isCaughtUp(monitorOf({ resume_from: null }))).toBe(true);
    expect(isCaughtUp(monitorOf())).toBe(false);
  });

  it('the catch-up reads the monitor’s own subreddits per source it wants, leaving out those known to be unavailable', () => {
    const states = new Map([['beta', 'private' as const]]);
    expect(catchUpGroups(monitorOf({ subreddits: '["r/Alpha","r/beta","r/Gamma"]' }), states)).toEqual([
      { names: ['alpha', 'gamma'], source: 'posts' },
      { names: ['alpha', 'gamma'], source: 'comments' },
    ]);
  });

  it('a monitor of 150 subreddits is read in groups of at most 100', () => {
    const names = Array.from({ length: 150 }, (_, i) => `r/s${String(i).padStart(3, '0')}`);
    const groups = catchUpGroups(monitorOf({ subreddits: JSON.stringify(names), sources: '["posts"]' }), new Map());
    expect(groups.map((group) => group.names.length)).toEqual([100, 50]);
  });

  it('a read that got past where the monitor stopped, or found nothing at all, fell short of nothing', () => {
    expect(fellShort(readOf(30, 9, true), at(10))).toBe(false);
    expect(fellShort(readOf(0, null, true), at(10))).toBe(false);
  });

  it('a listing that ended early without reaching that point had nothing older: no gap', () => {
    expect(fellShort(readOf(40, 12, true), at(10))).toBe(false);
  });

  it('a read stopped by the page cap, or by the end of a listing as deep as Reddit lists, fell short', () => {
    expect(fellShort(readOf(200, 12, false), at(10))).toBe(true);
    expect(fellShort(readOf(1000, 12, true), at(10))).toBe(true);
  });

  it('each read that fell short leaves a gap from where the monitor stopped to the oldest thing read, naming the subreddits as the monitor spells them', () => {
    const reads = [readOf(1000, 50, true), { ...readOf(20, 5, true), source: 'comments' as const }];
    expect(catchUpGaps(reads, monitorOf(), at(10))).toEqual([
      { monitorId: 'mon_1', source: 'posts', subreddits: ['r/Alpha', 'r/beta'], from: at(10), to: at(50) },
    ]);
  });
});
