import { TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox';
import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import type { TSchema } from 'typebox';

const DIGITS = /^[0-9]+$/;

/** The names of a schema's integer properties (query strings and paths are flat objects). */
function integerProperties(schema: TSchema): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  return Object.entries(properties).flatMap(([name, property]) => (property.type === 'integer' ? [name] : []));
}

/**
 * TypeBox's compiler, stricter where a value arrives as text. It converts a query string or path value
 * with Number(), which reads `1e1`, ` 5`, `5.0`, `+5` and `0x5` as integers; an integer here is written
 * in digits only, as its schema says, and anything else is a 422 naming the parameter. Bodies are JSON
 * and keep their types.
 */
export const strictValidatorCompiler: FastifySchemaCompiler<TSchema> = (route) => {
  const validate = TypeBoxValidatorCompiler(route);
  const integers = route.httpPart === 'querystring' || route.httpPart === 'params' ? integerProperties(route.schema) : [];
  if (integers.length === 0) return validate;
  return (value) => {
    const input = value as Record<string, unknown>;
    const errors: FastifySchemaValidationError[] = integers.flatMap((name) => {
      const raw = input[name];
      if (typeof raw !== 'string' || DIGITS.test(raw)) return [];
      return [{ keyword: 'type', instancePath: `/${name}`, schemaPath: `#/properties/${name}`, params: {}, message: 'must be an integer written in digits' }];
    });
    return errors.length > 0 ? { error: errors } : validate(value);
  };
};
