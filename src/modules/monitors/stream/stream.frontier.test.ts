import { describe, expect, it } from 'vitest';
import { ESTIMATE_SHARE, estimateOf, frontierAfterHead, frontierAfterWalk, headsDue, HEADS_EVERY_MS, type Frontier } from './stream.frontier.ts';

const at = (s: number) => new Date(Date.UTC(2026, 10, 23, 12, 0, 0) + s * 1000).toISOString();

describe('the frontier between head readings', () => {
  it('knows no rate from one reading, and the rate between the last two from the second', () => {
    const first = frontierAfterHead(undefined, { id: 1000, at: at(0) });
    expect(first).toMatchObject({ id: 1000, rate: null });
    expect(estimateOf(first, new Date(at(30)))).toBe(1000);
    const second = frontierAfterHead(first, { id: 7000, at: at(60) });
    expect(second).toMatchObject({ id: 7000, at: at(60), rate: 100 });
    expect(estimateOf(second, new Date(at(70)))).toBe(7000 + Math.floor(100 * ESTIMATE_SHARE * 10));
  });

  it('moves with what the walk read, and keeps it when a head lists an older id (the newest ones not visible yet)', () => {
    const frontier = frontierAfterHead(frontierAfterHead(undefined, { id: 1000, at: at(0) }), { id: 7000, at: at(60) });
    const walked = frontierAfterWalk(frontier, 7500, at(65));
    expect(walked).toMatchObject({ id: 7500, at: at(65), rate: 100 });
    expect(frontierAfterWalk(walked, 7400, at(64))).toBe(walked);
    expect(frontierAfterHead(walked, { id: 7450, at: at(66) })).toMatchObject({ id: 7500, head: { id: 7450 } });
  });

  it('extrapolates at most two minutes, and never backwards', () => {
    const frontier = { id: 0, at: at(0), rate: 10, head: { id: 0, at: at(0) } };
    expect(estimateOf(frontier, new Date(at(3600)))).toBe(Math.floor(10 * ESTIMATE_SHARE * 120));
    expect(estimateOf(frontier, new Date(at(-10)))).toBe(0);
  });

  it('reads the heads at a start, until a rate is known, and then once a minute', () => {
    const kinds = ['t3', 't1'];
    const now = new Date(at(0));
    expect(headsDue(new Map(), kinds, null, now)).toBe(true);
    const known: Frontier = { id: 1, at: at(0), rate: 5, head: { id: 1, at: at(0) } };
    const frontiers = new Map([['t3', known], ['t1', known]]);
    expect(headsDue(frontiers, kinds, now.getTime() - 10_000, now)).toBe(false);
    expect(headsDue(frontiers, kinds, now.getTime() - HEADS_EVERY_MS, now)).toBe(true);
    expect(headsDue(new Map([['t3', known], ['t1', { ...known, rate: null }]]), kinds, now.getTime() - 10_000, now)).toBe(true);
  });
});
