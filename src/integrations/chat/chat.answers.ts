/**
 * What every alert channel's client (Slack, Discord, Telegram, SMTP) does the same way with an answer
 * or a failure: clip what is recorded, say why a call failed without the address it went to (which
 * holds a secret), and read a JSON body that may be a proxy's page instead.
 */

/** What an attempt records of the answer, and what the owner is shown. */
export const ANSWER_LIMIT = 500;

export const clip = (text: string, limit = ANSWER_LIMIT) => (text.length > limit ? text.slice(0, limit) : text);

/** "0.2 s", "10 s": how a timeout reads in an error. */
export const seconds = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;

/** ": words", or nothing when the service said nothing. */
export const said = (words: string) => (words ? `: ${words}` : '');

/** `text` with every secret cut out (longest first, so no part of a longer one is left). */
export const redact = (text: string, secrets: string[]) => secrets.reduce((clean, secret) => clean.split(secret).join('…'), text);

export function isTimeout(cause: unknown): boolean {
  const name = cause instanceof Error || cause instanceof DOMException ? cause.name : '';
  return name === 'TimeoutError' || name === 'AbortError';
}

/** ECONNREFUSED, ENOTFOUND…: says why without the address (undici puts the socket error in `cause`). */
export function networkCode(cause: unknown): string | null {
  const inner = (cause as { cause?: { code?: unknown } } | null)?.cause;
  const code = inner?.code;
  return typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code) ? code : null;
}

export const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A JSON object body, or {} for anything else. */
export function parseObject(body: string): Record<string, unknown> {
  if (!body.trimStart().startsWith('{')) return {};
  try {
    const value: unknown = JSON.parse(body);
    return isObject(value) ? value : {};
  } catch {
    // A proxy's page cut to look like JSON: classified by status alone.
    return {};
  }
}
