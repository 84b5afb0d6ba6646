import { describe, expect, it } from 'vitest';
import { fullname, gapsOfJumps, headOf, hourOf, jumpOf, LATENCY_BOUND_MS, planCycle as plan_, RETRY_DELAY_MS, settle, type PendingId, type Position, type Reach } from './stream.cycle.ts';
import type { MonitorRow } from '../monitors.tables.ts';
import type { StreamKind } from './stream.tables.ts';

const at = (s: number) => new Date(Date.UTC(2026, 10, 23, 12, 0, s)).toISOString();
const positions = (t3: number, t1: number, time = at(0)) =>
  new Map<StreamKind, Position>([
    ['t3', { readTo: t3, readToAt: time }],
    ['t1', { readTo: t1, readToAt: time }],
  ]);
/** Both kinds known to exist up to these ids (as after a head reading), with no estimate past them. */
const heads = (t3: number, t1: number) =>
  new Map<StreamKind, Reach>([
    ['t3', { known: t3, estimate: t3 }],
    ['t1', { known: t1, estimate: t1 }],
  ]);
/** The plan at `now` (by default 10 s after the positions' time: nothing has waited past the bound). */
const planCycle = (p: Map<StreamKind, Position>, reach: Map<StreamKind, Reach>, due: PendingId[], requests: number, now = new Date(at(10)), overdue = false) =>
  plan_({ positions: p, reach, due, requests, now, overdue });
/** Past the latency bound: a request that is not full is asked too. */
const late = new Date(Date.parse(at(0)) + LATENCY_BOUND_MS + 1000);

describe('the stream’s plan', () => {
  it('asks every id since the position, both kinds, 100 to a request', () => {
    const plan = planCycle(positions(1000, 5000), heads(1030, 5170), [], 10);
    expect(plan.requests.map((r) => r.length)).toEqual([100, 100]);
    const names = plan.requests.flat();
    expect(names).toHaveLength(200);
    expect(new Set(names).size).toBe(200);
    expect(names[0]).toBe(fullname('t3', 1001));
    expect(names.at(-1)).toBe(fullname('t1', 5170));
  });

  it('asks the ids due again first, then splits what is left by how far behind each kind is', () => {
    const due = [{ kind: 't1' as const, id: 4990, hour: hourOf(new Date(at(0))) }];
    const plan = planCycle(positions(1000, 5000), heads(2000, 10000), due, 2);
    const names = plan.requests.flat();
    expect(names).toHaveLength(200);
    expect(names[0]).toBe(fullname('t1', 4990));
    expect(plan.retries.has(fullname('t1', 4990))).toBe(true);
    const posts = names.filter((n) => n.startsWith('t3_')).length;
    expect(posts).toBe(Math.floor((199 * 1000) / 6000));
  });

  it('asks full requests only, leaving the newest ids for the next cycle, until something has waited past the bound', () => {
    const soon = planCycle(positions(1000, 5000), heads(1030, 5150), [], 10);
    expect(soon.requests.map((r) => r.length)).toEqual([100]);
    expect(soon.requests[0]![0]).toBe(fullname('t3', 1001));
    expect(soon.requests[0]!.at(-1)).toBe(fullname('t1', 5070));
    const waited = planCycle(positions(1000, 5000), heads(1030, 5150), [], 10, late);
    expect(waited.requests.map((r) => r.length)).toEqual([100, 80]);
    // An overdue second asking goes out in a request that is not full too.
    const due = [{ kind: 't3' as const, id: 990, hour: hourOf(new Date(at(0))) }];
    expect(planCycle(positions(1000, 5000), heads(1000, 5010), due, 10, new Date(at(10)), true).requests.flat()).toHaveLength(11);
    expect(planCycle(positions(1000, 5000), heads(1000, 5010), due, 10).requests).toEqual([]);
  });

  it('walks past the known ids up to the estimate, and only what may exist there is left unsettled', () => {
    const reach = new Map<StreamKind, Reach>([['t3', { known: 1000, estimate: 1000 }], ['t1', { known: 5000, estimate: 5100 }]]);
    const plan = planCycle(positions(1000, 5000), reach, [], 10);
    expect(plan.requests.flat()).toEqual(Array.from({ length: 100 }, (_, i) => fullname('t1', 5001 + i)));
    // Reddit had made up to 5060: 5050 is its newest visible, 5040 is missing (late, or deleted).
    const returned = new Map(Array.from({ length: 50 }, (_, i) => [fullname('t1', 5001 + i), at(9)] as const).filter(([name]) => name !== fullname('t1', 5040)));
    const out = settle({ plan, asked: plan.requests, returned, positions: positions(1000, 5000), jumps: [], now: new Date(at(10)) });
    expect(out.positions.get('t1')).toEqual({ readTo: 5050, readToAt: at(9) });
    expect(out.pending.map((p) => p.id)).toEqual([5040]);
    expect(out.coverage).toEqual([{ hour: hourOf(new Date(at(10))), kind: 't1', first: 5001, last: 5050, asked: 50, returned: 49, unavailable: 0, skipped: 0 }]);
  });

  it('asks nothing when caught up and nothing is due', () => {
    expect(planCycle(positions(1000, 5000), heads(1000, 5000), [], 5).requests).toEqual([]);
  });
});

describe('settling an answer', () => {
  it('moves the position to the last id asked, waits for the missing ones once, and counts each hour', () => {
    const now = new Date(at(20));
    const plan = planCycle(positions(10, 20), heads(13, 22), [], 1, late);
    const returned = new Map([[fullname('t3', 11), at(5)], [fullname('t3', 13), at(7)], [fullname('t1', 21), at(9)]]);
    const out = settle({ plan, asked: plan.requests, returned, positions: positions(10, 20), jumps: [], now });
    expect(out.positions.get('t3')).toEqual({ readTo: 13, readToAt: at(7) });
    expect(out.positions.get('t1')).toEqual({ readTo: 22, readToAt: at(9) });
    expect(out.pending.map((p) => fullname(p.kind, p.id))).toEqual([fullname('t3', 12), fullname('t1', 22)]);
    expect(out.pending[0]!.dueAt).toBe(new Date(now.getTime() + RETRY_DELAY_MS).toISOString());
    expect(out.coverage).toEqual([
      { hour: hourOf(now), kind: 't3', first: 11, last: 13, asked: 3, returned: 2, unavailable: 0, skipped: 0 },
      { hour: hourOf(now), kind: 't1', first: 21, last: 22, asked: 2, returned: 1, unavailable: 0, skipped: 0 },
    ]);
  });

  it('counts a second asking in the hour of the first: returned, or unavailable', () => {
    const first = '2026-11-23T11:00:00.000Z';
    const due = [{ kind: 't3' as const, id: 5, hour: first }, { kind: 't3' as const, id: 6, hour: first }];
    const plan = planCycle(positions(10, 20), heads(10, 20), due, 1, late, true);
    const out = settle({ plan, asked: plan.requests, returned: new Map([[fullname('t3', 5), at(1)]]), positions: positions(10, 20), jumps: [], now: new Date(at(30)) });
    expect(out.resolved).toHaveLength(2);
    expect(out.pending).toEqual([]);
    expect(out.coverage).toEqual([{ hour: first, kind: 't3', first: 0, last: 0, asked: 0, returned: 1, unavailable: 1, skipped: 0 }]);
    expect(out.positions.get('t3')!.readTo).toBe(10);
  });

  it('leaves what was not asked (the budget ran out) for the next cycle', () => {
    const plan = planCycle(positions(0, 0), heads(150, 0), [], 2);
    const out = settle({ plan, asked: plan.requests.slice(0, 1), returned: new Map(), positions: positions(0, 0), jumps: [], now: new Date(at(0)) });
    expect(out.positions.get('t3')!.readTo).toBe(100);
  });
});

describe('falling behind', () => {
  it('skips ahead past the lag bound to half the bound behind, by the rate ids were made at, and records exactly what it skipped', () => {
    // 100 ids a second for 1,000 s, bound 600 s: keep the newest 30,000, skip the rest.
    const out = jumpOf('t1', { readTo: 0, readToAt: at(0) }, { id: 100_000, at: new Date(Date.parse(at(0)) + 1_000_000).toISOString() }, 600);
    // Skipped: from the position's time to the estimated time of id 70,000 (the head's less half the bound).
    expect(out!.jump).toEqual({ kind: 't1', from: 1, to: 70_000, after: at(0), until: new Date(Date.parse(at(0)) + 700_000).toISOString() });
    expect(out!.position.readTo).toBe(70_000);
    const plan = planCycle(new Map([['t1', out!.position]]), new Map([['t1', { known: 100_000, estimate: 100_000 }]]), [], 1);
    const settled = settle({ plan, asked: plan.requests, returned: new Map(), positions: new Map([['t1', out!.position]]), jumps: [out!.jump], now: new Date(at(0)) });
    expect(settled.coverage[0]).toMatchObject({ kind: 't1', first: 1, last: 70_100, skipped: 70_000, asked: 100 });
  });

  it('does not skip within the bound', () => {
    expect(jumpOf('t3', { readTo: 0, readToAt: at(0) }, { id: 50, at: at(59) }, 60)).toBeNull();
  });

  it('gives each monitor over all of Reddit watching the kind a gap of the stretch skipped, from when it started watching', () => {
    const monitor = (id: string, subreddits: string[], sources: string[], watchFrom = at(0)) =>
      ({ id, subreddits: JSON.stringify(subreddits), sources: JSON.stringify(sources), watch_from: watchFrom }) as MonitorRow;
    const jump = { kind: 't1' as const, from: 1, to: 70_000, after: at(10), until: at(40) };
    const monitors = [
      monitor('all', ['r/all'], ['posts', 'comments']),
      monitor('later', ['r/all'], ['comments'], at(20)),
      monitor('after', ['r/all'], ['comments'], at(50)),
      monitor('posts', ['r/all'], ['posts']),
      monitor('named', ['r/node'], ['comments']),
    ];
    expect(gapsOfJumps([jump], monitors)).toEqual([
      { monitorId: 'all', source: 'comments', subreddits: ['r/all'], from: at(10), to: at(40) },
      { monitorId: 'later', source: 'comments', subreddits: ['r/all'], from: at(20), to: at(40) },
    ]);
  });
});

describe('the heads', () => {
  it('are the highest id of the kind listed, whatever the listing’s order', () => {
    const items = [{ id: 't3_zz', created_at: at(3) }, { id: 't3_100', created_at: at(4) }, { id: 't1_zzzz', created_at: at(5) }];
    expect(headOf(items, 't3')).toEqual({ id: Number.parseInt('100', 36), at: at(4) });
    expect(headOf([], 't1')).toBeNull();
  });
});
