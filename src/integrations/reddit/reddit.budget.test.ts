import { describe, expect, it } from 'vitest';
import { MONITORS_CONSUMER, STREAM_CONSUMER, decide, type BudgetEntry } from './reddit.budget.ts';

/** Runs `calls` decisions in order at one instant, keeping the entries as a store would. */
function run(calls: string[], perMinute: number, nowMs = 1_000, streamPerMinute = 0) {
  const entries = new Map<string, BudgetEntry>();
  return calls.map((consumer) => {
    const { result, save } = decide([...entries.values()], consumer, nowMs, perMinute, streamPerMinute);
    entries.set(save.consumer, save);
    return result.granted;
  });
}

describe('the shared Reddit budget and the monitors’ poller', () => {
  it('the poller alone may use the whole window', () => {
    expect(run(Array(90).fill(MONITORS_CONSUMER), 90).every(Boolean)).toBe(true);
    expect(run(Array(91).fill(MONITORS_CONSUMER), 90).at(-1)).toBe(false);
  });

  it('while a scrape competes, the poller leaves a quarter of the window to it', () => {
    const granted = run(['acc_1', ...Array(80).fill(MONITORS_CONSUMER)], 90);
    // 1 for the scrape, then the poller up to 90 − 23 = 67 in all.
    expect(granted.filter(Boolean)).toHaveLength(67);
  });

  it('a scrape takes what the poller left, up to the whole window, and its share ignores the poller', () => {
    const granted = run([...Array(60).fill(MONITORS_CONSUMER), ...Array(40).fill('acc_1')], 90);
    expect(granted.slice(0, 60).every(Boolean)).toBe(true);
    expect(granted.slice(60).filter(Boolean)).toHaveLength(30);
  });
});

describe('the shared Reddit budget and the site-wide stream', () => {
  it('the stream never takes more than its share, even alone', () => {
    const granted = run(Array(100).fill(STREAM_CONSUMER), 100, 1_000, 70);
    expect(granted.filter(Boolean)).toHaveLength(70);
  });

  it('the others share what the stream’s share leaves, and cannot take the stream’s', () => {
    const granted = run([...Array(50).fill('acc_1'), ...Array(80).fill(STREAM_CONSUMER), ...Array(10).fill(MONITORS_CONSUMER)], 100, 1_000, 70);
    expect(granted.slice(0, 50).filter(Boolean)).toHaveLength(30);
    expect(granted.slice(50, 130).filter(Boolean)).toHaveLength(70);
    expect(granted.slice(130).filter(Boolean)).toHaveLength(0);
  });

  it('the stream does not count as a competitor in the others’ fair shares', () => {
    const granted = run([STREAM_CONSUMER, ...Array(30).fill('acc_1')], 100, 1_000, 70);
    expect(granted.filter(Boolean)).toHaveLength(31);
  });
});
