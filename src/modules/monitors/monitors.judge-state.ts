/**
 * Whether the language model judges, decided from how the judge's calls went in one poll, and whether
 * that is news: like Reddit's state (monitors.reddit-app.ts), a change is logged and announced once, never per
 * match. No I/O here; poller/judging.usecases.ts counts the calls, stores the state and tells.
 */
export type JudgeState = 'ok' | 'failing';

export interface JudgeTally {
  ok: number;
  failed: number;
  /** Why the last failed call failed, in words. */
  lastError: string | null;
}

export const noCalls = (): JudgeTally => ({ ok: 0, failed: 0, lastError: null });

/** Failing when calls were made and every one failed; ok when any answered; null when none were made (the state stands). */
export function observedJudgeState(tally: JudgeTally): JudgeState | null {
  if (tally.ok > 0) return 'ok';
  return tally.failed > 0 ? 'failing' : null;
}

/** The operator's log line for a change. */
export function judgeChangeMessage(next: JudgeState, error: string | null): string {
  return next === 'failing'
    ? `Every call to the relevance judge failed (${error ?? 'no reason given'}): matches of monitors with an intent are delivered unjudged, and not charged for judging, until it answers again.`
    : 'The relevance judge answers again: matches of monitors with an intent are judged again.';
}
