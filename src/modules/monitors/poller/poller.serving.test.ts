import { describe, expect, it } from 'vitest';
import type { MonitorRow } from '../monitors.tables.ts';
import { asStreamReads, streamSources, type StreamCovers } from '../monitors.stream-serving.ts';
import type { LastReads } from './poller.schedule.ts';
import { splitByStream } from './poller.serving.ts';

let next = 0;
const monitor = (names: string[], rule: { keywords?: string[]; query?: string | null; sources?: string[]; watchFrom?: string } = {}) =>
  ({
    id: `mon_${next++}`,
    account_id: 'acc',
    subreddits: JSON.stringify(names.map((n) => `r/${n}`)),
    sources: JSON.stringify(rule.sources ?? ['posts', 'comments']),
    keywords: JSON.stringify(rule.keywords ?? ['kysely']),
    exclude_keywords: '[]',
    query: rule.query ?? null,
    watch_from: rule.watchFrom ?? '2026-11-23T12:00:00.000Z',
  }) as MonitorRow;
const cover = { to: '2026-11-23T12:04:00.000Z', since: '2026-11-23T11:00:00.000Z' };
const both: StreamCovers = { posts: cover, comments: { ...cover, to: '2026-11-23T12:04:30.000Z' } };
const never: LastReads = { posts: new Map(), comments: new Map() };
const readAt = (iso: string, names: string[]): LastReads => ({ posts: new Map(names.map((n) => [n, iso])), comments: new Map(names.map((n) => [n, iso])) });

describe('which sources of a monitor the stream serves', () => {
  it('every source it covers, except comments for a rule that reads a title (a comment read by id has none)', () => {
    expect(streamSources(monitor(['a']), both)).toEqual(['posts', 'comments']);
    expect(streamSources(monitor(['a'], { query: 'title:kysely' }), both)).toEqual(['posts']);
    expect(streamSources(monitor(['a'], { query: 'kysely -title:spam' }), both)).toEqual(['posts']);
    expect(streamSources(monitor(['a'], { query: 'body:kysely' }), both)).toEqual(['posts', 'comments']);
    expect(streamSources(monitor(['a'], { query: 'title:kysely', sources: ['posts'] }), both)).toEqual(['posts']);
    expect(streamSources(monitor(['a']), { comments: cover })).toEqual(['comments']);
    expect(streamSources(monitor(['a']), {})).toEqual([]);
  });

  it('the stream matches a title rule\'s comments only with their post\'s title, and only over all of Reddit (the poller reads the others\')', () => {
    const named = monitor(['a'], { query: 'kysely -title:spam' });
    expect(asStreamReads(named, 'titled').sources).toBe('["posts"]');
    expect(asStreamReads(named, 'untitled').sources).toBe('["posts"]');
    const everywhere = monitor(['all'], { query: 'kysely -title:spam' });
    expect(asStreamReads(everywhere, 'titled')).toBe(everywhere);
    // Without the title a `-title:x` would hold for every comment.
    expect(asStreamReads(everywhere, 'untitled').sources).toBe('["posts"]');
    const plain = monitor(['a']);
    expect(asStreamReads(plain, 'untitled')).toBe(plain);
  });
});

describe('what the poller leaves to the stream', () => {
  it('polls nothing of a monitor the stream serves in full; its subreddits\' marks move to what the stream covers', () => {
    const split = splitByStream([monitor(['node', 'deno'])], both, never);
    expect(split.polled).toEqual([]);
    expect(split.served).toEqual([
      { source: 'posts', names: ['deno', 'node'], to: cover.to },
      { source: 'comments', names: ['deno', 'node'], to: '2026-11-23T12:04:30.000Z' },
    ]);
  });

  it('keeps polling the comments of a title rule, and a subreddit another monitor still needs polled', () => {
    const titled = monitor(['node'], { query: 'title:kysely' });
    const split = splitByStream([monitor(['node', 'deno']), titled], both, never);
    expect(split.polled).toEqual([{ ...titled, sources: '["comments"]' }]);
    expect(split.served).toEqual([
      { source: 'posts', names: ['deno', 'node'], to: cover.to },
      { source: 'comments', names: ['deno'], to: '2026-11-23T12:04:30.000Z' },
    ]);
  });

  it('polls everything while the stream serves nothing', () => {
    const monitors = [monitor(['node'])];
    expect(splitByStream(monitors, {}, never)).toEqual({ polled: monitors, served: [] });
  });

  it('polls a subreddit last read before the stream walked without a skip (its start, or its last jump), until one read after it', () => {
    const old = monitor(['node'], { watchFrom: '2026-11-23T10:00:00.000Z' });
    expect(splitByStream([old], both, never).polled).toEqual([old]);
    expect(splitByStream([old], both, readAt('2026-11-23T11:00:10.000Z', ['node'])).polled).toEqual([old]); // less the 30-s overlap
    expect(splitByStream([old], both, readAt('2026-11-23T11:00:30.000Z', ['node'])).polled).toEqual([]);
    // A monitor that started watching after the stream's start needs no read at all.
    expect(splitByStream([monitor(['node'], { watchFrom: '2026-11-23T11:00:00.000Z' })], both, never).polled).toEqual([]);
  });
});
