import type { FastifyError } from 'fastify';
import { describe, expect, it } from 'vitest';
import { toAppError } from './error-mapper.ts';
import { isHarmlessName } from './validation-messages.ts';

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

  it('a name in a path that the schema did not give becomes *, and the worded messages make the detail', () => {
    const error = toAppError(
      validationError([{ keyword: 'type', schemaPath: '#/patternProperties', instancePath: `/tags/${KEY}/0`, params: {}, message: 'tags.*[0] must be a string' }]),
    );
    expect(error.extra.errors).toEqual([{ path: '/tags/*/0', message: 'tags.*[0] must be a string' }]);
    expect(error.message).toBe('The request body is not valid: tags.*[0] must be a string.');
    expect(error.message).not.toContain(KEY);
  });
});

describe('a client that hangs up is not the database', () => {
  it('a request body cut off by the client is request.aborted', () => {
    const aborted = Object.assign(new Error('aborted'), { code: 'ECONNRESET' }) as unknown as FastifyError;
    expect(toAppError(aborted).code).toBe('request.aborted');
  });

  it('a connection reset under a query is still the database being unreachable', () => {
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) as unknown as FastifyError;
    expect(toAppError(reset).code).toBe('unavailable');
  });
});
