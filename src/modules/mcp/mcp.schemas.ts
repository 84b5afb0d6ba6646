import Type, { type TSchema } from 'typebox';
import { PRICE_VARIABLES, type Prices } from '../../shared/config/config.ts';
import { hasFieldRules } from '../../shared/http/field-rules.ts';
import { checkerOf as sharedChecker } from '../../shared/http/checker.ts';
import { ECHO_KEYWORD, RULE_KEYWORD } from '../../shared/http/validation-messages.ts';
import { plural } from '../../shared/text.ts';

type Json = Record<string, unknown>;
type Properties = Record<string, TSchema>;

/** A union's shapes; a `oneOf` that is a rule between one shape's fields (field-rules.ts) is not one. */
const branchesOf = (schema: TSchema): TSchema[] | undefined => (hasFieldRules(schema) ? undefined : (schema as { oneOf?: TSchema[] }).oneOf);

/**
 * A route's schema with more fields, as a tool's arguments: an id from the path next to the query or
 * body fields, or `confirm` next to each shape of a publish body. No other field is accepted, like the
 * API's bodies. The fields keep the route's own schemas, so the rules are written once.
 */
export function argumentsOf(schema: TSchema | null, extra: Properties = {}): TSchema {
  const branches = schema ? branchesOf(schema) : undefined;
  if (branches) {
    const { oneOf: _branches, ...options } = schema as Json;
    return Type.Unsafe({ ...options, oneOf: branches.map((branch) => argumentsOf(branch, extra)) });
  }
  const own = (schema as { properties?: Properties } | null)?.properties ?? {};
  const title = (schema as { title?: string } | null)?.title;
  return Type.Object({ ...own, ...extra }, { additionalProperties: false, ...(title ? { title } : {}) });
}

/**
 * A nullable field's description at the field itself: TypeBox writes `nullable(x)` as an `anyOf` whose
 * branch holds the description, where a model reading the property does not look. Only a union with
 * one described branch that is no object (an object's description is its own shape's).
 */
function liftDescription(out: Json): void {
  const branches = (out.anyOf ?? out.oneOf) as Json[] | undefined;
  if (!branches || typeof out.description === 'string') return;
  const described = branches.filter((branch) => typeof branch.description === 'string');
  if (described.length !== 1 || described[0]!.type === 'object') return;
  const { description, ...rest } = described[0]!;
  out.description = description;
  branches[branches.indexOf(described[0]!)] = rest;
}

/**
 * A description with this server's amounts for the price variables the API's reference names (a
 * field says "for PRICE_JUDGE credits"): a model cannot read the operator's environment.
 */
export function withAmounts(text: string, prices: Prices): string {
  return (Object.entries(PRICE_VARIABLES) as [keyof Prices, string][]).reduce(
    (said, [price, variable]) => said.replace(new RegExp(`\\b${variable}\\b(?: credits)?`, 'g'), plural(prices[price], 'credit')),
    text,
  );
}

/**
 * The JSON of a schema as a model reads it: each `x-rule` (our wording for a pattern) folded into the
 * description, the validator's own marks (`x-echo`) left out, a nullable field's description lifted,
 * and prices as amounts.
 */
function plain(schema: unknown, prices: Prices): unknown {
  if (Array.isArray(schema)) return schema.map((item) => plain(item, prices));
  if (schema === null || typeof schema !== 'object') return schema;
  const { [RULE_KEYWORD]: rule, [ECHO_KEYWORD]: _echo, ...rest } = schema as Json;
  const out: Json = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, plain(value, prices)]));
  if (typeof rule === 'string') out.description = out.description ? `${out.description}; ${rule}` : rule;
  if (typeof out.description === 'string') out.description = withAmounts(out.description, prices);
  liftDescription(out);
  return out;
}

/** A literal's description, saying which value it describes ("reply": A reply to a post). */
const labelled = (s: Json): string | undefined =>
  typeof s.description !== 'string' ? undefined : 'const' in s ? `${JSON.stringify(s.const)}: ${s.description}` : s.description;

/** Two branches' schemas of one field as one: literals become an enum of them, each described; anything else keeps the first. */
function mergeField(first: Json, next: Json): Json {
  const values = (s: Json) => ('const' in s ? [s.const] : Array.isArray(s.enum) ? s.enum : undefined);
  const [a, b] = [values(first), values(next)];
  if (!a || !b) return first;
  const { const: _c, enum: _e, description: _d, ...rest } = first;
  const said = [labelled(first), labelled(next)].filter((text): text is string => text !== undefined);
  return { ...rest, enum: [...new Set([...a, ...b])], ...(said.length > 0 ? { description: said.join('; ') } : {}) };
}

/**
 * What `tools/list` shows for a tool's arguments. MCP wants an object at the top, and several hosts
 * (Claude's API among them) refuse a top-level `oneOf`, so a union of shapes is shown as one object
 * with every shape's fields, required only where every shape requires them, and the shapes named in
 * the description. The call itself is checked against the union (`checkerOf`), so nothing is looser.
 */
export function advertisedSchema(schema: TSchema, prices: Prices): Json {
  const json = plain(JSON.parse(JSON.stringify(schema)), prices) as Json;
  const branches = json.oneOf as Json[] | undefined;
  if (!branches) return json;
  const properties: Record<string, Json> = {};
  for (const branch of branches) {
    for (const [name, field] of Object.entries((branch.properties ?? {}) as Record<string, Json>)) {
      properties[name] = properties[name] ? mergeField(properties[name], field) : field;
    }
  }
  const requiredBy = branches.map((branch) => new Set((branch.required ?? []) as string[]));
  const required = Object.keys(properties).filter((name) => requiredBy.every((set) => set.has(name)));
  const shapes = branches.map((branch) => `${branch.title ?? 'shape'} (${((branch.required ?? []) as string[]).join(', ')})`);
  return {
    type: 'object',
    description: `Exactly one of these shapes, with its required fields: ${shapes.join('; ')}.`,
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

/** A tool's arguments, checked by the API's own validator, in its words (shared/http/checker.ts). */
export const checkerOf = <T>(name: string, schema: TSchema): ((args: unknown) => T) => sharedChecker<T>(`/mcp ${name}`, schema, 'The arguments are');
