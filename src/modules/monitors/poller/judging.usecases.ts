/**
 * The relevance judge in the poller. A monitor with an intent has each new match scored before it
 * is stored, so a match is stored once, already delivered or filtered, and `?after=` never sees a
 * match change sides behind its cursor. The judge never holds a match back: whatever the model does
 * (fails, times out, answers nonsense), every match comes out with a verdict or with the error that
 * left it unjudged, within the poll's time for judging (one poller interval), and is delivered. How
 * the calls went is tallied per poll; a change of state (every call failed / answering again) is
 * stored, logged and announced once to each monitor with an intent.
 */
import type { Logger } from 'pino';
import type { Database } from '../../../shared/db/database.ts';
import type { Verdict as Score } from '../../relevance/relevance.prompt.ts';
import type { JudgeErrorCode, RelevanceJudge } from '../../relevance/relevance.usecases.ts';
import type { Found } from './poller.cycle.ts';
import type { MonitorEventType } from '../../webhooks/webhooks.events.ts';
import { judgeChangeMessage, noCalls, observedJudgeState, type JudgeState } from '../monitors.judge-state.ts';
import { createJudgingRepository } from './judging.repository.ts';
import { createObservedStateRepository } from '../monitors.observed-state.repository.ts';
import type { MonitorRow } from '../monitors.tables.ts';

/** The judge's own reasons, and one of the poller's: no model is configured any more. */
type JudgeError = { code: JudgeErrorCode | 'judge_not_configured'; message: string };

/** A match's verdict: a score with its reason, the model and the prompt it came from; or why there is none. */
export type Verdict = (Score & { model: string; prompt: string }) | { error: JudgeError };

/** A match on its way to be stored; `verdict` is null for a monitor without an intent. */
export type JudgedFound = Found & { verdict: Verdict | null };

const unjudged = (found: Found[], error: JudgeError): JudgedFound[] => found.map((f) => ({ ...f, verdict: { error } }));

export function createMatchJudging(deps: {
  db: Database;
  /** null: no language model is configured; matches of monitors with an intent go out unjudged, saying so. */
  judge: RelevanceJudge | null;
  clock: () => Date;
  log: Pick<Logger, 'warn'>;
}) {
  const prompts = createJudgingRepository(deps.db);
  const state = createObservedStateRepository<JudgeState>(deps.db, 'judge');
  let tally = noCalls();

  /**
   * The verdicts of one monitor's matches. `until` is the poll's deadline for judging on the
   * `performance.now()` scale: real time, whatever the service's clock says, because it bounds
   * waiting on a network call (the clock may be simulated in tests and benchmarks).
   */
  async function judge(monitor: MonitorRow, found: Found[], until: number): Promise<JudgedFound[]> {
    if (!monitor.intent || found.length === 0) return found.map((f) => ({ ...f, verdict: null }));
    if (!deps.judge) {
      return unjudged(found, { code: 'judge_not_configured', message: 'this server has no language model configured, so the match was delivered unjudged' });
    }
    const deadlineMs = Math.floor(until - performance.now());
    if (deadlineMs <= 0) {
      return unjudged(found, { code: 'judge_timeout', message: "this poll's time for judging ran out, so the match was delivered unjudged" });
    }
    const items = found.map(({ item }, index) => ({
      key: String(index),
      type: item.type,
      subreddit: `r/${item.subreddit}`,
      title: item.title,
      body: item.body,
      author: item.author,
    }));
    const run = await deps.judge.judge(monitor.intent, items, { deadlineMs });
    tally.ok += run.calls - run.failedCalls;
    tally.failed += run.failedCalls;
    const prompt = await prompts.savePrompt(run.instructions, deps.clock().toISOString());
    return found.map((f, index): JudgedFound => {
      const result = run.results.get(String(index))!;
      if ('error' in result) {
        tally.lastError = result.error.message;
        return { ...f, verdict: { error: result.error } };
      }
      return { ...f, verdict: { score: result.score, reason: result.reason, model: run.model, prompt } };
    });
  }

  /** At the end of a poll: stores, logs and announces a change of the judge's state, once. */
  async function settle(
    monitors: MonitorRow[],
    at: string,
    // The delivery's announce (poller.delivery.ts), passed in: the delivery judges through this file.
    announce: (monitor: MonitorRow, type: MonitorEventType, data: Record<string, unknown>) => Promise<void>,
  ): Promise<void> {
    const observed = observedJudgeState(tally);
    const error = tally.lastError;
    tally = noCalls();
    const stored = await state.read();
    if (observed === null) return;
    // Still failing, for another reason: the health says the latest, and nobody is told again.
    if (observed === stored.state) {
      if (observed === 'failing' && error !== stored.detail) await state.move(stored, { state: observed, since: stored.since!, detail: error });
      return;
    }
    const next = { state: observed, since: at, detail: observed === 'failing' ? error : null };
    if (!(await state.move(stored, next))) return;
    deps.log.warn({ judge_state: next.state, previous_state: stored.state }, judgeChangeMessage(next.state, error));
    const judge = { state: next.state, since: next.since, error: next.detail };
    for (const monitor of monitors) if (monitor.intent) await announce(monitor, 'monitor.health', { judge });
  }

  return { judge, settle };
}

export type MatchJudging = ReturnType<typeof createMatchJudging>;
