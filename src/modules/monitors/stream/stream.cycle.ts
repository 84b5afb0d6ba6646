/**
 * The pure decisions of one stream cycle: which fullnames to ask (the ids due a second asking first,
 * then the next ids of each kind, 100 to a request, full requests only unless something has waited
 * too long), what an answer settles (returned, asked again later, unavailable, not created yet), when
 * the stream is too far behind and which ids it skips, and what each hour's coverage adds up to. No
 * I/O: stream.usecases.ts does the asking and the storing; stream.frontier.ts says how far to walk.
 *
 * Ids are numbers here (base-36 on the wire and in the tables: 36^10 is well inside 2^53).
 */
import type { MonitorRow, MonitorSource } from '../monitors.tables.ts';
import { isAllOfReddit } from '../monitors.scope.ts';
import type { GapRow } from '../poller/poller.cycle.ts';
import type { StreamKind } from './stream.tables.ts';

export const KINDS: StreamKind[] = ['t3', 't1'];
/** The monitors' source each kind of fullname is. */
export const SOURCE_OF: Record<StreamKind, MonitorSource> = { t3: 'posts', t1: 'comments' };
/** How many hours back a reading of the coverage goes, the current one included: by default, and at most (a week). */
export const COVERAGE_HOURS = { byDefault: 24, most: 168 } as const;
/** Fullnames one `/api/info` answers for. */
export const IDS_PER_REQUEST = 100;
/**
 * How long an id left out of an answer waits before it is asked once more: a new item can take
 * seconds to be visible everywhere (the fake's late items take up to 20 s); a minute covers that at
 * the cost of one more slot per such id, after which it is counted unavailable.
 */
export const RETRY_DELAY_MS = 60_000;
/** One cycle this often: a new item is asked within about two of them. */
export const STREAM_INTERVAL_SECONDS = 10;
/**
 * A request asks 100 ids, or it waits: a part-filled one costs a whole slot of the share for less,
 * and at 100 items a second ending each cycle with one came to 6 requests a minute of 60. Only what
 * has waited longer than this (an id known to exist and unread, a second asking overdue) is asked in
 * a request that is not full: a quiet stretch still reads everything within about half a minute.
 */
export const LATENCY_BOUND_MS = 30_000;

export interface Position {
  /** Every id up to this one has been asked, or skipped. */
  readTo: number;
  /** The newest created_at (ISO) returned at or below readTo. */
  readToAt: string;
}

export interface Head {
  id: number;
  at: string;
}

export interface PendingId {
  kind: StreamKind;
  id: number;
  /** The hour it was first asked in. */
  hour: string;
}

export interface Jump {
  kind: StreamKind;
  from: number;
  to: number;
  /** The time of the newest item read before the skip, and the estimated time of the last one skipped. */
  after: string;
  until: string;
}

/** How far each kind may be walked: up to the id known to exist, or the estimate past it (stream.frontier.ts). */
export interface Reach {
  known: number;
  estimate: number;
}

export interface Plan {
  /** Fullnames, at most 100 per request, the retries first. */
  requests: string[][];
  /** What each fullname is: a first asking (of the walk) or the second (of `pending`). */
  retries: Map<string, PendingId>;
  /** Per kind, the highest id known to exist when planned: an id asked above it may not exist yet. */
  known: Map<StreamKind, number>;
}

export interface CoverageRow {
  hour: string;
  kind: StreamKind;
  first: number;
  last: number;
  asked: number;
  returned: number;
  unavailable: number;
  skipped: number;
}

export const parseId = (id36: string) => Number.parseInt(id36, 36);
export const fullname = (kind: StreamKind, id: number) => `${kind}_${id.toString(36)}`;
export const hourOf = (now: Date) => `${now.toISOString().slice(0, 13)}:00:00.000Z`;

/** The newest id and time among a head listing's fullnames; null when it listed nothing readable. */
export function headOf(items: { id: string; created_at: string }[], kind: StreamKind): Head | null {
  let head: Head | null = null;
  for (const item of items) {
    if (!item.id.startsWith(`${kind}_`)) continue;
    const id = parseId(item.id.slice(3));
    if (Number.isSafeInteger(id) && (head === null || id > head.id)) head = { id, at: item.created_at };
  }
  return head;
}

/**
 * Past `maxLagSeconds` behind the head, the stream skips ahead: to where it is half the bound behind,
 * by the rate ids were created at since its position (ids per second), and never backwards. The ids
 * skipped are exactly `from`..`to`; the new position's time is an estimate (the head's less half the bound).
 */
export function jumpOf(kind: StreamKind, position: Position, head: Head, maxLagSeconds: number): { jump: Jump; position: Position } | null {
  const lagMs = Date.parse(head.at) - Date.parse(position.readToAt);
  if (!(lagMs > maxLagSeconds * 1000) || head.id <= position.readTo) return null;
  const rate = (head.id - position.readTo) / Math.max(1, lagMs / 1000);
  const to = head.id - Math.ceil((rate * maxLagSeconds) / 2);
  if (to <= position.readTo) return null;
  const readToAt = new Date(Date.parse(head.at) - (maxLagSeconds * 1000) / 2).toISOString();
  return { jump: { kind, from: position.readTo + 1, to, after: position.readToAt, until: readToAt }, position: { readTo: to, readToAt } };
}

/**
 * The stretch each skip cost each monitor over all of Reddit that watches its kind: a gap of the
 * monitor's, as the poller records for a subreddit it could not read back (the monitor's health and its
 * `monitor.health` event say so). Only the part after the monitor started watching; `caughtUp` are the
 * monitors not catching up after a pause, which record their own gap (poller/resume.ts). A monitor
 * naming subreddits needs none: the poller reads its subreddits back from their marks once the stream
 * stops serving them.
 */
export function gapsOfJumps(jumps: Jump[], caughtUp: MonitorRow[]): GapRow[] {
  return jumps.flatMap((jump) =>
    caughtUp
      .filter((monitor) => isAllOfReddit(monitor) && (JSON.parse(monitor.sources) as MonitorSource[]).includes(SOURCE_OF[jump.kind]))
      .map((monitor) => ({ monitor, from: monitor.watch_from > jump.after ? monitor.watch_from : jump.after }))
      .filter(({ from }) => from < jump.until)
      .map(({ monitor, from }) => ({ monitorId: monitor.id, source: SOURCE_OF[jump.kind], subreddits: JSON.parse(monitor.subreddits) as string[], from, to: jump.until })),
  );
}

/**
 * What at most `requests` requests ask: the ids due again first, then the next ids of each kind up to
 * its reach, the slots left split between the kinds by how far each is behind (each behind kind gets
 * at least one). Only full requests of 100, unless a second asking is `overdue` or a kind has ids
 * known to exist that have waited past LATENCY_BOUND_MS (its position's time is when the newest id
 * read was created: its next id is no older).
 */
export function planCycle(input: {
  positions: Map<StreamKind, Position>;
  reach: Map<StreamKind, Reach>;
  due: PendingId[];
  requests: number;
  now: Date;
  overdue: boolean;
}): Plan {
  const { positions, reach } = input;
  const capacity = Math.max(0, input.requests) * IDS_PER_REQUEST;
  const retried = input.due.slice(0, capacity);
  let room = capacity - retried.length;
  const readTo = (kind: StreamKind) => positions.get(kind)?.readTo ?? Infinity;
  const target = (kind: StreamKind) => Math.max(reach.get(kind)?.known ?? 0, reach.get(kind)?.estimate ?? 0);
  const backlog = new Map(KINDS.map((kind) => [kind, Math.max(0, target(kind) - readTo(kind))]));
  const total = [...backlog.values()].reduce((a, b) => a + b, 0);
  const take = new Map<StreamKind, number>();
  for (const [index, kind] of KINDS.entries()) {
    const behind = backlog.get(kind)!;
    const last = index === KINDS.length - 1;
    const share = total <= room || last ? behind : Math.max(behind > 0 ? 1 : 0, Math.floor((room * behind) / total));
    take.set(kind, Math.min(behind, room, share));
    room -= take.get(kind)!;
  }
  const names = retried.map((p) => fullname(p.kind, p.id));
  for (const kind of KINDS) {
    const from = positions.get(kind)?.readTo ?? 0;
    for (let id = from + 1; id <= from + take.get(kind)!; id++) names.push(fullname(kind, id));
  }
  const waited = KINDS.some((kind) => {
    const position = positions.get(kind);
    return position !== undefined && position.readTo < (reach.get(kind)?.known ?? 0) && input.now.getTime() - Date.parse(position.readToAt) > LATENCY_BOUND_MS;
  });
  // The newest ids of the walk are what a cut leaves for the next cycle; the retries come first.
  const asked = input.overdue || waited ? names : names.slice(0, names.length - (names.length % IDS_PER_REQUEST));
  const requestsOut: string[][] = [];
  for (let i = 0; i < asked.length; i += IDS_PER_REQUEST) requestsOut.push(asked.slice(i, i + IDS_PER_REQUEST));
  const known = new Map(KINDS.map((kind) => [kind, reach.get(kind)?.known ?? positions.get(kind)?.readTo ?? 0]));
  return { requests: requestsOut, retries: new Map(retried.map((p) => [fullname(p.kind, p.id), p])), known };
}

/** The outcome of the requests a cycle made: what moves, what waits, what each hour covered. */
export interface Settled {
  positions: Map<StreamKind, Position>;
  /** Left out for the first time: asked again after RETRY_DELAY_MS. */
  pending: (PendingId & { dueAt: string })[];
  /** Second askings settled (returned or unavailable): no longer pending. */
  resolved: PendingId[];
  coverage: CoverageRow[];
}

/**
 * Settles what was asked (`asked`: the requests actually made, a prefix of the plan's) against the
 * fullnames returned (with their created_at), after the jumps already made this cycle. An id of the
 * walk above both the plan's known id and every id returned of its kind may not have been created
 * yet: it is not settled (neither asked nor pending), and the next walk asks it again.
 */
export function settle(input: {
  plan: Plan;
  asked: string[][];
  returned: Map<string, string>;
  positions: Map<StreamKind, Position>;
  jumps: Jump[];
  now: Date;
}): Settled {
  const hour = hourOf(input.now);
  const rows = new Map<string, CoverageRow>();
  const row = (at: string, kind: StreamKind) => {
    const key = `${at}|${kind}`;
    if (!rows.has(key)) rows.set(key, { hour: at, kind, first: Infinity, last: -Infinity, asked: 0, returned: 0, unavailable: 0, skipped: 0 });
    return rows.get(key)!;
  };
  const cover = (r: CoverageRow, from: number, to: number) => {
    r.first = Math.min(r.first, from);
    r.last = Math.max(r.last, to);
  };
  for (const jump of input.jumps) {
    const r = row(hour, jump.kind);
    r.skipped += jump.to - jump.from + 1;
    cover(r, jump.from, jump.to);
  }
  const positions = new Map(input.positions);
  const pending: Settled['pending'] = [];
  const resolved: PendingId[] = [];
  const dueAt = new Date(input.now.getTime() + RETRY_DELAY_MS).toISOString();
  const exists = new Map(input.plan.known);
  for (const name of input.returned.keys()) {
    const kind = name.slice(0, 2) as StreamKind;
    if (!input.plan.retries.has(name)) exists.set(kind, Math.max(exists.get(kind) ?? 0, parseId(name.slice(3))));
  }
  for (const name of input.asked.flat()) {
    const kind = name.slice(0, 2) as StreamKind;
    const id = parseId(name.slice(3));
    const created = input.returned.get(name);
    const retry = input.plan.retries.get(name);
    if (!retry && id > (exists.get(kind) ?? 0)) continue;
    if (retry) {
      resolved.push(retry);
      const r = row(retry.hour, kind);
      if (created !== undefined) r.returned++;
      else r.unavailable++;
      continue;
    }
    const r = row(hour, kind);
    r.asked++;
    cover(r, id, id);
    if (created !== undefined) r.returned++;
    else pending.push({ kind, id, hour, dueAt });
    const position = positions.get(kind)!;
    const readToAt = created !== undefined && created > position.readToAt ? created : position.readToAt;
    positions.set(kind, { readTo: Math.max(position.readTo, id), readToAt });
  }
  // A retry's outcome counted in its hour widens nothing: that hour's range already holds it.
  const coverage = [...rows.values()].map((r) => (r.first === Infinity ? { ...r, first: 0, last: 0 } : r));
  return { positions, pending, resolved, coverage };
}
