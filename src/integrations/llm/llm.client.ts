/**
 * The language-model client behind `POST /api/v1/generate`: any OpenAI-compatible Chat Completions
 * endpoint through the official `openai` package. Errors become one `LlmUnavailableError`, so callers
 * refund without knowing the package; neither the key nor the prompt ever reaches an error message.
 */
import OpenAI from 'openai';

export class LlmUnavailableError extends Error {
  constructor(
    message: string,
    readonly upstreamStatus?: number,
    readonly timedOut = false,
  ) {
    super(message);
    this.name = 'LlmUnavailableError';
  }
}

interface LlmUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

interface LlmCompletion {
  text: string;
  model: string;
  usage: LlmUsage;
}

export interface LlmClient {
  complete(input: { system: string; user: string; maxTokens?: number }): Promise<LlmCompletion>;
  /** The longest `complete` can take, all attempts and waits included; it gives up past it. */
  budgetMs(): number;
}

/** The package sleeps as long as a Retry-After asks; a wait past this ends the call instead (the budget below). */
const MAX_RETRY_WAIT_MS = 10_000;

/** Every attempt's timeout, plus a bounded wait before each retry. */
export const llmBudgetMs = (timeoutMs: number, maxRetries: number) => (maxRetries + 1) * timeoutMs + maxRetries * MAX_RETRY_WAIT_MS;

export interface LlmClientOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
  /** The package's own retries on 408/409/429/5xx and connection errors; default 1. */
  maxRetries?: number;
}

export function createLlmClient(options: LlmClientOptions): LlmClient {
  const maxRetries = options.maxRetries ?? 1;
  const budget = llmBudgetMs(options.timeoutMs, maxRetries);
  const openai = new OpenAI({ baseURL: options.baseUrl, apiKey: options.apiKey, timeout: options.timeoutMs, maxRetries });

  return {
    budgetMs: () => budget,

    async complete({ system, user, maxTokens }) {
      let completion;
      // The package checks the signal only between its sleeps; the race ends the call on time regardless.
      const abort = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => {
          abort.abort();
          reject(new LlmUnavailableError(`the language model did not finish within ${budget} ms (attempts and retries)`, undefined, true));
        }, budget);
      });
      try {
        const call = openai.chat.completions.create(
          {
            model: options.model,
            messages: [
              { role: 'system', content: system },
              { role: 'user', content: user },
            ],
            ...(maxTokens ? { max_tokens: maxTokens } : {}),
          },
          { signal: abort.signal },
        );
        call.catch(() => undefined); // when the deadline wins, the aborted call's rejection is expected
        completion = await Promise.race([call, deadline]);
      } catch (error) {
        throw error instanceof LlmUnavailableError ? error : toUnavailable(error, options.timeoutMs);
      } finally {
        clearTimeout(timer);
      }
      // An empty answer is returned as such: whether it makes a usable draft is the caller's call.
      const text = completion.choices?.[0]?.message?.content?.trim() ?? '';
      const usage = completion.usage;
      return {
        text,
        model: completion.model || options.model,
        usage: {
          prompt_tokens: usage?.prompt_tokens ?? 0,
          completion_tokens: usage?.completion_tokens ?? 0,
          total_tokens: usage?.total_tokens ?? 0,
        },
      };
    },
  };
}

function toUnavailable(error: unknown, timeoutMs: number): LlmUnavailableError {
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return new LlmUnavailableError(`the language model did not answer within ${timeoutMs} ms`, undefined, true);
  }
  if (error instanceof OpenAI.APIConnectionError) return new LlmUnavailableError('the language model could not be reached');
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
    return new LlmUnavailableError(`the language model answered HTTP ${error.status}`, error.status);
  }
  return new LlmUnavailableError('the language model call failed');
}
