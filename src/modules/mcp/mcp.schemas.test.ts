import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { nullable, oneOf, subredditSchema } from '../../shared/http/schemas.ts';
import { advertisedSchema, argumentsOf, checkerOf } from './mcp.schemas.ts';

const union = oneOf(
  [
    Type.Object({ type: Type.Literal('reply', { description: 'A reply' }), post_id: Type.String({ pattern: '^t3_', 'x-rule': 'must start with t3_' }) }, { additionalProperties: false, title: 'Reply' }),
    Type.Object({ type: Type.Literal('post', { description: 'A post' }), subreddit: Type.String() }, { additionalProperties: false, title: 'Post' }),
  ],
  { title: 'Draft' },
);

const PRICES = { scrapePair: 1, generate: 5, publish: 10, monitorMatch: 1, judge: 2 };

describe('tool arguments from the API schemas', () => {
  it('a union is advertised as one object: literals as a described enum, required only where every shape requires it', () => {
    expect(advertisedSchema(argumentsOf(union, { confirm: Type.Optional(Type.Boolean()) }), PRICES)).toEqual({
      type: 'object',
      description: 'Exactly one of these shapes, with its required fields: Reply (type, post_id); Post (type, subreddit).',
      properties: {
        type: { type: 'string', enum: ['reply', 'post'], description: '"reply": A reply; "post": A post' },
        post_id: { type: 'string', pattern: '^t3_', description: 'must start with t3_' },
        confirm: { type: 'boolean' },
        subreddit: { type: 'string' },
      },
      required: ['type'],
      additionalProperties: false,
    });
  });

  it('the call is checked against the shapes themselves, in the API validator\'s words', () => {
    const check = checkerOf('t', argumentsOf(union));
    expect(check({ type: 'post', subreddit: 'r/node' })).toEqual({ type: 'post', subreddit: 'r/node' });
    expect(() => check({ type: 'reply', subreddit: 'r/node' })).toThrow(/^The arguments are not valid: .*post_id/);
    expect(() => check({ type: 'post', subreddit: 'r/node', extra: 1 })).toThrow(/unknown field `extra`/);
  });

  it('a tool without arguments takes an empty object and nothing else', () => {
    const check = checkerOf('t', argumentsOf(null));
    expect(check(undefined)).toEqual({});
    expect(() => check({ surprise: true })).toThrow(/unknown field `surprise`/);
  });

  it('a nullable field says what it is at the field itself, not inside its anyOf, with the prices as amounts', () => {
    const schema = Type.Object({ intent: nullable(Type.String({ description: 'Judged for PRICE_JUDGE credits; drafted for PRICE_GENERATE each' })) });
    const { properties } = advertisedSchema(argumentsOf(schema), PRICES) as { properties: Record<string, { description?: string; anyOf: object[] }> };
    expect(properties.intent).toEqual({ description: 'Judged for 2 credits; drafted for 5 credits each', anyOf: [{ type: 'string' }, { type: 'null' }] });
  });

  it('a subreddit field lists its forms in words, and keeps no validator-only mark', () => {
    const { properties } = advertisedSchema(argumentsOf(Type.Object({ subreddit: subredditSchema('Where to post') })), PRICES) as {
      properties: Record<string, Record<string, unknown>>;
    };
    expect(properties.subreddit!.description).toMatch(/^Where to post: r\/name, name, \/r\/name or a Reddit link .*; must be a subreddit: /);
    expect(properties.subreddit!.examples).toContain('https://www.reddit.com/r/typescript/');
    expect(Object.keys(properties.subreddit!).filter((key) => key.startsWith('x-'))).toEqual([]);
  });
});
