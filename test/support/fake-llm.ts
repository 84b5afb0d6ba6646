/**
 * A fake OpenAI-compatible server on 127.0.0.1: `POST /v1/chat/completions` answers Chat Completions
 * JSON with `usage`. `reply` decides the text (default: echoes a short draft), or null for
 * `content: null`, which the wire format allows: the OpenAI API reference's chat completion object
 * (https://platform.openai.com/docs/api-reference/chat/object)
 * gives `choices[].message.content` as "string or null", and openai-node types it
 * `ChatCompletionMessage.content: string | null` (src/resources/chat/completions/completions.ts).
 * `answerNext(json)` sends any other 200 body once (no choices, content that is not text, …);
 * `failNext(status)` answers an OpenAI-style error; `hangNext()` never answers, for timeouts.
 * `requests` keeps the bodies.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  max_tokens?: number;
}

export interface FakeLlm {
  /** The base URL to give as LLM_BASE_URL (ends in /v1). */
  url: string;
  apiKey: string;
  requests: { headers: Record<string, string | undefined>; body: ChatRequest }[];
  reply: (request: ChatRequest) => string | null;
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
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
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
      const plan = planned.shift();
      if (plan === 'hang') return void hanging.add(res);
      if (typeof plan === 'object') return send(res, 200, plan.json);
      if (plan !== undefined) return send(res, plan, { error: { message: 'fake failure', type: 'server_error', code: null } });
      const content = fake.reply(body);
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
