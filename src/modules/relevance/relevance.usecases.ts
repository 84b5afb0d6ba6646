/**
 * The relevance judge: a monitor's matches scored against its intent by the configured language model,
 * JUDGE_BATCH a call, a few calls at once, all within a deadline (a monitor's interval). Model trouble
 * never throws and never loses a match: each item gets a verdict or an error saying why it has none, so
 * the caller delivers it unjudged rather than holding it back.
 */
import pLimit from 'p-limit';
import { LlmUnavailableError, type LlmClient } from '../../integrations/llm/llm.client.ts';
import { JUDGE_BATCH, judgeInstructions, judgePrompt, readVerdicts, VERDICTS_SCHEMA, type JudgeItem, type Verdict } from './relevance.prompt.ts';

export type JudgeErrorCode = 'judge_unavailable' | 'judge_timeout' | 'judge_malformed' | 'judge_missing';

export type JudgeResult = Verdict | { error: { code: JudgeErrorCode; message: string } };

export interface JudgeRun {
  /** One result for every item's key. */
  results: Map<string, JudgeResult>;
  /** Model calls made (a batch left without time is not called). */
  calls: number;
  /** Calls that judged none of their items: no answer, or an answer without one valid verdict. */
  failedCalls: number;
  usage: { prompt_tokens: number; completion_tokens: number };
  /** As the endpoint named it in its first answer, else the configured one. */
  model: string;
  /** The system text every call was given (`judgeInstructions(intent)`), to keep with each verdict. */
  instructions: string;
}

/**
 * Room for a batch's verdicts with the longest reasons, JSON and escapes; a longer answer is cut, and so
 * not JSON. No token limit is asked besides: the deadline bounds the answer too, and OpenAI's reasoning
 * models refuse `max_tokens` outright (they take `max_completion_tokens`), which would leave the judge
 * unavailable on them.
 */
const MAX_ANSWER_CHARS = JUDGE_BATCH * 2_000;

/** Node's timers may fire a millisecond or two before performance.now() says their time is up. */
const TIMER_SLACK_MS = 5;

export function createRelevanceJudge(deps: { llm: LlmClient; model: string; concurrency?: number }) {
  // One limit for every run at once: a poll judges all its monitors together, and the model still
  // sees at most this many calls in flight. Time spent waiting for a slot counts against a run's deadline.
  const limit = pLimit(Math.max(1, deps.concurrency ?? 4));

  return {
    async judge(intent: string, items: JudgeItem[], options: { deadlineMs: number }): Promise<JudgeRun> {
      const started = performance.now();
      const instructions = judgeInstructions(intent);
      const run: JudgeRun = { results: new Map(), calls: 0, failedCalls: 0, usage: { prompt_tokens: 0, completion_tokens: 0 }, model: '', instructions };
      if (new Set(items.map((item) => item.key)).size !== items.length) throw new Error('relevance judge: every item needs its own key');

      const batches: JudgeItem[][] = [];
      for (let i = 0; i < items.length; i += JUDGE_BATCH) batches.push(items.slice(i, i + JUDGE_BATCH));

      const fail = (batch: JudgeItem[], code: JudgeErrorCode, message: string) => {
        for (const item of batch) run.results.set(item.key, { error: { code, message } });
      };
      const timeout = `the language model did not answer within ${options.deadlineMs} ms`;

      async function judgeBatch(batch: JudgeItem[]) {
        const left = Math.floor(options.deadlineMs - (performance.now() - started));
        if (left <= 0) return fail(batch, 'judge_timeout', `the ${options.deadlineMs} ms allowed were used up before the language model could be asked about this match`);
        run.calls += 1;
        let completion;
        try {
          const { system, user } = judgePrompt(intent, batch);
          completion = await deps.llm.complete({ system, user, maxChars: MAX_ANSWER_CHARS, json: { name: 'verdicts', schema: VERDICTS_SCHEMA }, deadlineMs: left });
        } catch (error) {
          if (!(error instanceof LlmUnavailableError)) throw error;
          run.failedCalls += 1;
          // The client's own words name its per-attempt timeout; past the run's deadline, the deadline is the reason.
          if (error.timedOut) return fail(batch, 'judge_timeout', deadlinePassed() ? timeout : error.message);
          return fail(batch, 'judge_unavailable', error.message);
        }
        run.model ||= completion.model;
        run.usage.prompt_tokens += completion.usage.prompt_tokens;
        run.usage.completion_tokens += completion.usage.completion_tokens;
        if (completion.noText) {
          run.failedCalls += 1;
          return fail(batch, 'judge_malformed', `the model answered with ${completion.noText}, not the JSON asked for`);
        }
        const { verdicts, problem } = readVerdicts(completion.text, batch.length);
        if (verdicts.size === 0) {
          run.failedCalls += 1;
          return fail(batch, 'judge_malformed', `the model's answer was not the JSON asked for: ${problem}`);
        }
        batch.forEach((item, index) => {
          const verdict = verdicts.get(index + 1);
          run.results.set(item.key, verdict ?? { error: { code: 'judge_missing', message: `the model's answer had no usable verdict for this match: ${problem}` } });
        });
      }

      const deadlinePassed = () => performance.now() - started >= options.deadlineMs - TIMER_SLACK_MS;

      await Promise.all(batches.map((batch) => limit(() => judgeBatch(batch))));
      run.model ||= deps.model;
      return run;
    },
  };
}

export type RelevanceJudge = ReturnType<typeof createRelevanceJudge>;
