import { describe, expect, it } from 'vitest';
import { knownTimeZone, nextDigestAt } from './alerts.schedule.ts';

const next = (after: string, at: string | null = '09:00', zone: string | null = 'Europe/Berlin') => nextDigestAt('daily', new Date(after), at, zone).toISOString();

describe('when a digest is due', () => {
  it('an hourly digest ends at the next full hour, and one exactly on the hour at the hour after', () => {
    expect(nextDigestAt('hourly', new Date('2026-03-29T00:59:59.999Z'), null, null).toISOString()).toBe('2026-03-29T01:00:00.000Z');
    expect(nextDigestAt('hourly', new Date('2026-03-29T01:00:00.000Z'), null, null).toISOString()).toBe('2026-03-29T02:00:00.000Z');
  });

  it('a daily digest at 09:00 in Europe/Berlin stays at 09:00 local across both changes of daylight saving time', () => {
    // Winter time (UTC+1), then the spring change on 29 March 2026, then summer time (UTC+2).
    expect(next('2026-03-28T07:00:00Z')).toBe('2026-03-28T08:00:00.000Z');
    expect(next('2026-03-28T08:00:00Z')).toBe('2026-03-29T07:00:00.000Z');
    expect(next('2026-03-29T07:00:00Z')).toBe('2026-03-30T07:00:00.000Z');
    // The autumn change on 25 October 2026: from 09:00 CEST to 09:00 CET is 25 hours.
    expect(next('2026-10-24T07:00:00Z')).toBe('2026-10-25T08:00:00.000Z');
  });

  it('a local time that the spring change skips is taken on the clock after it', () => {
    expect(next('2026-03-28T23:00:00Z', '02:30')).toBe('2026-03-29T01:30:00.000Z');
  });

  it('knows IANA zones and refuses made-up ones', () => {
    expect(knownTimeZone('Europe/Berlin')).toBe(true);
    expect(knownTimeZone('America/Argentina/Buenos_Aires')).toBe(true);
    expect(knownTimeZone('Mars/Olympus_Mons')).toBe(false);
  });
});
