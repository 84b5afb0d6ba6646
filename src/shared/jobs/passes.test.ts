import { describe, expect, it } from 'vitest';
import { coalescedPasses } from './passes.ts';

describe('coalesced passes', () => {
  it('a burst of calls during a pass shares one more pass, which starts after the running one ends', async () => {
    const log: string[] = [];
    let release!: () => void;
    let runs = 0;
    const flush = coalescedPasses(async () => {
      const run = ++runs;
      log.push(`start ${run}`);
      if (run === 1) await new Promise<void>((resolve) => (release = resolve));
      log.push(`end ${run}`);
    });
    const first = flush();
    const burst = [flush(), flush(), flush()];
    expect(burst[0]).toBe(burst[2]);
    release();
    await Promise.all([first, ...burst]);
    expect(log).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
    await flush();
    expect(runs).toBe(3);
  });

  it('a failed pass fails its callers, and the next call starts afresh', async () => {
    let fail = true;
    const flush = coalescedPasses(async () => {
      if (fail) throw new Error('database away');
    });
    await expect(flush()).rejects.toThrow('database away');
    fail = false;
    await expect(flush()).resolves.toBeUndefined();
  });
});
