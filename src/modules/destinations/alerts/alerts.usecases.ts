import type { Database } from '../../../shared/db/database.ts';
import { monitorsErrors } from '../../monitors/monitors.errors.ts';
import { destinationsErrors } from '../destinations.errors.ts';
import type { DestinationsUsecases } from '../destinations.usecases.ts';
import { digestMessage, matchMessage, type AlertLinks } from './alerts.messages.ts';
import { createAlertsRepository } from './alerts.repository.ts';
import { knownTimeZone, nextDigestAt } from './alerts.schedule.ts';
import type { Frequency } from './alerts.tables.ts';

/** Instant messages one pass records per route; the rest wait for the next pass (every few seconds). */
const INSTANT_PER_PASS = 100;
/** A digest holds at most this many matches; more wait for the next window (its message counts the rest). */
const DIGEST_MAX = 1000;

export interface RouteInput {
  frequency: Frequency;
  at?: string;
  time_zone?: string;
}

/** The storage order as the start of an outbox id: 10 hex digits keep it sortable. */
const orderOf = (seq: number | string) => Number(seq).toString(16).padStart(10, '0');

/** "the hour to 10:00 UTC", "the day to 09:00 Europe/Berlin": the window a digest covers, in words. */
const windowOf = (frequency: Frequency, end: string, at: string | null, zone: string | null) =>
  frequency === 'hourly' ? `the hour to ${end.slice(11, 16)} UTC` : `the day to ${at} ${zone}`;

/**
 * Monitor → destination routes (issue 43): which destinations get a monitor's matches, each at once
 * or in an hourly or daily digest. `sendDue` turns new matches into outbox messages; the outbox
 * (destinations.delivery.ts) sends them at each channel's pace. A route remembers the last match it
 * handled, and a message is recorded once per subject, so a pass that dies halfway and runs again
 * records nothing twice; a filtered match is never sent; a digest window with nothing new sends nothing.
 */
export function createAlertsUsecases(deps: { db: Database; clock: () => Date; links: AlertLinks; outbox: Pick<DestinationsUsecases, 'enqueueMany'> }) {
  const { db, clock, links } = deps;
  const repo = createAlertsRepository(db);

  async function ownedMonitor(accountId: string, monitorId: string) {
    const monitor = await repo.monitor(accountId, monitorId);
    if (!monitor) throw monitorsErrors.notFound();
    return monitor;
  }

  return {
    list: async (accountId: string, monitorId: string) => {
      await ownedMonitor(accountId, monitorId);
      return { data: await repo.list(monitorId) };
    },

    /** Sends the monitor's matches found from now on to the destination, at the frequency given (a change keeps its place). */
    async route(accountId: string, monitorId: string, destinationId: string, input: RouteInput) {
      const monitor = await ownedMonitor(accountId, monitorId);
      if (!(await repo.destination(accountId, destinationId))) throw destinationsErrors.notFound();
      const daily = input.frequency === 'daily';
      if (!daily && (input.at !== undefined || input.time_zone !== undefined)) throw destinationsErrors.invalidSchedule(input.frequency);
      const at = daily ? (input.at ?? '09:00') : null;
      const zone = daily ? (input.time_zone ?? 'UTC') : null;
      if (zone !== null && !knownTimeZone(zone)) throw destinationsErrors.invalidTimeZone(zone);
      const now = clock();
      await repo.upsert({
        monitor_id: monitorId,
        destination_id: destinationId,
        account_id: accountId,
        frequency: input.frequency,
        at,
        time_zone: zone,
        cursor_seq: Number(monitor.last_seq ?? 0),
        next_digest_at: input.frequency === 'instant' ? null : nextDigestAt(input.frequency, now, at, zone).toISOString(),
        created_at: now.toISOString(),
      });
      return (await repo.find(monitorId, destinationId))!;
    },

    async unroute(accountId: string, monitorId: string, destinationId: string) {
      await ownedMonitor(accountId, monitorId);
      if (!(await repo.remove(monitorId, destinationId))) throw destinationsErrors.routeNotFound();
    },

    /**
     * One pass: each instant route's new matches, and each digest whose window has ended, recorded in
     * the outbox; then the route moves past them. Run by the worker every few seconds.
     */
    async sendDue(): Promise<{ messages: number }> {
      const now = clock();
      let messages = 0;
      for (const route of await repo.due(now.toISOString())) {
        const cursor = Number(route.cursor_seq);
        const active = route.status === 'active';
        const digest = route.frequency !== 'instant';
        // A digest holds what was stored before its pass: the window's matches and any stored in the few
        // seconds since it ended (those would otherwise wait a whole window).
        const found = await repo.matchesAfter(route.monitor_id, cursor, digest ? DIGEST_MAX : INSTANT_PER_PASS);
        // A draft is shown once written; one still being written is left out (the match goes now).
        const matches = found.map((match) => (match.draft_status === 'completed' ? match : { ...match, draft_body: null }));
        if (!digest && matches.length === 0) continue;
        if (active && matches.length > 0) {
          const records = digest
            ? [{ subject: `digest:${route.monitor_id}:${route.next_digest_at}`, message: digestMessage(route.kind, route.monitor_name, windowOf(route.frequency, route.next_digest_at!, route.at, route.time_zone), matches, links) }]
            : matches.map((match) => ({ subject: `match:${match.id}`, message: matchMessage(route.kind, route.monitor_name, match, links), order: orderOf(match.seq) }));
          await deps.outbox.enqueueMany(route.destination_id, records);
          messages += records.length;
        }
        // A switched-off destination's matches are passed over: nothing would ever send them.
        const last = matches.length > 0 ? Number(matches.at(-1)!.seq) : cursor;
        const next = digest ? nextDigestAt(route.frequency as 'hourly' | 'daily', now, route.at, route.time_zone).toISOString() : null;
        await repo.advance(route, last, next);
      }
      return { messages };
    },
  };
}

export type AlertsUsecases = ReturnType<typeof createAlertsUsecases>;
