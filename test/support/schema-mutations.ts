import { hasFieldRules } from '../../src/shared/http/field-rules.ts';
import { codePoints, deref, enumValues, unionOf, type Components, type Schema } from './schema-arbitraries.ts';

/** The JSON Schema keyword a mutation breaks: ajv names the same keyword when it refuses the body. */
export type Rule =
  | 'type'
  | 'minimum'
  | 'maximum'
  | 'minLength'
  | 'maxLength'
  | 'pattern'
  | 'format'
  | 'enum'
  | 'required'
  | 'additionalProperties'
  | 'minItems'
  | 'maxItems'
  | 'uniqueItems'
  | 'anyOf'
  | 'oneOf'
  | 'not';

/** One rule broken at `path` (a JSON pointer, as ajv's instancePath); `apply` makes the body, a copy. */
export interface Mutation {
  rule: Rule;
  path: string;
  apply(): unknown;
}

/** Where and how: a value replaced, or (at an object) a member removed or added. */
type Site =
  | { rule: Rule; path: string[]; value: unknown }
  | { rule: 'required'; path: string[]; remove: string }
  | { rule: 'additionalProperties'; path: string[]; add: string }
  | { rule: 'anyOf' | 'oneOf' | 'not'; path: string[]; fields: Record<string, unknown> };

const UNKNOWN_FIELD = 'unexpected_field';
const typeOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value);

/** The JSON types a schema allows (`integer` where it says so; `number` allows integers too). */
function allowedTypes(schema: Schema, components: Components): Set<string> {
  const node = deref(schema, components);
  const branches = unionOf(node);
  if (branches) return new Set(branches.flatMap((branch) => [...allowedTypes(branch, components)]));
  const values = enumValues(node, components);
  if (values) return new Set(values.map(typeOf));
  return new Set(node.type ? [node.type] : []);
}

/** Of a union, the branch `value` is in: by its JSON type (the unions of request bodies differ by type). */
function branchFor(schema: Schema, value: unknown, components: Components): Schema {
  const node = deref(schema, components);
  const branches = unionOf(node);
  if (!branches || enumValues(node, components)) return node;
  const branch = branches.find((b) => allowedTypes(b, components).has(typeOf(value)));
  return branch ? branchFor(branch, value, components) : node;
}

const WRONG_TYPES: unknown[] = ['text', 42, 2.5, true, null, [], {}];

function stringSites(node: Schema, value: string, path: string[]): Site[] {
  const sites: Site[] = [];
  const pattern = node.pattern === undefined ? null : new RegExp(node.pattern, 'u');
  const lengthOk = (text: string) => codePoints(text) >= (node.minLength ?? 0) && codePoints(text) <= (node.maxLength ?? Infinity);
  if (node.maxLength !== undefined) {
    const missing = node.maxLength + 1 - codePoints(value);
    // Longer by padding where the pattern allows it, so that only the length is wrong.
    const longer = [value + ' '.repeat(missing), value + 'x'.repeat(missing), 'x'.repeat(node.maxLength + 1)];
    sites.push({ rule: 'maxLength', path, value: longer.find((text) => pattern?.test(text) ?? true) ?? longer[2]! });
  }
  if (node.minLength) sites.push({ rule: 'minLength', path, value: [...value].slice(0, node.minLength - 1).join('') });
  if (pattern) {
    const candidates = [
      ' '.repeat(Math.max(1, codePoints(value))),
      `#${value}`,
      value.toUpperCase(),
      value.replace(/^[a-z]+(?=:)/, 'ftp'),
      `${value}${'x'.repeat(30)}`,
      'x'.repeat(node.maxLength ?? 30),
    ];
    for (const text of new Set(candidates)) {
      if (!pattern.test(text) && lengthOk(text)) sites.push({ rule: 'pattern', path, value: text });
    }
  }
  // A URI with a space in its host: still an http(s) address by the pattern, no longer a URI.
  if (node.format === 'uri') sites.push({ rule: 'format', path, value: value.replace('://', '://exa mple.') });
  return sites;
}

function collect(schema: Schema, value: unknown, path: string[], components: Components, sites: Site[]): void {
  const allowed = allowedTypes(schema, components);
  for (const wrong of WRONG_TYPES) {
    const type = typeOf(wrong);
    if (!allowed.has(type) && !(type === 'integer' && allowed.has('number'))) sites.push({ rule: 'type', path, value: wrong });
  }
  const node = branchFor(schema, value, components);
  const values = enumValues(node, components);
  if (values && typeof value === 'string') {
    for (const text of [`${value}_other`, value.toUpperCase()]) if (!values.includes(text)) sites.push({ rule: 'enum', path, value: text });
    return;
  }
  if (typeof value === 'number') {
    if (node.minimum !== undefined) sites.push({ rule: 'minimum', path, value: node.minimum - 1 });
    if (node.maximum !== undefined) sites.push({ rule: 'maximum', path, value: node.maximum + 1 });
  } else if (typeof value === 'string') {
    sites.push(...stringSites(node, value, path));
  } else if (Array.isArray(value)) {
    if (node.maxItems !== undefined && value.length > 0) {
      const longer = Array.from({ length: node.maxItems + 1 }, (_, i) => value[i % value.length]);
      sites.push({ rule: 'maxItems', path, value: longer });
    }
    if (node.minItems) sites.push({ rule: 'minItems', path, value: value.slice(0, node.minItems - 1) });
    if (node.uniqueItems && value.length > 0 && (node.maxItems ?? 2) >= 2) sites.push({ rule: 'uniqueItems', path, value: [value[0], value[0]] });
    // The first and the last item stand for all of them.
    for (const index of new Set([0, value.length - 1].filter((i) => i >= 0))) {
      collect(node.items ?? {}, value[index], [...path, String(index)], components, sites);
    }
  } else if (value !== null && typeof value === 'object') {
    const present = Object.keys(value);
    for (const name of node.required ?? []) if (present.includes(name)) sites.push({ rule: 'required', path, remove: name });
    if (node.additionalProperties === false) sites.push({ rule: 'additionalProperties', path, add: UNKNOWN_FIELD });
    if (hasFieldRules(node)) sites.push(...fieldRuleSites(node, path));
    for (const name of present) {
      const property = node.properties?.[name];
      if (property) collect(property, (value as Record<string, unknown>)[name], [...path, name], components, sites);
    }
  }
}

/**
 * A rule between fields broken: no branch of an anyOf or oneOf met (every field they require left
 * out), or the case a `not` names made (each field set to the one value its schema there allows).
 */
function fieldRuleSites(node: Schema, path: string[]): Site[] {
  const sites: Site[] = [];
  for (const rule of ['anyOf', 'oneOf'] as const) {
    const named = (node[rule] ?? []).flatMap((branch) => branch.required ?? []);
    if (named.length > 0) sites.push({ rule, path, fields: Object.fromEntries(named.map((name) => [name, undefined])) });
  }
  if (node.not) {
    const only = (field: Schema) => (field.maxItems === 0 ? [] : field.type === 'null' ? null : (field.const ?? field.enum?.[0]));
    const fields = Object.fromEntries(Object.entries(node.not.properties ?? {}).map(([name, field]) => [name, only(field)]));
    // A case that also needs one of some fields present: the first of them, set to its schema's example.
    for (const name of node.not.anyOf?.[0]?.required ?? []) fields[name] = (node.properties?.[name]?.examples as unknown[] | undefined)?.[0];
    sites.push({ rule: 'not', path, fields });
  }
  return sites;
}

const pointer = (path: string[]) => path.map((part) => `/${part.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');

function mutation(body: unknown, site: Site): Mutation {
  const apply = () => {
    if ('value' in site && site.path.length === 0) return site.value;
    const copy = structuredClone(body);
    const at = (parts: string[]) => parts.reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], copy) as Record<string, unknown>;
    if ('remove' in site) delete at(site.path)[site.remove];
    else if ('fields' in site) for (const [name, value] of Object.entries(site.fields)) value === undefined ? delete at(site.path)[name] : (at(site.path)[name] = value);
    else if ('add' in site) at(site.path)[site.add] = 'x';
    else at(site.path.slice(0, -1))[site.path.at(-1)!] = site.value;
    return copy;
  };
  return { rule: site.rule, path: pointer(site.path), apply };
}

/**
 * Every way found to break one rule of `schema` in the valid `body`: a wrong type anywhere, a number
 * past its bounds, a string too long or too short or off its pattern or format, a value outside its
 * enumeration, a required field missing, an unknown field, an array too long, too short or with a
 * duplicate where its items must be unique. `path` is where ajv reports it.
 */
export function mutations(body: unknown, schema: Schema, components: Components): Mutation[] {
  const sites: Site[] = [];
  collect(schema, body, [], components, sites);
  return sites.map((site) => mutation(body, site));
}
