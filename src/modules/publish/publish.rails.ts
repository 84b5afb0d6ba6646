/**
 * The rails (docs/api/rails.md): what keeps an account's publishing from looking like a spam bot to
 * Reddit, which bans accounts (and apps) for it. Checked under the account's lock before anything is
 * recorded or held, so a refusal costs nothing and leaves no trace. Every rail counts the account's
 * publications that did or may have gone out (running, published, unknown); a failed one never went
 * out and counts for nothing. The decision is pure (`refusalOf`); `checkRails` only gathers its facts.
 */
import type { RailsConfig } from '../../shared/config/rails.ts';
import type { AppError } from '../../shared/errors.ts';
import { publishErrors } from './publish.errors.ts';

/** An earlier publication a rail counts. */
export interface Earlier {
  id: string;
  created_at: string;
}

/** The account's earlier publications that did or may have gone out, as the rails ask for them (publish.repository.ts answers). */
export interface RailsReader {
  /** The newest with this text hash created after `since`. */
  sameText(accountId: string, textHash: string, since: string): Promise<Earlier | undefined>;
  /** The comments in this thread, ever, oldest first. */
  inThread(accountId: string, thread: string): Promise<Earlier[]>;
  /** Those created after `since`, oldest first; only those in `subreddit` (case-insensitive) when it is given. */
  createdAfter(accountId: string, since: string, subreddit?: string): Promise<Earlier[]>;
}

/** The publication about to be recorded, as the rails see it. */
export interface Attempt {
  accountId: string;
  /** When it is recorded: every window ends here. */
  at: string;
  kind: 'comment' | 'post';
  textHash: string;
  subreddit: string | null;
  thread: string | null;
  allowDuplicate: boolean;
  allowSecondReply: boolean;
}

/** What the rails found; a rail that is off or lifted found nothing. */
export interface RailFacts {
  sameText?: Earlier;
  inThread?: Earlier[];
  inSubreddit?: Earlier[];
  inHour?: Earlier[];
}

const MINUTE_MS = 60_000;
const HOUR_MINUTES = 60;

const minutesBefore = (at: string, minutes: number) => new Date(Date.parse(at) - minutes * MINUTE_MS).toISOString();

/**
 * With `limit` allowed per window and `earlier` (oldest first) inside it: the publication whose leaving
 * the window lets one more through, and when it leaves; null while there is room. Leaving means being
 * `minutes` old, at which instant it is no longer "after" the window's start.
 */
export function paceBlock(earlier: Earlier[], limit: number, minutes: number): { publicationId: string; retryAt: string } | null {
  if (earlier.length < limit) return null;
  const blocking = earlier[earlier.length - limit]!;
  return { publicationId: blocking.id, retryAt: new Date(Date.parse(blocking.created_at) + minutes * MINUTE_MS).toISOString() };
}

/**
 * The refusal, or null. The 409s come first: they ask for a change of request, and a client told to
 * wait by a pace would only meet them afterwards. Of the paces, the one that lets it through later is
 * named, so its retry is not refused by the other.
 */
export function refusalOf(rails: RailsConfig, attempt: Attempt, facts: RailFacts): AppError | null {
  if (facts.sameText) return publishErrors.duplicate(facts.sameText.id, rails.duplicateHours);
  if (facts.inThread && facts.inThread.length >= rails.repliesPerThread) return publishErrors.secondReply(facts.inThread.at(-1)!.id, attempt.thread!);
  const now = attempt.at;
  const bySubreddit = facts.inSubreddit && paceBlock(facts.inSubreddit, rails.pacePerSubreddit, rails.paceSubredditMinutes);
  const byHour = facts.inHour && paceBlock(facts.inHour, rails.pacePerHour, HOUR_MINUTES);
  if (bySubreddit && (!byHour || bySubreddit.retryAt >= byHour.retryAt)) {
    return publishErrors.subredditPace({ ...bySubreddit, now }, attempt.subreddit!, { limit: rails.pacePerSubreddit, minutes: rails.paceSubredditMinutes });
  }
  return byHour ? publishErrors.hourlyPace({ ...byHour, now }, rails.pacePerHour) : null;
}

/** Asks only what the rails that apply need (0 turns a rail off; a flag lifts its rail), then throws the refusal, if any. */
export async function checkRails(reader: RailsReader, rails: RailsConfig, attempt: Attempt): Promise<void> {
  const { accountId, at, subreddit, thread } = attempt;
  const facts: RailFacts = {};
  if (rails.duplicateHours > 0 && !attempt.allowDuplicate) {
    facts.sameText = await reader.sameText(accountId, attempt.textHash, minutesBefore(at, rails.duplicateHours * HOUR_MINUTES));
  }
  // Only a comment goes into a thread; one whose post is not known cannot be checked.
  if (attempt.kind === 'comment' && thread && rails.repliesPerThread > 0 && !attempt.allowSecondReply) facts.inThread = await reader.inThread(accountId, thread);
  if (subreddit && rails.pacePerSubreddit > 0 && rails.paceSubredditMinutes > 0) {
    facts.inSubreddit = await reader.createdAfter(accountId, minutesBefore(at, rails.paceSubredditMinutes), subreddit);
  }
  if (rails.pacePerHour > 0) facts.inHour = await reader.createdAfter(accountId, minutesBefore(at, HOUR_MINUTES));
  const refusal = refusalOf(rails, attempt, facts);
  if (refusal) throw refusal;
}
