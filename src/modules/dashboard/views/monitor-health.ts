import type { MonitorHealth } from '../../monitors/monitors.usecases.ts';
import { plural } from '../../../shared/text.ts';
import { html, type Html } from './html.ts';

/**
 * A monitor's health in a few words for the Monitors list: what is wrong first ("r/x private",
 * "2 gaps in 24 h"), then how fresh the reading is ("all subreddits read 40 s ago"). The monitor's
 * own page has the whole of it.
 */

/** Gaps older than this are history, not health: the list counts only the recent ones. */
const RECENT_GAPS_MS = 24 * 3600 * 1000;
/** More unavailable or failing subreddits than this are counted rather than named. */
const NAMED = 2;

type Part = { text: Html | string; problem: boolean };

/** "40 s", "5 min", "3 h", "2 d": how long before `now` `at` was (never negative, should clocks differ). */
export function age(at: string, now: string): string {
  const seconds = Math.max(0, Math.floor((Date.parse(now) - Date.parse(at)) / 1000));
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86_400)} d`;
}

/** "40 s ago", with the exact instant in `datetime` and as a tooltip. */
export const ago = (at: string, now: string) =>
  html`<time datetime="${at}" title="${at.slice(0, 16).replace('T', ' ')} UTC">${age(at, now)} ago</time>`;

/** Named while there are few, counted past NAMED: "r/a private, r/b banned" or "3 subreddits unavailable". */
function named(items: { subreddit: string; words: string }[], counted: string): Part[] {
  if (items.length === 0) return [];
  if (items.length > NAMED) return [{ text: `${items.length} subreddits ${counted}`, problem: true }];
  return items.map((item) => ({ text: html`<bdi>${item.subreddit}</bdi> ${item.words}`, problem: true }));
}

/**
 * How recently the subreddits were read, by the oldest reading, so "40 s ago" holds for every one
 * counted: "all subreddits read 40 s ago", or "2 of 3 read 5 min ago" when some are not being read
 * (unavailable, failing, or new), which the parts before it name.
 */
function freshness(subreddits: MonitorHealth['subreddits'], now: string): Part[] {
  const read = subreddits.filter((s) => s.state === 'ok' && s.last_read_at !== null).map((s) => s.last_read_at!);
  if (read.length === 0) return [{ text: 'not read yet', problem: false }];
  const oldest = read.reduce((a, b) => (a < b ? a : b));
  const who = read.length < subreddits.length ? `${read.length} of ${subreddits.length} read` : subreddits.length === 1 ? 'read' : 'all subreddits read';
  return [{ text: html`${who} ${ago(oldest, now)}`, problem: false }];
}

const STREAM_PARTS: Record<NonNullable<MonitorHealth['stream']>['state'], Part> = {
  reading: { text: 'all of Reddit, from the stream', problem: false },
  behind: { text: 'all of Reddit, late: the stream is behind', problem: true },
  off: { text: 'not read: the stream is off', problem: true },
};

export function healthParts(health: MonitorHealth, now: string): Part[] {
  const parts: Part[] = [];
  if (health.status === 'stale') parts.push({ text: 'stale', problem: true });
  parts.push(...named(health.subreddits.filter((s) => s.state !== 'ok').map((s) => ({ subreddit: s.subreddit, words: s.state.replace('_', ' ') })), 'unavailable'));
  // A Reddit error since the last good reading: the subreddit is not being read right now.
  const failing = health.subreddits.filter((s) => s.state === 'ok' && s.last_error && (s.last_read_at === null || s.last_error.at > s.last_read_at));
  parts.push(...named(failing.map((s) => ({ subreddit: s.subreddit, words: 'Reddit error' })), 'with Reddit errors'));
  const gaps = health.gaps.filter((g) => Date.parse(now) - Date.parse(g.recorded_at) <= RECENT_GAPS_MS).length;
  if (gaps > 0) parts.push({ text: `${plural(gaps, 'gap', 'gaps')} in 24 h`, problem: true });
  // Matches still arrive while the judge fails, but unjudged: worth a glance, not an alarm of its own.
  if (health.judge?.state === 'failing') parts.push({ text: 'relevance judge failing', problem: true });
  // All of Reddit: the stream reads it (maybe late), or nothing does.
  if (health.stream) parts.push(STREAM_PARTS[health.stream.state]);
  else {
    // Served by the site-wide stream, its subreddits are not polled: their last reading is the stream's.
    if (health.read_by_stream.length > 0) parts.push({ text: 'read by the site-wide stream', problem: false });
    parts.push(...freshness(health.subreddits, now));
  }
  return parts;
}

/** The parts joined with " · ", the problems marked so they stand out. */
export function healthSummary(health: MonitorHealth, now: string): Html {
  const parts = healthParts(health, now);
  if (parts.length === 0) return html`<span class="muted">—</span>`;
  return html`${parts.map(
    (part, i) => html`${i > 0 ? ' · ' : ''}<span class="${part.problem ? 'mon-problem' : 'mon-fine'}">${part.text}</span>`,
  )}`;
}
