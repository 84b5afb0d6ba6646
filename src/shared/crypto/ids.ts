import type { RandomBytes } from './random.ts';

/**
 * Public ids such as `scr_0192f0c1a2b3c4d5e6f7a8b9c0d1`: 12 hex digits of milliseconds, then 64
 * random bits, so ids sort by creation time and serve directly as pagination cursors.
 */
export const newId = (prefix: string, now: Date, random: RandomBytes): string => idOf(prefix, now, random(8).toString('hex'));

/** The same layout with a given 16-hex-digit tail instead of random bits: an id derived from a record's own. */
export const idOf = (prefix: string, at: Date, tail: string): string => `${prefix}_${at.getTime().toString(16).padStart(12, '0')}${tail}`;
