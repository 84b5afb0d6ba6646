import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { hasFieldRules } from '../../src/shared/http/field-rules.ts';

/** A JSON Schema node as the OpenAPI document writes it (2020-12 keywords, `$ref` into components). */
export type Schema = {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  not?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  [keyword: string]: unknown;
};

/** The part of the document that `$ref`s point into. */
export type Components = { schemas: Record<string, Schema> };

export const deref = (schema: Schema, components: Components): Schema => {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  const target = components.schemas[name];
  if (!target) throw new Error(`unresolved $ref ${schema.$ref}`);
  return deref(target, components);
};

/** Length as JSON Schema counts it: in code points, not UTF-16 units. */
export const codePoints = (text: string) => [...text].length;

/** A union's branches; an object's rules between its fields (field-rules.ts) are not a union. */
export const unionOf = (schema: Schema): Schema[] | undefined => (hasFieldRules(schema) ? undefined : (schema.anyOf ?? schema.oneOf));

/** The values of an enumeration, also when written as a union of one-value enums (TypeBox's literals). */
export function enumValues(schema: Schema, components: Components): unknown[] | null {
  if (schema.enum) return schema.enum;
  if ('const' in schema) return [schema.const];
  const branches = unionOf(schema);
  if (!branches) return null;
  const values = branches.map((branch) => enumValues(deref(branch, components), components));
  return values.every((v): v is unknown[] => v !== null) ? values.flat() : null;
}

export interface ArbitraryOptions {
  /**
   * A generator per string `format`: a format says less than the server checks (a webhook URL must
   * also resolve to a public address), so the caller says which of the format's values to send.
   */
  formats: Record<string, fc.Arbitrary<string>>;
}

/**
 * Whether `arbitrary` yields values `accepts` takes often enough to filter on (a seeded probe, so the
 * decision is the same on every run): filtering on a rule a generator almost never meets would spin.
 */
function oftenAccepted(arbitrary: fc.Arbitrary<string>, accepts: (value: string) => boolean): boolean {
  const probe = fc.sample(arbitrary, { seed: 1, numRuns: 40 });
  return probe.filter(accepts).length >= 8;
}

function stringArbitrary(schema: Schema, options: ArbitraryOptions): fc.Arbitrary<string> {
  if (schema.format) {
    const format = options.formats[schema.format];
    if (!format) throw new Error(`no generator for format ${schema.format}`);
    return format;
  }
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? 10_000;
  const pattern = schema.pattern === undefined ? null : new RegExp(schema.pattern, 'u');
  const accepts = (value: string) => codePoints(value) >= min && codePoints(value) <= max && (pattern?.test(value) ?? true);
  // Any code point (astral ones, every kind of white space), at small, medium and the longest allowed lengths.
  const lengths = [
    fc.string({ minLength: min, maxLength: Math.min(max, 2000), unit: 'binary', size: 'medium' }),
    fc.string({ minLength: min, maxLength: max, unit: 'grapheme-ascii', size: 'small' }),
    // The longest: a short piece repeated (fast-check builds a long string a character at a time).
    fc.string({ minLength: 1, maxLength: 16, unit: 'grapheme-ascii' }).map((piece) => [...piece.repeat(Math.ceil(max / piece.length))].slice(0, max).join('')),
  ].filter((arbitrary) => oftenAccepted(arbitrary, accepts));
  // A pattern's own language (fast-check writes ASCII for it), short and long.
  const matching = pattern
    ? [fc.stringMatching(pattern, { size: 'small' }), fc.stringMatching(pattern, { size: 'medium' })].filter((arbitrary) =>
        oftenAccepted(arbitrary, accepts),
      )
    : [];
  const arms = [...matching, ...lengths];
  if (arms.length === 0) throw new Error(`cannot generate strings for ${JSON.stringify(schema)}`);
  return fc.oneof(...arms).filter(accepts);
}

const ruleChecker = new Ajv2020({ strict: false });

function objectArbitrary(schema: Schema, components: Components, options: ArbitraryOptions): fc.Arbitrary<unknown> {
  const properties = Object.entries(schema.properties ?? {});
  const model = Object.fromEntries(properties.map(([name, property]) => [name, schemaArbitrary(property, components, options)]));
  const required = schema.required ?? [];
  if (!hasFieldRules(schema)) return fc.record(model, { requiredKeys: required });
  // A rule between fields: each branch's fields required in turn, and only the objects the whole rule takes.
  const { anyOf, oneOf, not } = schema;
  const holds = ruleChecker.compile({ ...(anyOf ? { anyOf } : {}), ...(oneOf ? { oneOf } : {}), ...(not ? { not } : {}) });
  const arms = (anyOf ?? oneOf ?? [{}]).map((branch) => fc.record(model, { requiredKeys: [...new Set([...required, ...(branch.required ?? [])])] }));
  return fc.oneof(...arms).filter((value) => holds(value) as boolean);
}

/** Values the schema accepts, from fast-check's arbitraries (biased towards bounds and edge cases). */
export function schemaArbitrary(schema: Schema, components: Components, options: ArbitraryOptions): fc.Arbitrary<unknown> {
  const node = deref(schema, components);
  const values = enumValues(node, components);
  if (values) return fc.constantFrom(...values);
  const branches = unionOf(node);
  if (branches) return fc.oneof(...branches.map((branch) => schemaArbitrary(branch, components, options)));
  switch (node.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: node.minimum ?? -1_000_000, max: node.maximum ?? 1_000_000 });
    case 'string':
      return stringArbitrary(node, options);
    case 'array': {
      const item = schemaArbitrary(node.items ?? {}, components, options);
      const constraints = { minLength: node.minItems ?? 0, maxLength: node.maxItems ?? 100, size: 'medium' as const };
      return node.uniqueItems ? fc.uniqueArray(item, { ...constraints, selector: (value) => JSON.stringify(value) }) : fc.array(item, constraints);
    }
    case 'object':
      return objectArbitrary(node, components, options);
    default:
      throw new Error(`no generator for ${JSON.stringify(node)}`);
  }
}
