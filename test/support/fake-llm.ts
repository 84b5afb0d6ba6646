/**
 * A fake OpenAI-compatible server on 127.0.0.1: `POST /v1/chat/completions` answers Chat Completions
 * JSON with `usage`. `reply` decides the text (default: echoes a short draft), or null for
 * `content: null`, which the wire format allows: the OpenAI API reference's chat completion object
 * (https://platform.openai.com/docs/api-reference/chat/object)
 * gives `choices[].message.content` as "string or null", and openai-node types it
 * `ChatCompletionMessage.content: string | null` (src/resources/chat/completions/completions.ts).
 * `answerNext(json)` sends any other 200 body once (no choices, content that is not text, …);
 * `failNext(status)` answers an OpenAI-style error; `hangNext()` never answers, for timeouts;
 * `down` answers every request 503 while set; `slowMs` delays every answer. `requests` keeps the bodies.
 *
 * Judge mode: a request with `response_format: { type: 'json_schema', json_schema: { name, strict, schema } }`
 * (OpenAI structured outputs, https://platform.openai.com/docs/guides/structured-outputs; openai-node's
 * `ResponseFormatJSONSchema`, src/resources/shared.ts) is answered as such an endpoint does: the JSON as
 * a string in `choices[0].message.content`. Its verdicts come from `verdict`, one for each item of the
 * user message, which the relevance prompt writes as one JSON object a line (relevance.prompt.ts).
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  max_tokens?: number;
  response_format?: { type: string; json_schema?: { name: string; strict?: boolean; schema?: Record<string, unknown> } };
}

/** An item of a judge request as the prompt lists it (`post_title` for a comment is read as `title`). */
export interface JudgedItem {
  id: string;
  type: string;
  subreddit: string;
  title: string;
  author: string;
  text: string;
}

/**
 * The default verdict: asking for a recommendation is what the tests' intents look for. Deterministic,
 * and its reason quotes the deciding words as the prompt asks.
 */
export function defaultVerdict(item: JudgedItem): { score: number; reason: string } {
  const words = /recommend|which tool/i.exec(`${item.title} ${item.text}`)?.[0];
  if (words) return { score: 85, reason: `The ${item.type} asks for a pick: "${words}".` };
  return { score: 20, reason: `The ${item.type} is about "${(item.title || item.text).slice(0, 40)}", not asking for a tool.` };
}

/** A 200 Chat Completions body with this content, for `answerNext` (a judge answer that is not JSON, …). */
export function chatCompletion(content: unknown, model = 'fake-model') {
  return {
    id: 'chatcmpl-planned',
    object: 'chat.completion',
    created: 0,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop', logprobs: null }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

export interface FakeLlm {
  /** The base URL to give as LLM_BASE_URL (ends in /v1). */
  url: string;
  apiKey: string;
  requests: { headers: Record<string, string | undefined>; body: ChatRequest }[];
  reply: (request: ChatRequest) => string | null;
  /** Judge mode's verdict for one item (default: `defaultVerdict`). */
  verdict: (item: JudgedItem) => { score: number; reason: string };
  /** Every answer (planned ones included) waits this long; 0 by default. */
  slowMs: number;
  /** While true, every request is answered 503 (planned answers wait their turn). */
  down: boolean;
  /** The next answer is a 200 with this JSON instead of a completion. */
  answerNext(json: unknown): void;
  failNext(status: number, count?: number): void;
  hangNext(count?: number): void;
  /** Ends the requests held by hangNext (their callers see the connection close). */
  dropHanging(): void;
  close(): Promise<void>;
}

export async function startFakeLlm(): Promise<FakeLlm> {
  const planned: ('hang' | number | { json: unknown })[] = [];
  const hanging = new Set<ServerResponse>();
  let serial = 0;
  const fake: FakeLlm = {
    url: '',
    apiKey: 'fake-llm-key',
    requests: [],
    reply: (request) => `A helpful draft about: ${request.messages.at(-1)?.content.split('\n')[0] ?? ''}`,
    verdict: defaultVerdict,
    slowMs: 0,
    down: false,
    answerNext(json) {
      planned.push({ json });
    },
    failNext(status, count = 1) {
      for (let i = 0; i < count; i++) planned.push(status);
    },
    hangNext(count = 1) {
      for (let i = 0; i < count; i++) planned.push('hang');
    },
    dropHanging() {
      for (const res of hanging) res.destroy();
      hanging.clear();
    },
    close: () =>
      new Promise((resolve) => {
        for (const res of hanging) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };

  const send = (res: ServerResponse, status: number, body: unknown) => {
    const write = () => {
      if (res.destroyed || !res.socket || res.socket.destroyed) return; // the caller gave up while it waited
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (fake.slowMs > 0) setTimeout(write, fake.slowMs);
    else write();
  };

  /** The verdicts JSON for a judge request: one for each item line of its user message. */
  const judge = (request: ChatRequest) => {
    const items = (request.messages.at(-1)?.content ?? '').split('\n').flatMap((line) => {
      if (!line.startsWith('{')) return [];
      const item = JSON.parse(line) as Partial<JudgedItem> & { post_title?: string };
      return [{ id: item.id ?? '', type: item.type ?? '', subreddit: item.subreddit ?? '', title: item.title ?? item.post_title ?? '', author: item.author ?? '', text: item.text ?? '' }];
    });
    return JSON.stringify({ verdicts: items.map((item) => ({ id: item.id, ...fake.verdict(item) })) });
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) return send(res, 404, { error: { message: 'not found' } });
      if (req.headers.authorization !== `Bearer ${fake.apiKey}`) {
        return send(res, 401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } });
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest;
      fake.requests.push({ headers: { ...req.headers } as Record<string, string | undefined>, body });
      if (fake.down) return send(res, 503, { error: { message: 'fake outage', type: 'server_error', code: null } });
      const plan = planned.shift();
      if (plan === 'hang') return void hanging.add(res);
      if (typeof plan === 'object') return send(res, 200, plan.json);
      if (plan !== undefined) return send(res, plan, { error: { message: 'fake failure', type: 'server_error', code: null } });
      const content = body.response_format?.type === 'json_schema' ? judge(body) : fake.reply(body);
      const prompt = body.messages.reduce((n, m) => n + Math.ceil(m.content.length / 4), 0);
      const completion = Math.ceil((content?.length ?? 0) / 4);
      send(res, 200, {
        id: `chatcmpl-${++serial}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null }],
        usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return fake;
}
