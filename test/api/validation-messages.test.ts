import { hasFieldRules } from '../../src/shared/http/field-rules.ts';
import { Compile } from 'typebox/compile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';

type Schema = { [keyword: string]: unknown };
type Location = 'body' | 'query' | 'path' | 'header';
type Segment = string | number;

/** Keywords that only describe (the OpenAPI document's own, and `x-` extensions): nothing to violate. */
const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples', 'example', 'deprecated', 'readOnly', 'writeOnly', '$id', '$schema', '$comment', 'discriminator']);
/** Keywords that hold other schemas, walked into: their violations are those of the schemas inside. */
const STRUCTURE = new Set(['properties', 'items', 'allOf', '$ref']);

/** What the validator says in its own words; none of it may reach a caller. */
const RAW_PHRASES =
  /must be equal to constant|must match a schema in anyOf|exactly one schema in oneOf|must match pattern|must match format|must NOT have|must not have (fewer|more|duplicate|additional)|must be [<>]=?|must have required propert|schema is false|must be equal to one of the allowed values|must be multiple of|must be (string|integer|number|boolean|object|array|null)\b/i;
/** Pieces of regular expressions: character ranges, counted repeats, escapes. */
const REGEX_PIECES = /\[[A-Za-z0-9]-[A-Za-z0-9]|\{\d+,\d*\}|\\x[0-9a-f]{2}|\\d|\(\?:/;

/** One place a keyword is used: where in which request, and the schema that holds it. */
interface Use {
  keyword: string;
  operation: { method: string; path: string; parameters: Schema[]; body?: Schema };
  location: Location;
  pointer: Segment[];
  schema: Schema;
  /** Union branches chosen on the way there: the request takes each branch's shape at its pointer. */
  branches: { pointer: Segment[]; schema: Schema }[];
}

/** Texts for a pattern: the first that fits is the valid value, the first that does not, the violation. */
const PATTERN_SAMPLES = ['r/node', 't3_abc', 't1_abc', `gen_${'0'.repeat(28)}`, `mat_${'0'.repeat(28)}`, 'ak_live_0123abcd', 'k1', '2025-01-31', 'nope', 'not valid', '"open', 'https://93.184.216.34/hook', 'new', `mon_${'0'.repeat(28)}`, '09:00'];

function sample(schema: Schema, resolve: (schema: Schema) => Schema): unknown {
  schema = resolve(schema);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  // An object's rule between fields is not a union of shapes: the object has what its first branch requires.
  const rule = hasFieldRules(schema) ? ((schema.anyOf ?? schema.oneOf) as Schema[] | undefined)?.[0] : undefined;
  const branches = hasFieldRules(schema) ? undefined : ((schema.anyOf ?? schema.oneOf) as Schema[] | undefined);
  if (branches) return sample(branches.find((branch) => branch.type !== 'null') ?? branches[0]!, resolve);
  switch (schema.type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = [...((schema.required ?? []) as string[]), ...((rule?.required ?? []) as string[])];
      const narrowed = (rule?.properties ?? {}) as Record<string, Schema>;
      return Object.fromEntries(required.map((name) => [name, sample({ ...resolve(properties[name]!), ...narrowed[name] }, resolve)]));
    }
    case 'array':
      return Array.from({ length: (schema.minItems as number | undefined) ?? 0 }, () => sample(schema.items as Schema, resolve));
    case 'integer':
    case 'number':
      return (schema.minimum as number | undefined) ?? 1;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default: {
      if (typeof schema.pattern !== 'string') return 'x'.repeat(Math.max(1, (schema.minLength as number | undefined) ?? 1));
      const fits = PATTERN_SAMPLES.find((text) => new RegExp(schema.pattern as string, 'u').test(text));
      if (fits === undefined) throw new Error(`add a text that fits the pattern ${schema.pattern} to PATTERN_SAMPLES`);
      return fits;
    }
  }
}

const OTHER_TYPES: Record<string, unknown[]> = {
  string: [12345, true],
  integer: ['abc', 1.5],
  number: ['abc'],
  boolean: ['yes'],
  array: ['x'],
  object: ['x'],
  null: ['zzz', 12345],
};

/**
 * Values that break one keyword of a schema (candidates: the first the location then refuses is sent).
 * A keyword missing here fails the test: a new keyword needs a way to be broken before it ships.
 */
const VIOLATIONS: Record<string, (schema: Schema, location: Location, valid: unknown) => unknown[]> = {
  type: (schema, location) => (OTHER_TYPES[String(schema.type)] ?? []).filter((value) => location === 'body' || typeof value === 'string'),
  anyOf: () => ['zzz', 12345, true, [], {}],
  oneOf: () => ['zzz', 12345, true, [], {}],
  enum: () => ['zzz'],
  const: () => ['zzz'],
  minimum: (schema) => [(schema.minimum as number) - 1],
  maximum: (schema) => [(schema.maximum as number) + 1],
  exclusiveMinimum: (schema) => [schema.exclusiveMinimum],
  exclusiveMaximum: (schema) => [schema.exclusiveMaximum],
  multipleOf: (schema) => [(schema.multipleOf as number) + 1],
  minLength: (schema) => ((schema.minLength as number) > 0 ? ['x'.repeat((schema.minLength as number) - 1)] : []),
  maxLength: (schema) => ['x'.repeat((schema.maxLength as number) + 1)],
  pattern: (schema) => PATTERN_SAMPLES.filter((text) => !new RegExp(schema.pattern as string, 'u').test(text)).slice(0, 1),
  format: () => ['not a valid value'],
  minItems: (schema, _location, valid) => ((schema.minItems as number) > 0 ? [Array((schema.minItems as number) - 1).fill((valid as unknown[])[0])] : []),
  maxItems: (schema, _location, valid) => [Array((schema.maxItems as number) + 1).fill((valid as unknown[])[0] ?? 'x')],
  uniqueItems: (_schema, _location, valid) => [[(valid as unknown[])[0] ?? 'x', (valid as unknown[])[0] ?? 'x']],
  minProperties: () => [{}],
  maxProperties: (schema) => [Object.fromEntries(Array.from({ length: (schema.maxProperties as number) + 1 }, (_, i) => [`f${i}`, 1]))],
};

function setAt(root: unknown, pointer: Segment[], value: unknown): unknown {
  if (pointer.length === 0) return value;
  const [head, ...rest] = pointer;
  // A container the valid request left out (an optional array or object) is made here.
  const container = root ?? (typeof head === 'number' ? [] : {});
  const copy = (Array.isArray(container) ? [...container] : { ...(container as object) }) as Record<Segment, unknown>;
  copy[head!] = setAt(copy[head!], rest, value);
  return copy;
}

describe.each(engines)('every schema keyword a request can break gets a message a person can act on (%s)', (engine) => {
  let app: TestApp;
  let token: string;
  let uses: Use[];
  let patterns: string[];
  /** A `$ref` to the document's components, followed; any other schema as it is. */
  let resolve: (schema: Schema) => Schema;
  const sampleOf = (schema: Schema) => sample(schema, resolve);

  beforeAll(async () => {
    app = await startTestApp(engine);
    ({ token } = await app.accountWithKey(0));
    const doc = await (await app.api('GET', '/openapi.json')).json();
    resolve = (schema) => (typeof schema.$ref === 'string' ? resolve(doc.components.schemas[schema.$ref.split('/').pop()!]) : schema);
    uses = [];
    patterns = [];
    const walk = (raw: Schema, base: Omit<Use, 'keyword' | 'schema'>) => {
      const schema = resolve(raw);
      // A rule between fields is refused with a code of its own, not by the validator (field-rules.ts;
      // openapi-generated-bodies.test.ts breaks each one): its keywords are not the validator's to word.
      const between = hasFieldRules(schema) ? ['anyOf', 'oneOf', 'not'] : [];
      for (const [keyword, value] of Object.entries(schema)) {
        if (keyword.startsWith('x-') || ANNOTATIONS.has(keyword) || between.includes(keyword)) continue;
        if (keyword === 'pattern') patterns.push(value as string);
        uses.push({ ...base, keyword, schema });
      }
      for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) walk(property, { ...base, pointer: [...base.pointer, name] });
      if (schema.items) walk(schema.items as Schema, { ...base, pointer: [...base.pointer, 0] });
      for (const branch of between.length > 0 ? [] : ((schema.anyOf ?? schema.oneOf ?? []) as Schema[])) {
        walk(branch, { ...base, branches: [...base.branches, { pointer: base.pointer, schema: branch }] });
      }
      for (const part of (schema.allOf ?? []) as Schema[]) walk(part, base);
    };
    for (const [path, operations] of Object.entries<Record<string, Schema>>(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        // HEAD takes GET's schemas and answers without a body to read the messages from.
        if (method === 'head') continue;
        const parameters = (operation.parameters ?? []) as Schema[];
        const body = (operation.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)?.content?.['application/json']?.schema;
        const op = { method: method.toUpperCase(), path, parameters, body };
        if (body) walk(body, { operation: op, location: 'body', pointer: [], branches: [] });
        for (const parameter of parameters) {
          walk(parameter.schema as Schema, { operation: op, location: parameter.in as Location, pointer: [parameter.name as string], branches: [] });
        }
      }
    }
  });
  afterAll(() => app.close());

  /** A valid request for the operation, in the shape of the branches the use sits in. */
  function validRequest(use: Use) {
    const { parameters, body } = use.operation;
    const of = (location: Location) =>
      Object.fromEntries(parameters.filter((p) => p.in === location && (p.required || location === 'path')).map((p) => [p.name, String(sampleOf(p.schema as Schema))]));
    const parts: Record<Location, unknown> = { body: body ? sampleOf(body) : undefined, query: of('query'), path: of('path'), header: of('header') };
    for (const branch of use.branches) parts[use.location] = setAt(parts[use.location], branch.pointer, sampleOf(branch.schema));
    return parts;
  }

  async function send(use: Use, parts: Record<Location, unknown>) {
    const { method, path } = use.operation;
    const url = path.replace(/\{(\w+)\}/g, (_all, name: string) => encodeURIComponent((parts.path as Record<string, string>)[name]!));
    const query = new URLSearchParams(parts.query as Record<string, string>).toString();
    // As JSON text: a body that is itself a string would otherwise be sent bare.
    const body = parts.body === undefined ? undefined : JSON.stringify(parts.body);
    return app.api(method, `${url}${query ? `?${query}` : ''}`, { token, body, headers: parts.header as Record<string, string> });
  }

  /** The request that breaks this use of its keyword, and the pointer and name the message must give; undefined when it cannot be broken here. */
  function violation(use: Use): { parts: Record<Location, unknown>; pointer: Segment[]; name: string } | undefined {
    const parts = validRequest(use);
    const location = parts[use.location];
    const named = (pointer: Segment[]) => String([...pointer].reverse().find((segment) => typeof segment === 'string') ?? 'request body');
    if (use.keyword === 'required') {
      const [name] = use.schema.required as string[];
      if (name === undefined || use.location !== 'body') return undefined;
      const parent = use.pointer.reduce<unknown>((node, key) => (node as Record<Segment, unknown>)[key], location) as Record<string, unknown>;
      const { [name]: _removed, ...rest } = parent;
      return { parts: { ...parts, body: setAt(location, use.pointer, rest) }, pointer: use.pointer, name };
    }
    if (use.keyword === 'additionalProperties') {
      if (use.schema.additionalProperties !== false || use.location !== 'body') return undefined;
      const name = `${Object.keys(use.schema.properties as Schema)[0]}x`;
      const parent = use.pointer.reduce<unknown>((node, key) => (node as Record<Segment, unknown>)[key], location) as Record<string, unknown>;
      return { parts: { ...parts, body: setAt(location, use.pointer, { ...parent, [name]: 1 }) }, pointer: use.pointer, name };
    }
    const given = use.pointer.reduce<unknown>((node, key) => (node as Record<Segment, unknown>)?.[key], location) ?? sampleOf(use.schema);
    // An empty list (an optional one) gives its item keywords something valid to repeat: one sampled item.
    const valid = Array.isArray(given) && given.length === 0 && use.schema.items ? [sampleOf(use.schema.items as Schema)] : given;
    // A named body (a $ref to the components) is checked as what it refers to.
    const whole = use.location === 'body' ? Compile(resolve(use.operation.body!) as never) : undefined;
    const broken = VIOLATIONS[use.keyword]!(use.schema, use.location, valid)
      .map((value) => (use.location === 'body' ? value : String(value)))
      .map((value) => setAt(location, use.pointer, value))
      .find((candidate) => !whole || !whole.Check(candidate));
    if (broken === undefined) return undefined;
    return { parts: { ...parts, [use.location]: broken }, pointer: use.pointer, name: named(use.pointer) };
  }

  it('knows how to break every keyword the request schemas use', () => {
    const keywords = [...new Set(uses.map((use) => use.keyword))];
    expect(keywords.filter((keyword) => !STRUCTURE.has(keyword) && !VIOLATIONS[keyword] && keyword !== 'required' && keyword !== 'additionalProperties')).toEqual([]);
    expect(keywords).toEqual(expect.arrayContaining(['type', 'anyOf', 'enum', 'pattern', 'minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'uniqueItems', 'required', 'additionalProperties']));
  });

  it('every pattern in the document carries its wording beside it, as x-rule', () => {
    const bare = uses.filter((use) => use.keyword === 'pattern' && typeof use.schema['x-rule'] !== 'string');
    expect(bare.map((use) => `${use.operation.method} ${use.operation.path} ${use.location} /${use.pointer.join('/')}`)).toEqual([]);
    expect(patterns.length).toBeGreaterThan(0);
  });

  it('each broken keyword is a 422 whose messages name the field, in words, never the validator’s own or a regular expression', async () => {
    const broken = new Set<string>();
    for (const use of uses.filter((one) => !STRUCTURE.has(one.keyword))) {
      const attempt = violation(use);
      if (!attempt) continue;
      const label = `${use.operation.method} ${use.operation.path} ${use.location} /${use.pointer.join('/')} ${use.keyword}`;
      const response = await send(use, attempt.parts);
      const text = await response.text();
      expect(response.status, `${label}: ${text}`).toBe(422);
      const problem = JSON.parse(text);
      expect(problem.code, label).toBe('request.invalid');
      expect(text, label).not.toMatch(RAW_PHRASES);
      expect(text, label).not.toMatch(REGEX_PIECES);
      for (const pattern of patterns) expect(text, label).not.toContain(pattern);
      const where = `/${attempt.pointer.join('/')}`;
      // A missing or unknown member is pointed at itself, one level below the object that broke the rule.
      const member = use.keyword === 'required' || use.keyword === 'additionalProperties';
      const base = where === '/' ? '' : where;
      const under = (path: string) => path.startsWith(`${base}/`) && !path.slice(base.length + 1).includes('/');
      const errors = problem.errors as { path: string; message: string }[];
      const here = errors.filter((error) => (member ? under(error.path) : error.path === where));
      expect(here.length, `${label}: ${text}`).toBeGreaterThan(0);
      for (const error of here) {
        const named = member ? error.path.split('/').pop()! : attempt.name;
        expect(error.message.toLowerCase(), label).toContain(named.toLowerCase());
      }
      expect(problem.detail, label).toContain(here[0]!.message);
      broken.add(use.keyword);
    }
    const keywords = new Set(uses.map((use) => use.keyword).filter((keyword) => !STRUCTURE.has(keyword)));
    expect([...keywords].filter((keyword) => !broken.has(keyword))).toEqual([]);
  });
});
