import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import type { FakeLlm } from '../support/fake-llm.ts';
import { ledgerSum } from '../support/ledger.ts';
import { PRICES, startPublishingApp, type PublishingApp } from '../support/publishing.ts';

const usage = { prompt_tokens: 12, completion_tokens: 0, total_tokens: 12 };
/** A 200 Chat Completions body with these choices, as the fake sends it (see test/support/fake-llm.ts). */
const completion = (choices: unknown) => ({ id: 'chatcmpl-odd', object: 'chat.completion', created: 0, model: 'fake-model', choices, usage });
const withContent = (content: unknown, finish_reason = 'stop') =>
  completion([{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason, logprobs: null }]);
/** Code points, as Reddit and publish's schema count characters. */
const characters = (text: string) => [...text].length;

describe.each(engines)('POST /api/v1/generate with answers that are empty, odd or over-long on %s', (engine) => {
  let app: PublishingApp;
  let defaultReply: FakeLlm['reply'];
  beforeAll(async () => {
    app = await startPublishingApp(engine);
    defaultReply = app.llm.reply;
  });
  afterEach(() => {
    app.llm.reply = defaultReply;
  });
  afterAll(() => app.close());

  const draftPost = (token: string, extra: Record<string, unknown> = {}) =>
    app.api('POST', '/api/v1/generate', { token, body: { type: 'post', subreddit: 'r/node', instructions: 'Tips list', ...extra } });
  const ledgerMatches = async (accountId: string) =>
    expect(await ledgerSum(app.services.db, accountId)).toBe(await app.services.credits.spendableBalance(accountId));

  it.each<[string, (llm: FakeLlm) => void, string]>([
    ['content: null', (llm) => (llm.reply = () => null), 'content null, finish_reason stop'],
    ['content: null cut off by the token limit', (llm) => llm.answerNext(withContent(null, 'length')), 'content null, finish_reason length'],
    ['an empty string', (llm) => (llm.reply = () => ''), 'empty content, finish_reason stop'],
    ['only whitespace', (llm) => (llm.reply = () => ' \n\t '), 'empty content, finish_reason stop'],
    ['an empty list of choices', (llm) => llm.answerNext(completion([])), 'no choices'],
    ['no choices at all', (llm) => llm.answerNext({ id: 'chatcmpl-odd', object: 'chat.completion', model: 'fake-model', usage }), 'no choices'],
    ['a choice without a message', (llm) => llm.answerNext(completion([{ index: 0, finish_reason: 'stop' }])), 'a choice without a message'],
    ['content that is a number', (llm) => llm.answerNext(withContent(42)), 'content that is not text (number)'],
    ['content that is a list of parts', (llm) => llm.answerNext(withContent([{ type: 'text', text: 'Hi' }])), 'content that is not text (array)'],
    ['JSON null instead of a completion', (llm) => llm.answerNext(null), 'something that is not a chat completion'],
    ['a JSON string instead of a completion', (llm) => llm.answerNext('Sure! Here is your post.'), 'something that is not a chat completion'],
  ])('a model answering with %s is a 502 generate.empty_draft with generation_id: failed, refunded, the ledger exact', async (_name, arrange, what) => {
    const { token, accountId } = await app.accountWithKey(10);
    arrange(app.llm);
    const response = await draftPost(token);

    expect(response.status).toBe(502);
    const problem = await response.json();
    expect(problem).toMatchObject({ code: 'generate.empty_draft', generation_id: expect.stringMatching(/^gen_[0-9a-f]{28}$/) });
    expect(problem.detail).toContain(`(${what})`);
    expect(problem.detail).toContain('the charge was refunded in full');
    const stored = await (await app.api('GET', `/api/v1/generations/${problem.generation_id}`, { token })).json();
    expect(stored).toMatchObject({ status: 'failed', title: null, body: null, credits: { charged: 0 }, error: `the language model answered with ${what}` });
    const ledger = await (await app.api('GET', '/api/v1/usage', { token })).json();
    expect(ledger.data.slice(0, 2)).toMatchObject([
      { type: 'refund', amount: PRICES.generate, generation_id: problem.generation_id },
      { type: 'charge', amount: -PRICES.generate, generation_id: problem.generation_id },
    ]);
    expect(await app.services.credits.spendableBalance(accountId)).toBe(10);
    await ledgerMatches(accountId);
  });

  it('a 2 MB reply answer is cut at a word to 40,000 characters, stored so and charged once', async () => {
    const { token, accountId } = await app.accountWithKey(10);
    app.reddit.posts.push({ id: 'huge1', subreddit: 'node', title: 'Long answers?', selftext: 'Go on.', created_utc: Math.floor(Date.now() / 1000) });
    const answer = 'words '.repeat(350_000); // 2.1 MB; a cut at 40,000 falls inside a word
    app.llm.reply = () => answer;
    const response = await app.api('POST', '/api/v1/generate', { token, body: { type: 'reply', post_id: 't3_huge1', instructions: 'x' } });

    expect(response.status).toBe(200);
    const draft = await response.json();
    expect(draft.body).toBe(answer.slice(0, 39_996).trimEnd()); // 6,666 whole "words", the partial one dropped
    expect(characters(draft.body)).toBeLessThanOrEqual(40_000);
    expect(draft.credits.charged).toBe(PRICES.generate);
    expect((await (await app.api('GET', `/api/v1/generations/${draft.id}`, { token })).json()).body).toBe(draft.body);
    expect(await app.services.credits.spendableBalance(accountId)).toBe(10 - PRICES.generate);
    await ledgerMatches(accountId);
  });

  it('a body of exactly 40,000 characters is kept whole', async () => {
    const { token } = await app.accountWithKey(10);
    const body = 'words '.repeat(6_666) + 'word'; // 39,996 + 4
    app.llm.reply = () => `A title\n\n${body}`;
    const draft = await (await draftPost(token)).json();
    expect(draft).toMatchObject({ status: 'completed', title: 'A title', body });
  });

  it('a post answer with a 2,000-character title line and a 2 MB body keeps 300 characters of title and 40,000 of body, cut at words', async () => {
    const { token } = await app.accountWithKey(10);
    app.llm.reply = () => `Title: ${'Title words '.repeat(170)}\n\n${'body words '.repeat(200_000)}`;
    const draft = await (await draftPost(token)).json();
    expect(draft.status).toBe('completed');
    expect(draft.title).toBe('Title words '.repeat(25).trimEnd()); // 299 characters: the next word would pass 300
    expect(draft.body).toBe('body words '.repeat(3_636) + 'body'); // exactly 40,000: the cut falls between two words
    expect(characters(draft.body)).toBeLessThanOrEqual(40_000);
  });

  it('characters are counted as Unicode code points, as Reddit counts them, and a cut never splits one; publish accepts the draft', async () => {
    const account = await app.connectedAccount(100);
    // Each emoji is one code point and two UTF-16 units: a UTF-16 count would keep half as many.
    app.llm.reply = () => `${'🙂'.repeat(400)}\n\n${'🙂'.repeat(50_000)}`;
    const draft = await (await draftPost(account.token)).json();
    expect(draft).toMatchObject({ status: 'completed', title: '🙂'.repeat(300), body: '🙂'.repeat(40_000) });

    const published = await app.api('POST', '/api/v1/publish', { token: account.token, body: { generation_id: draft.id } });
    expect(published.status).toBe(200);
    expect(app.reddit.user.submissions.at(-1)).toMatchObject({ sr: 'node', title: draft.title, text: draft.body });
    await ledgerMatches(account.accountId);
  });

  it('an answer with absurd usage and model fields still makes a draft: unknown counts are 0, the model is the configured one', async () => {
    const { token, accountId } = await app.accountWithKey(10);
    app.llm.answerNext({
      ...withContent('A title\n\nA body.'),
      model: 42,
      usage: { prompt_tokens: 'many', completion_tokens: -3, total_tokens: 1.5 },
    });
    const response = await draftPost(token);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      status: 'completed',
      model: 'fake-model',
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      credits: { charged: PRICES.generate },
    });
    await ledgerMatches(accountId);
  });
});
