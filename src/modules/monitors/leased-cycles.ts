/**
 * How a background reader of the monitors (the poller, the site-wide stream) runs its cycles: one
 * instance at a time under its named lease (leases.repository.ts), the lease renewed while a cycle
 * runs, a cycle whose lease another instance took ending without committing (PollerLeaseLost), the
 * cycles of one process one after another, and a loop every interval, at once again while `again`
 * says the last cycle was outrun. Both readers share it so their fencing cannot drift apart.
 */
import type { Logger } from 'pino';

/** This instance no longer holds a reader's lease: the cycle stops and commits nothing more. */
export class PollerLeaseLost extends Error {
  constructor() {
    super('the lease passed to another instance');
    this.name = 'PollerLeaseLost';
  }
}

interface Lease {
  acquire(holder: string, nowMs: number, leaseMs: number): Promise<number | null>;
  renew(holder: string, cycle: number, nowMs: number, leaseMs: number): Promise<boolean>;
  release(holder: string): Promise<unknown>;
}

export function leasedCycles<Report>(deps: {
  lease: Lease;
  holder: string;
  clock: () => Date;
  leaseMs: number;
  intervalMs: number;
  log: Pick<Logger, 'warn'>;
  /** What a failed cycle's warning calls the reader. */
  what: string;
  report: (cycle: number) => Report;
  work: (cycle: number, report: Report) => Promise<void>;
  /** Whether the next cycle starts at once: this one was outrun (a gap, the whole share spent). */
  again: (report: Report) => boolean;
}) {
  const { lease, holder, clock, leaseMs } = deps;

  /** One cycle, if this instance holds (or can take) the lease; null when another instance reads. */
  async function cycleOnce(): Promise<Report | null> {
    const cycle = await lease.acquire(holder, clock().getTime(), leaseMs);
    if (cycle === null) return null;
    const report = deps.report(cycle);
    const keepAlive = setInterval(() => void lease.renew(holder, cycle, clock().getTime(), leaseMs).catch(() => undefined), leaseMs / 3);
    keepAlive.unref();
    try {
      await deps.work(cycle, report);
    } catch (error) {
      // Another instance took over while this one was slow: it reads from what this one committed.
      if (!(error instanceof PollerLeaseLost)) throw error;
    } finally {
      clearInterval(keepAlive);
    }
    return report;
  }

  // Cycles of one process run one after another (the worker's timer and a test's call share one holder).
  let last: Promise<unknown> = Promise.resolve();
  function runCycle(): Promise<Report | null> {
    const next = last.catch(() => undefined).then(cycleOnce);
    last = next;
    return next;
  }

  /** Cycles every interval (back to back while outrun) until the returned stop is called, which releases the lease. */
  function start(): () => void {
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    const loop = async () => {
      const started = Date.now();
      const report = await runCycle().catch((error: unknown) => {
        deps.log.warn({ err: error instanceof Error ? error.message : String(error) }, `a ${deps.what} cycle failed; the next one retries`);
        return null;
      });
      const wait = report && deps.again(report) ? 0 : Math.max(0, deps.intervalMs - (Date.now() - started));
      if (!stopped) timer = setTimeout(loop, wait);
    };
    timer = setTimeout(loop, 0);
    return () => {
      stopped = true;
      clearTimeout(timer);
      void lease.release(holder).catch(() => undefined);
    };
  }

  return { runCycle, start };
}
