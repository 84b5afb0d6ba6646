import { closestName } from '../text.ts';
import {
  ECHO_KEYWORD,
  fieldName,
  got,
  gotType,
  isHarmlessName,
  jsonType,
  memberNoun,
  received,
  RULE_KEYWORD,
  rules,
  type RequestPart,
} from './validation-messages.ts';

/** A JSON Schema as the validator walks it. */
export type Schema = { [keyword: string]: unknown };

/** One error as TypeBox's compiler reports it; `schemaPath` points at the schema that holds the keyword. */
export interface RawError {
  keyword: string;
  schemaPath: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/** One problem with the request, worded for people: what a 422's `errors[]` lists. */
export interface Issue extends RawError {
  message: string;
}

interface Context {
  schema: Schema;
  part: RequestPart;
  value: unknown;
}

const UNIONS = new Set(['anyOf', 'oneOf']);

function resolve(root: unknown, pointer: string): unknown {
  const segments = pointer.replace(/^#/, '').split('/').slice(1);
  return segments.reduce<unknown>((node, raw) => {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    return node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  }, root);
}

const schemaAt = (context: Context, error: RawError): Schema => {
  const found = resolve(context.schema, error.schemaPath);
  return found !== null && typeof found === 'object' ? (found as Schema) : {};
};

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The index of the branch of `union` that `error` was found in, if it was found in one. */
function branchOf(error: RawError, union: RawError): number | undefined {
  const prefix = `${union.schemaPath}/${union.keyword}/`;
  if (error === union || !error.schemaPath.startsWith(prefix)) return undefined;
  return Number(error.schemaPath.slice(prefix.length).split('/')[0]);
}

/** The literal values a schema allows, when it allows only literals (`const`, `enum`). */
function literalsOf(schema: Schema): unknown[] | undefined {
  if ('const' in schema) return [schema.const];
  return Array.isArray(schema.enum) ? schema.enum : undefined;
}

/** What `null` stands for, from a description such as "…; null: no cap". */
function nullMeaning(...schemas: Schema[]): string {
  for (const schema of schemas) {
    const said = typeof schema.description === 'string' ? /\bnull: ([^.;)]+)/i.exec(schema.description) : null;
    if (said) return ` for ${said[1]!.trim()}`;
  }
  return '';
}

/** The whole rule of a schema, for when the value broke it as a whole (wrong type, or no branch of a union). */
function describe(schema: Schema): string {
  const literals = literalsOf(schema);
  if (literals) return rules.oneOf(literals);
  if (typeof schema[RULE_KEYWORD] === 'string') return schema[RULE_KEYWORD] as string;
  switch (schema.type) {
    case 'integer':
    case 'number':
      return rules.number(schema);
    case 'string':
      if (typeof schema.format === 'string') return rules.format(schema.format);
      return rules.text(schema.minLength as number | undefined, schema.maxLength as number | undefined);
    case 'boolean':
      return rules.boolean;
    default: {
      const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
      if (branches) return rules.types(branches.map((branch) => String(branch.type ?? 'value')));
      return typeof schema.type === 'string' ? rules.types([schema.type]) : 'is not valid';
    }
  }
}

/** Whether a value has the JSON type a schema asks for (a schema that names none accepts any). */
function typeFits(schema: Schema, value: unknown): boolean {
  if (schema.type === undefined) return true;
  const type = jsonType(value);
  return schema.type === type || (schema.type === 'number' && type === 'integer');
}

/** The errors of one error list, worded; `qualifier` ends the messages of a union's chosen branch ("for type reply"). */
function explain(errors: RawError[], context: Context, qualifier = ''): Issue[] {
  const unions = errors.filter((error) => UNIONS.has(error.keyword));
  const outer = unions.filter((union) => !unions.some((other) => branchOf(union, other) !== undefined));
  const owned = (error: RawError) => outer.some((union) => branchOf(error, union) !== undefined);
  const issues = errors.flatMap((error) => {
    if (owned(error)) return [];
    if (UNIONS.has(error.keyword)) return explainUnion(error, errors.filter((other) => branchOf(other, error) !== undefined), context, qualifier);
    return explainOne(error, context, qualifier);
  });
  const seen = new Set<string>();
  return issues.filter((issue) => !seen.has(issue.instancePath + issue.message) && seen.add(issue.instancePath + issue.message));
}

/** What was sent, as a refusal repeats it: in full where the schema allows it (ECHO_KEYWORD), else only a short harmless text. */
const shownValue = (schema: Schema, value: unknown) => (schema[ECHO_KEYWORD] === true ? received(value) : got(value));

function explainOne(error: RawError, context: Context, qualifier: string): Issue[] {
  const schema = schemaAt(context, error);
  const value = resolve(context.value, `#${error.instancePath}`);
  const field = fieldName(error.instancePath, context.part);
  const issue = (message: string): Issue[] => [{ ...error, message }];
  switch (error.keyword) {
    // Reported again at the parent as `additionalProperties`, with the names.
    case 'boolean':
      return error.schemaPath.endsWith('/additionalProperties') ? [] : issue(`${field} is not allowed`);
    case 'required':
      // Pointed at the missing member itself (RFC 6901 points at absent members too), as clients expect.
      return ((error.params.requiredProperties as string[] | undefined) ?? []).map((name) => ({
        ...error,
        instancePath: `${error.instancePath}/${name}`,
        message: `${fieldName(`${error.instancePath}/${name}`, context.part)} ${rules.required}${qualifier}`,
      }));
    case 'additionalProperties':
      return unknownMembers(error, schema, context, qualifier);
    case 'type':
      return issue(`${field} ${describe(schema)}${gotType(value)}`);
    case 'const':
    case 'enum':
      return issue(`${field} ${describe(schema)}${got(value)}`);
    case 'pattern':
      return issue(`${field} ${typeof schema[RULE_KEYWORD] === 'string' ? schema[RULE_KEYWORD] : 'is not in the expected form'}${shownValue(schema, value)}`);
    case 'format':
      return issue(`${field} ${rules.format(String(error.params.format ?? schema.format))}${got(value)}`);
    case 'minLength':
    case 'maxLength':
      // A text with a pattern has one rule in words, its length included: two messages would state two limits.
      if (typeof schema[RULE_KEYWORD] === 'string') return issue(`${field} ${schema[RULE_KEYWORD]}${shownValue(schema, value)}`);
      return issue(`${field} ${rules.length(schema.minLength as number | undefined, schema.maxLength as number | undefined)}`);
    case 'minItems':
    case 'maxItems':
      return issue(`${field} ${rules.items(schema.minItems as number | undefined, schema.maxItems as number | undefined)}`);
    case 'minProperties':
    case 'maxProperties':
      return issue(`${field} ${rules.fields(schema.minProperties as number | undefined, schema.maxProperties as number | undefined)}`);
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return issue(`${field} ${rules.number(schema)}`);
    case 'multipleOf':
      return issue(`${field} ${rules.multipleOf(schema.multipleOf as number)}`);
    case 'uniqueItems':
      return issue(`${field} ${rules.unique}`);
    default:
      return issue(`${field} is not valid`);
  }
}

/** "unknown field `subredit` (did you mean `subreddits`?)"; a name that may be a secret is not repeated. */
function unknownMembers(error: RawError, schema: Schema, context: Context, qualifier: string): Issue[] {
  const known = Object.keys((schema.properties as Schema | undefined) ?? {});
  const noun = memberNoun(context.part);
  const where = error.instancePath === '' ? '' : ` in ${fieldName(error.instancePath, context.part)}`;
  const list = known.length > 0 ? `; known ${noun}s: ${known.join(', ')}` : '';
  const names = (error.params.additionalProperties as unknown[] | undefined) ?? [undefined];
  return names.map((name) => {
    if (typeof name !== 'string' || !isHarmlessName(name)) {
      return { ...error, message: `an unknown ${noun}${where}${qualifier} was sent (its name is not repeated: it may be a secret)${list}` };
    }
    const suggestion = closestName(name, known);
    const hint = suggestion ? ` (did you mean \`${suggestion}\`?)` : list;
    return { ...error, instancePath: `${error.instancePath}/${name}`, message: `unknown ${noun} \`${name}\`${where}${qualifier}${hint}` };
  });
}

/** The one value a branch fixes a property to (`const`, or an `enum` of one), if it fixes it. */
function tagOf(branch: Schema, property: string): unknown {
  const literals = literalsOf(((branch.properties as Record<string, Schema> | undefined) ?? {})[property] ?? {});
  return literals?.length === 1 ? literals[0] : undefined;
}

/** The property that tells a union's branches apart: the `discriminator`, or one that each branch fixes. */
function discriminatorOf(schema: Schema, branches: Schema[]): string | undefined {
  const named = (schema.discriminator as { propertyName?: unknown } | undefined)?.propertyName;
  if (typeof named === 'string') return named;
  const first = branches[0];
  if (!first || branches.some((branch) => branch.type !== 'object')) return undefined;
  return Object.keys((first.properties as Schema | undefined) ?? {}).find((name) => branches.every((branch) => tagOf(branch, name) !== undefined));
}

/**
 * A union is one problem, not one per branch: a list of literals is "must be one of …"; a union told
 * apart by a property reports the branch that property chooses; a nullable value is its rule ", or null".
 */
function explainUnion(union: RawError, inner: RawError[], context: Context, qualifier: string): Issue[] {
  const schema = schemaAt(context, union);
  const branches = ((schema[union.keyword] as Schema[] | undefined) ?? []).filter((branch) => isObject(branch));
  const value = resolve(context.value, `#${union.instancePath}`);
  const field = fieldName(union.instancePath, context.part);
  const issue = (message: string): Issue[] => [{ ...union, message }];
  const others = branches.filter((branch) => branch.type !== 'null');
  const orNull = others.length < branches.length ? `, or null${nullMeaning(schema, ...others)}` : '';
  const errorsOf = (index: number) => inner.filter((error) => branchOf(error, union) === index);

  const literals = others.map(literalsOf);
  if (others.length > 0 && literals.every(Boolean)) {
    return issue(`${field} ${rules.oneOf(literals.flat())}${orNull}${typeof value === 'string' ? got(value) : gotType(value)}`);
  }

  const tag = discriminatorOf(schema, others);
  if (tag !== undefined && isObject(value)) {
    const tagField = fieldName(`${union.instancePath}/${tag}`, context.part);
    const tags = others.map((branch) => tagOf(branch, tag)).filter((one) => one !== undefined);
    if (value[tag] === undefined) return [{ ...union, instancePath: `${union.instancePath}/${tag}`, message: `${tagField} ${rules.required} (it ${rules.oneOf(tags)})` }];
    const chosen = branches.findIndex((branch) => tagOf(branch, tag) === value[tag]);
    if (chosen === -1) return [{ ...union, instancePath: `${union.instancePath}/${tag}`, message: `${tagField} ${rules.oneOf(tags)}${got(value[tag])}` }];
    const issues = explain(errorsOf(chosen), context, ` for ${tag} ${String(value[tag])}`);
    return issues.length > 0 ? issues : issue(`${field} is not valid for ${tag} ${String(value[tag])}`);
  }

  const partial = partialTagOf(others);
  if (partial !== undefined && isObject(value)) return explainPartlyTagged(partial, { union, branches, value, context, errorsOf, issue });

  const containers = new Set(['object', 'array']);
  if (others.length === 1 && !containers.has(String(others[0]!.type))) {
    return issue(`${field} ${describe(others[0]!)}${orNull}${typeFits(others[0]!, value) ? got(value) : gotType(value)}`);
  }
  const fitting = branches.flatMap((branch, index) => (typeFits(branch, value) ? [index] : []));
  const explained = fitting.length === 1 ? explain(errorsOf(fitting[0]!), context, qualifier) : [];
  if (explained.length > 0) return explained;
  return issue(`${field} ${rules.types(others.map((branch) => String(branch.type ?? 'value')))}${orNull}${gotType(value)}`);
}

/** A property that some object branches fix and the others leave out (a draft to publish has no `type`). */
function partialTagOf(branches: Schema[]): string | undefined {
  if (branches.length < 2 || branches.some((branch) => branch.type !== 'object')) return undefined;
  const names = new Set(branches.flatMap((branch) => Object.keys((branch.properties as Schema | undefined) ?? {})));
  return [...names].find((name) => branches.some((branch) => tagOf(branch, name) !== undefined) && branches.some((branch) => !hasProperty(branch, name)));
}

const hasProperty = (branch: Schema, name: string) => name in ((branch.properties as Schema | undefined) ?? {});

/**
 * A union where the tag chooses among the tagged branches and its absence chooses the untagged one:
 * the branch so chosen is the one meant, and only its errors are reported.
 */
function explainPartlyTagged(
  tag: string,
  union: { union: RawError; branches: Schema[]; value: Record<string, unknown>; context: Context; errorsOf: (index: number) => RawError[]; issue: (message: string) => Issue[] },
): Issue[] {
  const { branches, value, context, errorsOf, issue } = union;
  const tagField = fieldName(`${union.union.instancePath}/${tag}`, context.part);
  const tags = branches.map((branch) => tagOf(branch, tag)).filter((one) => one !== undefined);
  const untagged = branches.findIndex((branch) => !hasProperty(branch, tag));
  if (value[tag] !== undefined) {
    const chosen = branches.findIndex((branch) => tagOf(branch, tag) === value[tag]);
    if (chosen === -1) return [{ ...union.union, instancePath: `${union.union.instancePath}/${tag}`, message: `${tagField} ${rules.oneOf(tags)}${got(value[tag])}` }];
    return explain(errorsOf(chosen), context, ` for ${tag} ${String(value[tag])}`);
  }
  const required = ((branches[untagged]!.required as string[] | undefined) ?? []).filter((name) => name !== tag);
  // Nothing of the untagged shape either: say both ways of writing the body.
  if (!required.some((name) => name in value)) {
    const instead = required.map((name) => fieldName(`${union.union.instancePath}/${name}`, context.part)).join(' and ');
    return [{ ...union.union, instancePath: `${union.union.instancePath}/${tag}`, message: `${tagField} ${rules.required} (it ${rules.oneOf(tags)}), unless the body gives ${instead}` }];
  }
  return explain(errorsOf(untagged), context, ` with ${required.join(' and ')}`);
}

/**
 * The validator's errors for one part of a request as one message per problem, read off the failing
 * schema itself (so a union is one problem, not one per branch, and a pattern is worded by its x-rule).
 */
export const explainErrors = (errors: readonly RawError[], context: Context): Issue[] => explain([...errors], context);
