import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { oneOf } from '../../shared/http/schemas.ts';
import { advertisedSchema, argumentsOf, checkerOf } from './mcp.schemas.ts';

const union = oneOf(
  [
    Type.Object({ type: Type.Literal('reply', { description: 'A reply' }), post_id: Type.String({ pattern: '^t3_', 'x-rule': 'must start with t3_' }) }, { additionalProperties: false, title: 'Reply' }),
    Type.Object({ type: Type.Literal('post', { description: 'A post' }), subreddit: Type.String() }, { additionalProperties: false, title: 'Post' }),
  ],
  { title: 'Draft' },
);

describe('tool arguments from the API schemas', () => {
  it('a union is advertised as one object: literals as a described enum, required only where every shape requires it', () => {
    expect(advertisedSchema(argumentsOf(union, { confirm: Type.Optional(Type.Boolean()) }))).toEqual({
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
});
