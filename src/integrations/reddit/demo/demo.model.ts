/**
 * The demo's language model: an answer in the Chat Completions wire format, worked out without a model,
 * so the relevance judge and drafts can be tried where no LLM_BASE_URL is set. Pure: no I/O.
 *
 * - Asked for verdicts (structured output named "verdicts", the relevance judge's), it scores each item
 *   by the share of the intent's words (four letters or more, by their first five) found in its text, and says which.
 * - Asked for anything else (a draft), it answers with a sample text that says it is one.
 */

type Json = Record<string, unknown>;

/** The model's name in answers: stored with each verdict and draft, so they stay told apart from a real model's. */
export const DEMO_MODEL = 'subpilot-demo';

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
/** Words of four letters or more, by their first five ("choosing" and "choose" are one word here). */
const words = (text: string) => new Set((text.toLowerCase().match(/[\p{L}\p{N}]{4,}/gu) ?? []).map((word) => word.slice(0, 5)));

function verdicts(system: string, user: string): string {
  // The judge's instructions quote the intent as JSON after these words (relevance.prompt.ts judgeInstructions).
  const quoted = /in their words: ("(?:[^"\\]|\\.)*")/.exec(system)?.[1];
  const intent = words(quoted ? String(JSON.parse(quoted)) : '');
  const items = user.split('\n').filter((line) => line.startsWith('{'));
  return JSON.stringify({
    verdicts: items.map((line) => {
      const item = JSON.parse(line) as Json;
      const text = words(`${item.title ?? ''} ${item.post_title ?? ''} ${item.text ?? ''}`);
      const shared = [...intent].filter((word) => text.has(word));
      const score = intent.size === 0 ? 50 : Math.round((100 * shared.length) / intent.size);
      const reason = shared.length
        ? `Demo judge (word overlap, not a language model): the item shares words beginning ${shared.map((word) => `"${word}"`).join(', ')} with the intent.`
        : 'Demo judge (word overlap, not a language model): the item shares no word of four letters or more with the intent.';
      return { id: String(item.id), score, reason };
    }),
  });
}

function draft(system: string): string {
  if (/title on the first line/.test(system)) {
    return 'Sample post written by the demo model\n\nThis is demo text, not a language model\'s: set LLM_BASE_URL and LLM_MODEL for real drafts. Edit it before you publish.';
  }
  return 'Sample reply written by the demo model: this is demo text, not a language model\'s. Set LLM_BASE_URL and LLM_MODEL for real drafts, and edit it before you publish.';
}

/** The answer to a `POST /v1/chat/completions` body, or null when the body is not a chat request. */
export function demoCompletion(body: unknown, created: number): Json | null {
  if (!isObject(body) || !Array.isArray(body.messages)) return null;
  const text = (role: string) => {
    const message = (body.messages as unknown[]).find((entry) => isObject(entry) && entry.role === role);
    return isObject(message) && typeof message.content === 'string' ? message.content : '';
  };
  const format = isObject(body.response_format) && isObject(body.response_format.json_schema) ? body.response_format.json_schema.name : undefined;
  const content = format === 'verdicts' ? verdicts(text('system'), text('user')) : draft(text('system'));
  const promptTokens = Math.ceil((text('system').length + text('user').length) / 4);
  const completionTokens = Math.ceil(content.length / 4);
  return {
    id: `chatcmpl-demo-${created}`,
    object: 'chat.completion',
    created,
    model: DEMO_MODEL,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  };
}
