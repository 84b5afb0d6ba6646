import { describe, expect, it } from 'vitest';
import { RETRY_DELAY_MS } from './stream.cycle.ts';
import { coversOf, stateOf, type ServingRow } from './stream.serving.ts';

const now = new Date('2026-11-23T12:10:00.000Z');
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000).toISOString();
const row = (kind: 't3' | 't1', lag: number, committed = 5, since: string | null = ago(3600)): ServingRow => ({
  kind,
  read_to_at: ago(lag),
  updated_at: ago(committed),
  walked_since: since,
});

describe('whether the stream serves subreddit monitors', () => {
  it('serves each source whose position was committed lately and is near the head; a poller taking over reads back past what may still be unread', () => {
    const covers = coversOf([row('t3', 20), row('t1', 15)], now, 600);
    // The position's time, less a minute for ids waiting for their second asking, less the lag they were asked at.
    expect(covers.posts).toEqual({ to: new Date(Date.parse(ago(20)) - RETRY_DELAY_MS - 20_000).toISOString(), since: ago(3600) });
    expect(covers.comments?.to).toBe(ago(15 + 60 + 15));
  });

  it('stops serving a source whose reader stopped committing (stopped, lease lost, crashed)', () => {
    expect(coversOf([row('t3', 20, 29), row('t1', 20, 31)], now, 600)).toEqual({ posts: expect.anything() });
  });

  it('stops serving a source behind by half the lag bound or more, well before the stream would skip ids', () => {
    const covers = coversOf([row('t3', 299), row('t1', 300)], now, 600);
    expect(Object.keys(covers)).toEqual(['posts']);
  });

  it('serves nothing while it never ran, or before a new position is committed with the time it walks from', () => {
    expect(coversOf([], now, 600)).toEqual({});
    expect(coversOf([row('t3', 5, 5, null)], now, 600)).toEqual({});
  });

  it('says how late it is where it does not serve, for the health of monitors over all of Reddit', () => {
    expect(stateOf([row('t3', 20), row('t1', 20)], now, 600).lags).toEqual({});
    expect(stateOf([row('t3', 301), row('t1', 20, 40)], now, 600).lags).toEqual({
      posts: { behindSeconds: 301, stopped: false, lastReadAt: ago(5) },
      comments: { behindSeconds: 20, stopped: true, lastReadAt: ago(40) },
    });
    expect(stateOf([], now, 600)).toEqual({ covers: {}, lags: {} });
  });
});
