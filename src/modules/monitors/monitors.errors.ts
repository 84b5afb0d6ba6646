import { AppError } from '../../shared/errors.ts';
import { formatNumber } from '../../shared/text.ts';
import type { MonitorPreview } from './monitors.view.ts';

const n = (value: number | null) => formatNumber(value ?? 0);

/** What a refused preview counted, in words both the API's refusal and the dashboard's form say. */
export const volumeEstimate = (preview: MonitorPreview) =>
  `This monitor would have matched ${n(preview.matched_last_hour)} of the ${n(preview.items_in_window)} posts and comments the stream read ` +
  `since ${preview.window_started_at?.slice(11, 16) ?? '—'} UTC: about ${n(preview.estimated_per_day)} a day, each charged, and this server asks for ` +
  `confirmation above ${n(preview.daily_limit)} a day; nothing was changed.`;

export const monitorsErrors = {
  /** A monitor this server could never read would report nothing for ever: refused at once instead. */
  notConfigured: () =>
    new AppError({
      code: 'monitors.not_configured',
      status: 503,
      message:
        'Reddit is not configured on this server (REDDIT_CLIENT_ID is unset), so a monitor could never read anything; ' +
        'nothing was created. The operator must set REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET to an approved Reddit app.',
    }),
  /** All of Reddit is read by the site-wide stream alone: without it, such a monitor would read nothing for ever. */
  streamOff: () =>
    new AppError({
      code: 'monitors.stream_off',
      status: 503,
      message:
        'A monitor over all of Reddit is read only by the site-wide stream, which is off on this server; nothing was changed. ' +
        'The operator must set REDDIT_STREAM_SHARE above 0 (/docs/guides/monitors-stream#setting-the-share-operators), or name the subreddits to watch.',
    }),
  /** The preview's daily estimate is above the server's limit: the caller confirms, or narrows the rule. */
  volumeTooHigh: (preview: MonitorPreview) =>
    new AppError({
      code: 'monitors.volume_too_high',
      status: 422,
      message: `${volumeEstimate(preview)} Narrow the query (more specific keywords, a phrase, -words), add exclude_subreddits, or send confirm_volume: true to accept it.`,
      extra: { estimated_per_day: preview.estimated_per_day, limit: preview.daily_limit, preview },
    }),
  /** An intent this server could never judge would hold out a promise it cannot keep: refused at once instead. */
  draftsNotConfigured: () =>
    new AppError({
      code: 'monitors.drafts_not_configured',
      status: 503,
      message:
        'This server has no language model configured (LLM_BASE_URL is unset), so it cannot draft replies; nothing was changed. ' +
        'Leave out `draft_replies`, or ask the operator to set LLM_BASE_URL and LLM_MODEL.',
    }),
  judgeNotConfigured: () =>
    new AppError({
      code: 'monitors.judge_not_configured',
      status: 503,
      message:
        'This server has no language model configured (LLM_BASE_URL is unset), so it cannot judge relevance; nothing was changed. ' +
        'Leave out `intent` (keywords and queries still work), or ask the operator to set LLM_BASE_URL and LLM_MODEL.',
    }),
  /** Limits per account (monitors.limits.ts): `limit` and `used` let a client show the room left. */
  limitReached: (limit: number, used: number) =>
    new AppError({
      code: 'monitors.limit_reached',
      status: 422,
      message:
        `Your account has ${used} ${used === 1 ? 'monitor' : 'monitors'} and this server allows at most ${limit} per account, ` +
        'paused ones included; nothing was created. Delete a monitor you no longer need, or add the subreddits and keywords to one you have.',
      extra: { limit, used },
    }),
  tooManySubreddits: (limit: number, used: number, wouldUse: number) =>
    new AppError({
      code: 'monitors.too_many_subreddits',
      status: 422,
      message:
        `This would make your monitors watch ${wouldUse} different subreddits, and this server allows at most ${limit} per account ` +
        `(you watch ${used} now, paused monitors included); nothing was changed. Remove subreddits you no longer need from a monitor, or delete a monitor.`,
      extra: { limit, used, would_use: wouldUse },
    }),
  notFound: () => new AppError({ code: 'monitors.not_found', status: 404, message: 'No monitor with this id in your account.' }),
  /**
   * 404 rather than 400: the id has the right form (the schema checked it) but is not a match of this
   * monitor, which a client that kept the last id it saw can only get by mixing up its monitors.
   */
  matchNotFound: () =>
    new AppError({
      code: 'monitors.match_not_found',
      status: 404,
      message: 'The match given as `after` is not one of this monitor’s matches; use an id from this monitor’s own matches.',
    }),
  /** Two starting points at once: `cursor` pages newest first, `after` reads on from a match oldest first. */
  cursorWithAfter: () =>
    new AppError({
      code: 'request.invalid_query',
      status: 400,
      message: 'Give either `cursor` (the next page of a listing) or `after` (everything stored after a match), not both.',
    }),
};
