/**
 * Calendar arithmetic of the per-key spend, in UTC: a key's monthly limit counts per calendar month
 * ('YYYY-MM') and resets at its first instant; the daily figures are per calendar day ('YYYY-MM-DD').
 * UTC so every instance, the database and the caller agree whatever their time zones.
 */

/** The UTC month ('YYYY-MM') an instant falls in. */
export const monthOf = (at: string | Date): string => new Date(at).toISOString().slice(0, 7);

/** The UTC day ('YYYY-MM-DD') an instant falls in. */
export const dayOf = (at: string | Date): string => new Date(at).toISOString().slice(0, 10);

/** The first instant of the month after `month`, ISO: when that month's limit resets. */
export function nextMonthStart(month: string): string {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  // Date.UTC takes months from 0, so the month number itself is the next month; December rolls over.
  return new Date(Date.UTC(year, monthNumber, 1)).toISOString();
}

/** The `count` UTC days ending with the day of `today`, oldest first. */
export function lastDays(today: Date, count: number): string[] {
  const end = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  return Array.from({ length: count }, (_, i) => dayOf(new Date(end - (count - 1 - i) * 86_400_000)));
}
