import { SerializerSelector, type SerializerFactory, type Serializer } from '@fastify/fast-json-stringify-compiler';
import type { FastifySchemaCompiler } from 'fastify';

/**
 * A schema's validator and serializer, compiled once per process and shared by every server built in
 * it. Compiling was about two thirds of building a server (fast-json-stringify alone half of it); the
 * service builds one, but a test run builds some three hundred in each worker, from the same schema
 * objects. A compiled function depends only on its schema and the server's shared schemas, which are
 * part of the key, so a server gets the very function it would have compiled.
 */
export function compiledOnce<Schema>(compile: FastifySchemaCompiler<Schema>): FastifySchemaCompiler<Schema> {
  const compiled = new WeakMap<object, Map<string, ReturnType<FastifySchemaCompiler<Schema>>>>();
  return (route) => {
    const byPart = compiled.get(route.schema as object) ?? new Map();
    compiled.set(route.schema as object, byPart);
    const known = byPart.get(route.httpPart ?? 'body');
    if (known) return known;
    const validate = compile(route);
    byPart.set(route.httpPart ?? 'body', validate);
    return validate;
  };
}

const buildSerializer = SerializerSelector();
const serializers = new WeakMap<object, Map<string, Serializer>>();

/** Fastify's own serializer factory (`schemaController.compilersFactory.buildSerializer`), compiled once per schema. */
export const serializersCompiledOnce: SerializerFactory = (externalSchemas, options) => {
  const compile = buildSerializer(externalSchemas, options);
  const shared = JSON.stringify([externalSchemas, options ?? null]);
  return (route) => {
    const byShared = serializers.get(route.schema as object) ?? new Map();
    serializers.set(route.schema as object, byShared);
    const known = byShared.get(shared);
    if (known) return known;
    const serialize = compile(route);
    byShared.set(shared, serialize);
    return serialize;
  };
};
