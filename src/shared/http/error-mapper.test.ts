import type { FastifyError } from 'fastify';
import { describe, expect, it } from 'vitest';
import { isHarmlessName, toAppError } from './error-mapper.ts';

const KEY = `ak_live_${'0f'.repeat(32)}`;

function validationError(validation: unknown[]): FastifyError {
  return Object.assign(new Error('invalid'), { validation, validationContext: 'body' }) as unknown as FastifyError;
}

describe('validation problems never repeat a name the caller sent unless it is harmless', () => {
  it.each([
    ['subredit', true],
    ['include_nsfw', true],
    ['webhookUrl', true],
    [KEY, false],
    [KEY.slice(0, 40), false],
    ['sk_test_abc', false],
    ['x'.repeat(65), false],
    ['a b', false],
    ['deadbeefdeadbeef00', false],
    ['Abcdefghijklmnopqrstuvwxyz', false],
  ])('%s is harmless: %s', (name, harmless) => {
    expect(isHarmlessName(name)).toBe(harmless);
  });

  it('an unknown property deep in the body is reported at its parent, and unknown names in paths become *', () => {
    const error = toAppError(
      validationError([
        { keyword: 'boolean', schemaPath: '#/properties/n/additionalProperties', instancePath: `/n/${KEY}`, params: {}, message: 'schema is false' },
        { keyword: 'additionalProperties', schemaPath: '#/properties/n', instancePath: '/n', params: { additionalProperties: [KEY, 'typo'] }, message: 'x' },
        { keyword: 'type', schemaPath: '#/patternProperties', instancePath: `/tags/${KEY}/0`, params: {}, message: 'must be string' },
      ]),
    );
    expect(error.extra.errors).toEqual([
      { path: '/n', message: 'has an unknown property' },
      { path: '/n', message: 'has an unknown property "typo"' },
      { path: '/tags/*/0', message: 'must be string' },
    ]);
    expect(error.message).not.toContain(KEY);
  });
});
