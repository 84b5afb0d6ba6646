/** The start of the UTC day of `now`, `offset` days on (1: the next midnight, when a daily-cap pause ends). */
export const utcDayStart = (now: Date, offset = 0): string =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + offset)).toISOString();
