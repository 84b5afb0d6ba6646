/**
 * The publishing rails (docs/api/rails.md): how often one account may publish, and how long the same
 * text is refused. Read once at start-up with the rest of the configuration (config.ts), with its
 * whole-number reader, so a bad value stops the start with one line naming the variable. 0 turns a
 * rail off: an operator who paces accounts elsewhere is not made to pick a huge number instead.
 */

export interface RailsConfig {
  /** The window of the per-subreddit pace, in minutes (PUBLISH_PACE_SUBREDDIT_MINUTES); 0: off. */
  paceSubredditMinutes: number;
  /** Publications one account may make in one subreddit within that window (PUBLISH_PACE_PER_SUBREDDIT); 0: off. */
  pacePerSubreddit: number;
  /** Publications one account may make in any 60 minutes, wherever (PUBLISH_PACE_PER_HOUR); 0: off. */
  pacePerHour: number;
  /** How long the same text by the same account is refused, anywhere, in hours (PUBLISH_DUPLICATE_HOURS); 0: off. */
  duplicateHours: number;
  /** Comments one account may make in one thread, ever (PUBLISH_REPLIES_PER_THREAD); 0: off. */
  repliesPerThread: number;
}

type Env = Record<string, string | undefined>;

/**
 * config.ts's reader (the variable as a whole number from `min` to `max`, `fallback` when unset), passed
 * in rather than imported: config.ts imports this file, and files never import each other in a loop.
 */
type WholeNumber = (env: Env, name: string, fallback: number, min: number, max: number) => number;

export function railsConfig(env: Env, integer: WholeNumber): RailsConfig {
  return {
    // A day caps the windows and 1,000 the counts: beyond them a value can only be a typo.
    paceSubredditMinutes: integer(env, 'PUBLISH_PACE_SUBREDDIT_MINUTES', 10, 0, 24 * 60),
    pacePerSubreddit: integer(env, 'PUBLISH_PACE_PER_SUBREDDIT', 1, 0, 1000),
    pacePerHour: integer(env, 'PUBLISH_PACE_PER_HOUR', 5, 0, 1000),
    duplicateHours: integer(env, 'PUBLISH_DUPLICATE_HOURS', 24, 0, 24 * 30),
    repliesPerThread: integer(env, 'PUBLISH_REPLIES_PER_THREAD', 1, 0, 1000),
  };
}
