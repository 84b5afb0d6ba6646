import Type, { type TSchema } from 'typebox';
import { describe, expect, it } from 'vitest';
import { strictValidatorCompiler } from './validator.ts';

type Part = 'body' | 'querystring' | 'params' | 'headers';

/** The messages the server's validator gives for a value, as a 422 lists them. */
function messages(schema: TSchema | Record<string, unknown>, value: unknown, httpPart: Part = 'body'): string[] {
  const validate = strictValidatorCompiler({ schema: schema as TSchema, method: 'POST', url: '/test', httpPart });
  const result = validate(value) as { error?: { message: string }[] };
  return (result.error ?? []).map((error) => error.message);
}

const RAW = /must be equal to constant|must match a schema in anyOf|exactly one schema in oneOf|must match pattern|must NOT have|must not have|must be [<>]=?|schema is false|required properties|additional properties|allowed values/;

describe('validation messages are worded from the failing schema', () => {
  const body = Type.Object(
    {
      sort: Type.Optional(Type.Union([Type.Literal('new'), Type.Literal('relevance'), Type.Literal('top')])),
      cap: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 100, description: 'Per day; null: no cap' }), Type.Null()])),
      subreddits: Type.Optional(Type.Array(Type.String({ pattern: '^r/[a-z]+$', 'x-rule': 'must be r/name' }), { minItems: 1, maxItems: 20, uniqueItems: true })),
      name: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      url: Type.Optional(Type.String({ format: 'uri' })),
      step: Type.Optional(Type.Number({ exclusiveMinimum: 0, multipleOf: 5 })),
      tags: Type.Optional(Type.Union([Type.String({ maxLength: 3 }), Type.Array(Type.String(), { maxItems: 2 })])),
      on: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false },
  );

  it('a union of literals is one message listing the allowed values, not one per branch', () => {
    expect(messages(body, { sort: 'newest' })).toEqual(['sort must be one of new, relevance, top (got "newest")']);
  });

  it('a value that could be a secret is never repeated', () => {
    const key = `ak_live_${'5e'.repeat(32)}`;
    expect(messages(body, { sort: key })).toEqual(['sort must be one of new, relevance, top']);
    expect(messages(body, { subreddits: ['has spaces in it'] })).toEqual(['subreddits[0] must be r/name']);
  });

  it('a nullable whole number says its range, that null is allowed, and what null means', () => {
    expect(messages(body, { cap: 0 })).toEqual(['cap is a whole number from 1 to 100, or null for no cap']);
    expect(messages(body, { cap: 'lots' })).toEqual(['cap is a whole number from 1 to 100, or null for no cap (got a string)']);
  });

  it('a pattern is worded by its x-rule, never shown as an expression', () => {
    const [message] = messages(body, { subreddits: ['typescript'] });
    expect(message).toBe('subreddits[0] must be r/name (got "typescript")');
  });

  it('a schema with a pattern but no x-rule is refused when the route is compiled', () => {
    expect(() => messages(Type.Object({ id: Type.String({ pattern: '^x$' }) }), {})).toThrow(/x-rule/);
  });

  it.each([
    [{ subreddits: [] }, 'subreddits holds 1 to 20 items'],
    [{ subreddits: ['r/a', 'r/a'] }, 'subreddits must list each value only once'],
    [{ name: '' }, 'name is 1 to 64 characters long'],
    [{ name: 7 }, 'name must be a string of 1 to 64 characters (got a whole number)'],
    [{ url: 'not a url' }, 'url must be an absolute URL'],
    [{ step: 0 }, 'step is a number greater than 0'],
    [{ step: 7 }, 'step must be a multiple of 5'],
    [{ on: 'yes' }, 'on must be true or false (got a string)'],
    [{ tags: 'long' }, 'tags is at most 3 characters long'],
    [{ tags: ['a', 'b', 'c'] }, 'tags holds at most 2 items'],
    [{ tags: 5 }, 'tags must be a string or an array (got a whole number)'],
  ])('%j: %s', (value, message) => {
    expect(messages(body, value)).toEqual([message]);
  });

  it('an unknown field close to a known one suggests it; another lists the known fields', () => {
    expect(messages(body, { subredits: ['r/a'] })).toEqual(['unknown field `subredits` (did you mean `subreddits`?)']);
    expect(messages(body, { color: 1 })).toEqual(['unknown field `color`; known fields: sort, cap, subreddits, name, url, step, tags, on']);
  });

  it('an unknown field named like a key is reported without its name', () => {
    const [message] = messages(body, { [`ak_live_${'5e'.repeat(32)}`]: 1 });
    expect(message).toMatch(/^an unknown field was sent \(its name is not repeated/);
    expect(message).not.toContain('5e5e');
  });

  it('query parameters, path parameters and headers are named as such', () => {
    const query = Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) }, { additionalProperties: false });
    expect(messages(query, { limit: '0' }, 'querystring')).toEqual(['limit is a whole number from 1 to 100']);
    expect(messages(query, { limit: '1e1' }, 'querystring')).toEqual(['limit is a whole number from 1 to 100, written in digits (got "1e1")']);
    expect(messages(query, { limt: '5' }, 'querystring')).toEqual(['unknown query parameter `limt` (did you mean `limit`?)']);
    const headers = Type.Object({ 'idempotency-key': Type.String({ pattern: '^k', 'x-rule': 'must start with k' }) });
    expect(messages(headers, { 'idempotency-key': 'x' }, 'headers')).toEqual(['the Idempotency-Key header must start with k (got "x")']);
    expect(messages(headers, {}, 'headers')).toEqual(['the Idempotency-Key header is required']);
  });

  it('every message above names its field and none is the validator’s own phrase', () => {
    for (const value of [{ sort: 1 }, { cap: 1.5 }, { subreddits: 'r/a' }, { name: 'x'.repeat(65) }, [], 'text']) {
      for (const message of messages(body, value)) expect(message).not.toMatch(RAW);
    }
  });
});

describe('a union told apart by its `type` reports the branch that `type` chooses', () => {
  const reply = Type.Object(
    { type: Type.Literal('reply'), post_id: Type.String({ pattern: '^t3_[a-z0-9]+$', 'x-rule': 'must be a t3_ post id' }), body: Type.String() },
    { additionalProperties: false },
  );
  const post = Type.Object(
    { type: Type.Literal('post'), subreddit: Type.String(), title: Type.String({ maxLength: 300 }) },
    { additionalProperties: false },
  );
  // The shape the OpenAPI document gives a discriminated union: oneOf and a discriminator.
  const discriminated = { oneOf: [reply, post], discriminator: { propertyName: 'type' } };
  // And TypeBox's own union (anyOf) of objects that each fix `type`, with no discriminator keyword.
  const inferred = Type.Union([reply, post]);
  // And as the OpenAPI document writes a literal: an enum of one value.
  const asDocumented = JSON.parse(JSON.stringify(discriminated).replace(/"const":("\w+")/g, '"enum":[$1]'));

  const shapes = [
    ['oneOf with a discriminator', discriminated],
    ['anyOf of objects with a const type', inferred],
    ['oneOf of objects with a one-value enum type', asDocumented],
  ] as const;

  it.each(shapes)('%s: a valid type reports only the errors of its branch', (_label, schema) => {
    expect(messages(schema, { type: 'reply', body: 'hi' })).toEqual(['post_id is required for type reply']);
    expect(messages(schema, { type: 'reply', post_id: 'x', body: 'hi' })).toEqual(['post_id must be a t3_ post id (got "x")']);
    expect(messages(schema, { type: 'post', subreddit: 'r/a', title: 't', body: 'b' })).toEqual([
      'unknown field `body` for type post; known fields: type, subreddit, title',
    ]);
  });

  it.each(shapes)('%s: a missing or unknown type says which types there are', (_label, schema) => {
    expect(messages(schema, { body: 'hi' })).toEqual(['type is required (it must be one of reply, post)']);
    expect(messages(schema, { type: 'comment', body: 'hi' })).toEqual(['type must be one of reply, post (got "comment")']);
    expect(messages(schema, 'text')).toEqual(['the request body must be an object (got a string)']);
  });
});
