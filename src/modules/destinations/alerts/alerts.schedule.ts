import { DateTime } from 'luxon';
import type { Frequency } from './alerts.tables.ts';

/** Whether the running Node knows the zone (its ICU's IANA database). */
export const knownTimeZone = (zone: string): boolean => DateTime.now().setZone(zone).isValid;

/**
 * The end of the digest window that contains `after`: the next full hour, or the next `at` (HH:MM)
 * in `timeZone`. Days are calendar days there, so a daily digest at 09:00 in Europe/Berlin stays at
 * 09:00 local across a change of daylight saving time (23 or 25 hours apart). A local time that a
 * change skips (02:30 on the spring day) is taken as the same time on the clock after it (03:30).
 */
export function nextDigestAt(frequency: Exclude<Frequency, 'instant'>, after: Date, at: string | null, timeZone: string | null): Date {
  const now = DateTime.fromJSDate(after, { zone: frequency === 'hourly' ? 'utc' : (timeZone ?? 'utc') });
  if (frequency === 'hourly') return now.startOf('hour').plus({ hours: 1 }).toJSDate();
  const [hour, minute] = (at ?? '09:00').split(':').map(Number) as [number, number];
  let next = now.set({ hour, minute, second: 0, millisecond: 0 });
  if (next <= now) next = now.plus({ days: 1 }).set({ hour, minute, second: 0, millisecond: 0 });
  return next.toJSDate();
}
