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

export interface LlmUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface LlmCompletion {
  text: string;
  model: string;
  usage: LlmUsage;
}

export interface LlmClient {
  complete(input: { system: string; user: string; maxTokens?: number }): Promise<LlmCompletion>;
}

export interface LlmClientOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
  /** The package's own retries on 408/409/429/5xx and connection errors; default 1. */
  maxRetries?: number;
}

export function createLlmClient(options: LlmClientOptions): LlmClient {
  const openai = new OpenAI({
    baseURL: options.baseUrl,
    apiKey: options.apiKey,
    timeout: options.timeoutMs,
    maxRetries: options.maxRetries ?? 1,
  });

  return {
    async complete({ system, user, maxTokens }) {
      let completion;
      try {
        completion = await openai.chat.completions.create({
          model: options.model,
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: user },
          ],
          ...(maxTokens ? { max_tokens: maxTokens } : {}),
        });
      } catch (error) {
        throw toUnavailable(error, options.timeoutMs);
      }
      const text = completion.choices?.[0]?.message?.content?.trim() ?? '';
      if (!text) throw new LlmUnavailableError('the language model returned an empty answer', 200);
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
