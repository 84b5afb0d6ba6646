import { describe, expect, it } from 'vitest';
import type { MonitorRow } from '../monitors.tables.ts';
import { planReads, requestsPerCycle, type LastReads } from './poller.schedule.ts';

let next = 0;
const monitor = (account: string, names: string[], sources = ['posts', 'comments']) =>
  ({ id: `mon_${next++}`, account_id: account, subreddits: JSON.stringify(names.map((n) => `r/${n}`)), sources: JSON.stringify(sources) }) as MonitorRow;
const many = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(5, '0')}`);
const never: LastReads = { posts: new Map(), comments: new Map() };
const all = () => true;

describe('planning which subreddits a cycle reads', () => {
  it('an account with thousands of subreddits gets no further ahead than one group per round: a small account is in the first groups', () => {
    const greedy = Array.from({ length: 30 }, (_, i) => monitor('acc_greedy', many(`g${i}_`, 100)));
    const plan = planReads([...greedy, monitor('acc_small', ['node'])], all, never);
    expect(plan).toHaveLength(2 * 31);
    const first = plan.slice(0, 4);
    expect(first.filter((group) => group.names.includes('node')).map((group) => group.source).sort()).toEqual(['comments', 'posts']);
  });

  it('packs small accounts together, so requests grow with subreddits, not accounts', () => {
    const monitors = Array.from({ length: 100 }, (_, i) => monitor(`acc_${i}`, [`a${i}`, `b${i}`, `c${i}`], ['posts']));
    const plan = planReads(monitors, all, never);
    expect(plan.map((group) => group.names.length)).toEqual([100, 100, 100]);
  });

  it('reads a subreddit several accounts watch once, in the earliest round that wants it', () => {
    const plan = planReads([monitor('acc_a', ['node', 'deno'], ['posts']), monitor('acc_b', ['node'], ['posts'])], all, never);
    expect(plan).toEqual([{ source: 'posts', names: ['deno', 'node'] }]);
  });

  it('reads the least recently read first, so what one cycle left is read first by the next', () => {
    const names = many('s', 300);
    const lastRead: LastReads = { posts: new Map(names.slice(0, 200).map((n) => [n, '2026-11-23T12:00:00.000Z'])), comments: new Map() };
    const plan = planReads([monitor('acc_a', names, ['posts'])], all, lastRead);
    expect(plan[0]!.names).toEqual(names.slice(200));
  });

  it('leaves out subreddits known to be unreadable', () => {
    const plan = planReads([monitor('acc_a', ['node', 'gone'], ['posts'])], (name) => name !== 'gone', never);
    expect(plan).toEqual([{ source: 'posts', names: ['node'] }]);
  });

  it('gives a cycle its interval’s worth of the budget less the quarter left to one-off scrapes', () => {
    expect(requestsPerCycle(90, 60)).toBe(67);
    expect(requestsPerCycle(90, 10)).toBe(11);
    expect(requestsPerCycle(1, 1)).toBe(1);
  });
});
