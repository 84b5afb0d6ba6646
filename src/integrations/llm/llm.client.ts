/**
 * The language-model client behind `POST /api/v1/generate`: any OpenAI-compatible Chat Completions
 * endpoint through the official `openai` package. Errors become one `LlmUnavailableError`, so callers
 * refund without knowing the package; neither the key nor the prompt ever reaches an error message.
 * An answer without text is no error: `noText` says what came instead, for the caller to refuse.
 */
import OpenAI from 'openai';
import { clip } from '../../shared/text.ts';

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
  /** Trimmed and cut at a word to `maxChars` characters; empty when `noText` is set. */
  text: string;
  /** What came instead of text (e.g. "no choices", "content null, finish_reason length"), else null. */
  noText: string | null;
  model: string;
  usage: LlmUsage;
}

export interface LlmCompletionInput {
  system: string;
  user: string;
  maxTokens?: number;
  /** The most of the answer kept (see shared/text.ts); a longer one is cut as soon as it is read. */
  maxChars: number;
  /**
   * Asks for JSON matching `schema` (OpenAI structured outputs, strict: every property required, no
   * others). The answer still comes as text, in `choices[0].message.content`: the caller parses and checks it.
   */
  json?: { name: string; schema: Record<string, unknown> };
  /** The longest this call may take, when shorter than the client's budget (a caller that must finish by a deadline). */
  deadlineMs?: number;
}

export interface LlmClient {
  complete(input: LlmCompletionInput): Promise<LlmCompletion>;
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

    async complete({ system, user, maxTokens, maxChars, json, deadlineMs }) {
      const limit = deadlineMs !== undefined && deadlineMs < budget ? Math.max(0, deadlineMs) : budget;
      const limitWords = limit === budget ? `${budget} ms (attempts and retries)` : `${limit} ms`;
      let completion;
      // The package checks the signal only between its sleeps; the race ends the call on time regardless.
      const abort = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => {
          abort.abort();
          reject(new LlmUnavailableError(`the language model did not finish within ${limitWords}`, undefined, true));
        }, limit);
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
            ...(json ? { response_format: { type: 'json_schema' as const, json_schema: { name: json.name, strict: true, schema: json.schema } } } : {}),
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
      // The package types the answer but checks none of it: read it as whatever the endpoint sent.
      const answer: unknown = completion;
      const fields = isObject(answer) ? answer : {};
      const usage = isObject(fields.usage) ? fields.usage : {};
      return {
        ...readText(answer, maxChars),
        model: typeof fields.model === 'string' && fields.model ? fields.model : options.model,
        usage: { prompt_tokens: count(usage.prompt_tokens), completion_tokens: count(usage.completion_tokens), total_tokens: count(usage.total_tokens) },
      };
    },
  };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A token count the API schema can answer (a non-negative integer); anything else is unknown: 0. */
const count = (value: unknown) => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0);

/** The first choice's text; the wire format allows `content: null`, and endpoints send worse. */
function readText(answer: unknown, maxChars: number): { text: string; noText: string | null } {
  const none = (what: string) => ({ text: '', noText: what });
  if (!isObject(answer)) return none('something that is not a chat completion');
  const choice: unknown = Array.isArray(answer.choices) ? answer.choices[0] : undefined;
  if (choice === undefined) return none('no choices');
  if (!isObject(choice) || !isObject(choice.message)) return none('a choice without a message');
  const { content } = choice.message;
  // Why a model stopped without text ("length", "content_filter") is what the caller can act on; only a plain word is echoed.
  const reason = typeof choice.finish_reason === 'string' && /^[a-z_]{1,40}$/.test(choice.finish_reason) ? `, finish_reason ${choice.finish_reason}` : '';
  if (content === null || content === undefined) return none(`${content === null ? 'content null' : 'no content'}${reason}`);
  if (typeof content !== 'string') return none(`content that is not text (${Array.isArray(content) ? 'array' : typeof content})`);
  const text = clip(content.trim(), maxChars);
  return text ? { text, noText: null } : none(`empty content${reason}`);
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
