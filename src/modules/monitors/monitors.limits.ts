/**
 * How many monitors, and how many distinct subreddits across them, one account may have. One Reddit
 * app's request budget is shared by every account, so no one account may take most of it (and so
 * slow every other account's monitors). Paused monitors count too: resuming one must not need room.
 * Pure: the usecases read the rows inside the transaction that creates or edits, with the account locked.
 */
import { monitorsErrors } from './monitors.errors.ts';

export interface MonitorLimits {
  maxPerAccount: number;
  maxSubredditsPerAccount: number;
}

export interface MonitorUsage {
  monitors: { used: number; limit: number };
  subreddits: { used: number; limit: number };
}

/** A monitor's stored subreddits ("r/Name", JSON). */
interface Stored {
  id: string;
  subreddits: string;
}

/** A monitor being created (no id), or the new subreddits of one being edited. */
export interface MonitorChange {
  monitorId?: string;
  subreddits: string[];
}

/** Distinct lower-case names, whatever the spelling in each monitor. */
function distinct(lists: string[][]): Set<string> {
  return new Set(lists.flat().map((name) => name.replace(/^r\//i, '').toLowerCase()));
}

const listOf = (row: Stored) => JSON.parse(row.subreddits) as string[];

export function usageOf(rows: Stored[], limits: MonitorLimits): MonitorUsage {
  return {
    monitors: { used: rows.length, limit: limits.maxPerAccount },
    subreddits: { used: distinct(rows.map(listOf)).size, limit: limits.maxSubredditsPerAccount },
  };
}

/**
 * Throws 422 when the change would take the account past a limit. Only growth is refused: an
 * account already over a limit that the operator lowered may still remove subreddits or monitors,
 * and edit a monitor without adding new subreddits.
 */
export function assertWithinLimits(rows: Stored[], limits: MonitorLimits, change: MonitorChange): void {
  if (change.monitorId === undefined && rows.length >= limits.maxPerAccount) {
    throw monitorsErrors.limitReached(limits.maxPerAccount, rows.length);
  }
  const used = distinct(rows.map(listOf)).size;
  const others = rows.filter((row) => row.id !== change.monitorId).map(listOf);
  const after = distinct([...others, change.subreddits]).size;
  if (after > limits.maxSubredditsPerAccount && after > used) {
    throw monitorsErrors.tooManySubreddits(limits.maxSubredditsPerAccount, used, after);
  }
}
