import Type from 'typebox';
import { nullable } from '../../shared/http/schemas.ts';

export const source = Type.Union([Type.Literal('posts'), Type.Literal('comments')]);

/** A monitor's health as answers show it (monitors.health.ts computes it): Reddit, its subreddits, the judge, its alerts. */
export const health = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('stale'), Type.Literal('unavailable')], {
      description:
        '"stale": a subreddit Reddit would serve has not been read for more than two poller intervals; ' +
        'else "unavailable": Reddit refuses a subreddit (private, banned, not_found, quarantined); else "ok".',
    }),
    reddit: Type.Object(
      {
        state: Type.Union([Type.Literal('ok'), Type.Literal('blocked'), Type.Literal('failing')]),
        since: nullable(Type.String({ format: 'date-time' })),
      },
      {
        description:
          "How Reddit treats this service's app, as the poller last saw it: blocked (the app is refused), failing " +
          '(every read failed: 5xx, timeouts, 429) or ok; `since` is null while it never saw trouble.',
      },
    ),
    subreddits: Type.Array(
      Type.Object({
        subreddit: Type.String(),
        state: Type.Union([
          Type.Literal('ok'),
          Type.Literal('private'),
          Type.Literal('banned'),
          Type.Literal('not_found'),
          Type.Literal('quarantined'),
          Type.Literal('gated'),
        ]),
        stale: Type.Boolean({
          description: 'An active monitor has not read it (posts or comments) for more than two poller intervals although Reddit would serve it (state ok); a subreddit Reddit refuses is never also stale.',
        }),
        last_read_at: nullable(Type.String({ format: 'date-time' })),
        last_error: nullable(
          Type.Object({ code: Type.String({ description: 'rate_limited | blocked | unavailable' }), at: Type.String({ format: 'date-time' }) }),
        ),
      }),
    ),
    read_by_stream: Type.Array(source, {
      description:
        'The sources the site-wide stream reads for this monitor now: their subreddits are not polled ' +
        'meanwhile, and `last_read_at` is when the stream last covered them. Polling resumes when the stream stops or falls behind. ' +
        'Empty while the stream is off, and for the comments of a rule with a `title:` term (a comment read by id has no post title).',
    }),
    judge: nullable(
      Type.Object(
        {
          state: Type.Union([Type.Literal('ok'), Type.Literal('failing')]),
          since: nullable(Type.String({ format: 'date-time' })),
          error: nullable(Type.String({ description: 'Why the last call failed, while failing' })),
        },
        {
          description:
            'The relevance judge as the poller last saw it: failing while every call to the language model fails (matches are then ' +
            'delivered unjudged and not charged for judging); null for a monitor without an intent.',
        },
      ),
    ),
    gaps: Type.Array(
      Type.Object({
        source: source,
        subreddits: Type.Array(Type.String()),
        from: Type.String({ format: 'date-time' }),
        to: Type.String({ format: 'date-time' }),
        recorded_at: Type.String({ format: 'date-time' }),
      }),
      { description: 'Newest first, at most 20: stretches in which more new items appeared than could be read.' },
    ),
    stream: nullable(
      Type.Object(
        {
          state: Type.Union([Type.Literal('reading'), Type.Literal('behind'), Type.Literal('off')]),
          detail: nullable(Type.String({ description: 'Why it is read late or not at all, in words; null while reading' })),
        },
        {
          description:
            'For a monitor over all of Reddit (subreddits ["r/all"]): whether the site-wide stream reads for it. "behind": the stream ' +
            'stopped reading (no commit for 30 s) or is half of REDDIT_STREAM_MAX_LAG_SECONDS behind Reddit, so matches arrive late; a stretch ' +
            'it skips ahead over is listed in gaps. "off": nothing reads it (the server runs no stream). While active and not "reading", ' +
            'its status is "stale". Null for a monitor that names subreddits.',
        },
      ),
    ),
    destinations: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        kind: Type.String({ description: 'slack | discord | email | telegram' }),
        status: Type.Union([Type.Literal('off'), Type.Literal('unconfirmed')]),
        reason: nullable(Type.String({ description: 'Why it was switched off, in words (the service\'s answer, or an unsubscribe)' })),
      }),
      {
        description:
          "The destinations this monitor's matches are routed to that get nothing now: switched off (gone, unsubscribed) or not yet confirmed. Empty when every route delivers.",
      },
    ),
  },
  { title: 'MonitorHealth' },
);
