import { describe, expect, it } from 'vitest';
import { judgePrompt, readVerdicts, VERDICTS_SCHEMA } from '../../../modules/relevance/relevance.prompt.ts';
import { buildPrompt } from '../../../modules/generate/generate.prompt.ts';
import { DEMO_MODEL, demoCompletion } from './demo.model.ts';

const answer = (body: unknown) => demoCompletion(body, 1_800_000_000) as { model: string; choices: { message: { content: string } }[] };
const item = (title: string, body: string) => ({ key: title, type: 'post' as const, subreddit: 'r/node', title, body, author: 'demo_a' });

describe('the demo model', () => {
  it('answers the relevance judge with a verdict per item, scored by the words shared with the intent', () => {
    const { system, user } = judgePrompt('someone choosing a query builder', [item('Which query builder?', 'I am choosing one'), item('Streams', 'Nothing here')]);
    const completion = answer({ model: 'x', messages: [{ role: 'system', content: system }, { role: 'user', content: user }], response_format: { type: 'json_schema', json_schema: { name: 'verdicts', strict: true, schema: VERDICTS_SCHEMA } } });
    expect(completion.model).toBe(DEMO_MODEL);
    const { verdicts, problem } = readVerdicts(completion.choices[0]!.message.content, 2);
    expect(problem).toBeNull();
    // Three of the intent's four words ("someone" is not in it).
    expect(verdicts.get(1)).toEqual({ score: 75, reason: expect.stringMatching(/^Demo judge \(word overlap, not a language model\): .*"choos", "query", "build"/) });
    expect(verdicts.get(2)).toEqual({ score: 0, reason: expect.stringMatching(/shares no word/) });
  });

  it('answers a draft with a sample text that says what it is', () => {
    const { system, user } = buildPrompt({ type: 'reply', subreddit: 'r/node', reply: { post: { title: 'Kysely?', body: 'Which one' } } } as Parameters<typeof buildPrompt>[0]);
    const text = answer({ model: 'x', messages: [{ role: 'system', content: system }, { role: 'user', content: user }] }).choices[0]!.message.content;
    expect(text).toMatch(/^Sample reply written by the demo model: this is demo text, not a language model's/);
    expect(demoCompletion({ prompt: 'not chat' }, 0)).toBeNull();
  });
});
