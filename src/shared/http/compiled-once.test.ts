import { describe, expect, it } from 'vitest';
import { compiledOnce, serializersCompiledOnce } from './compiled-once.ts';

const schema = { type: 'object', properties: { n: { type: 'integer' } } };
const route = { schema, method: 'GET', url: '/x' };

describe('schemas compiled once per process', () => {
  it('a validator is compiled once per schema and part, and a new schema object compiles again', () => {
    let compiles = 0;
    const compile = compiledOnce(() => {
      compiles += 1;
      return () => true;
    });
    const first = compile({ ...route, httpPart: 'querystring' });
    expect(compile({ ...route, url: '/y', httpPart: 'querystring' })).toBe(first);
    expect(compile({ ...route, httpPart: 'body' })).not.toBe(first);
    compile({ ...route, schema: { ...schema }, httpPart: 'querystring' });
    expect(compiles).toBe(3);
  });

  it('a serializer is shared only between servers with the same shared schemas, and writes what Fastify would', () => {
    const shared = { problem: { $id: 'problem', type: 'object', properties: { code: { type: 'string' } } } };
    const serializer = serializersCompiledOnce(shared, {})({ ...route, httpStatus: '200' });
    expect(serializersCompiledOnce({ ...shared }, {})({ ...route, httpStatus: '200' })).toBe(serializer);
    expect(serializersCompiledOnce({}, {})({ ...route, httpStatus: '200' })).not.toBe(serializer);
    expect(serializer({ n: 5, secret: 'dropped' })).toBe('{"n":5}');
  });
});
