import { TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox';
import type { FastifySchemaCompiler } from 'fastify';
import type { TSchema } from 'typebox';
import { Settings } from 'typebox/system';
import { withoutFieldRules } from './field-rules.ts';
import { explainErrors, type Issue, type RawError, type Schema } from './validation-issues.ts';
import { fieldName, got, RULE_KEYWORD, rules, type RequestPart } from './validation-messages.ts';

const DIGITS = /^[0-9]+$/;

// TypeBox stops collecting a value's errors at 8 by default. A union reports every branch's errors
// before its own, so the branch the caller meant (publish has three) could be cut off; 64 still caps
// what a hostile body can make the validator buffer.
Settings.Set({ maxErrors: 64 });

/** The properties of a schema by name (headers, query strings and paths are flat objects). */
const propertiesOf = (schema: TSchema): [string, Schema][] => Object.entries((schema as { properties?: Record<string, Schema> }).properties ?? {});

/** The integer properties of a schema. */
const integerProperties = (schema: TSchema) => propertiesOf(schema).filter(([, property]) => property.type === 'integer');

/**
 * Whether a schema is an object whose every property is a string: such values arrive as text and need
 * no conversion. Any other shape (a union, say) keeps TypeBox's conversion.
 */
const textOnly = (schema: TSchema) => (schema as Schema).type === 'object' && propertiesOf(schema).every(([, property]) => property.type === 'string');

/** Every `pattern` in a schema must say in words what it wants: messages show that, never the expression. */
function requireRules(schema: unknown, where: string): void {
  if (schema === null || typeof schema !== 'object') return;
  const node = schema as Schema;
  if (typeof node.pattern === 'string' && typeof node[RULE_KEYWORD] !== 'string') {
    throw new Error(`${where}: the schema with pattern ${node.pattern} has no '${RULE_KEYWORD}' wording it for people`);
  }
  for (const child of Object.values(node)) requireRules(child, where);
}

/**
 * TypeBox's compiler, with its errors worded for people (validation-issues.ts) and stricter where a
 * value arrives as text: it converts a query string or path value with Number(), which reads `1e1`,
 * ` 5`, `5.0`, `+5` and `0x5` as integers; an integer here is written in digits only, as its schema
 * says, and anything else is a 422 naming the parameter. Bodies are JSON and keep their types.
 */
export const strictValidatorCompiler: FastifySchemaCompiler<TSchema> = (documented) => {
  // Rules between fields are the usecases' to refuse, with codes of their own (field-rules.ts).
  const route = { ...documented, schema: withoutFieldRules(documented.schema) };
  requireRules(route.schema, `${route.method} ${route.url} ${route.httpPart}`);
  const part = (route.httpPart ?? 'body') as RequestPart;
  // TypeBox's compiler converts every part but the body before checking it (Value.Convert, about 5 µs
  // a call in the profile of the 402 path); a part whose values are all text needs no conversion, so
  // it is compiled as a body is.
  const validate = TypeBoxValidatorCompiler(textOnly(route.schema) ? { ...route, httpPart: 'body' } : route);
  const integers = part === 'querystring' || part === 'params' ? integerProperties(route.schema) : [];
  return (value) => {
    const input = value as Record<string, unknown>;
    const notDigits: Issue[] = integers.flatMap(([name, property]) => {
      const raw = input[name];
      if (typeof raw !== 'string' || DIGITS.test(raw)) return [];
      const message = `${fieldName(`/${name}`, part)} ${rules.number(property)}, written in digits${got(raw)}`;
      return [{ keyword: 'type', instancePath: `/${name}`, schemaPath: `#/properties/${name}`, params: {}, message }];
    });
    if (notDigits.length > 0) return { error: notDigits };
    const result = validate(value) as { value?: unknown; error?: RawError[] };
    if (!result.error) return result;
    return { error: explainErrors(result.error, { schema: route.schema as Schema, part, value }) };
  };
};
