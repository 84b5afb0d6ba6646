import { describe, expect, it } from 'vitest';
import { dayOf, lastDays, monthOf, nextMonthStart, utcDayStart } from './calendar.ts';

describe('UTC months and days', () => {
  it('an instant belongs to its UTC month and day whatever offset it was written with', () => {
    expect(monthOf('2026-11-30T23:59:59.999Z')).toBe('2026-11');
    expect(monthOf('2026-12-01T00:30:00+01:00')).toBe('2026-11');
    expect(dayOf('2026-12-01T00:30:00+01:00')).toBe('2026-11-30');
  });

  it('a month resets at the first instant of the next month, December into January', () => {
    expect(nextMonthStart('2026-11')).toBe('2026-12-01T00:00:00.000Z');
    expect(nextMonthStart('2026-12')).toBe('2027-01-01T00:00:00.000Z');
    expect(nextMonthStart('2028-02')).toBe('2028-03-01T00:00:00.000Z');
  });

  it('the last days end with today, oldest first, across a month end', () => {
    expect(lastDays(new Date('2026-12-02T23:00:00Z'), 4)).toEqual(['2026-11-29', '2026-11-30', '2026-12-01', '2026-12-02']);
    expect(lastDays(new Date('2026-12-02T00:00:00Z'), 1)).toEqual(['2026-12-02']);
  });

  it('a day starts at midnight UTC, and days on from it roll over months and years', () => {
    expect(utcDayStart(new Date('2026-12-31T23:59:59.999Z'))).toBe('2026-12-31T00:00:00.000Z');
    expect(utcDayStart(new Date('2026-12-31T23:30:00-01:00'), 1)).toBe('2027-01-02T00:00:00.000Z');
    expect(utcDayStart('2028-02-28T12:00:00Z', 1)).toBe('2028-02-29T00:00:00.000Z');
  });
});
