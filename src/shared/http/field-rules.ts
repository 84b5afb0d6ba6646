/**
 * Rules between fields of one body ("keywords or a query", "reply_to or post_id, not both"): stated
 * in the schema, so the API document and every client that checks bodies against it know them, but
 * refused by the usecase, which words them, gives them a code of their own and reports them together
 * with the body's other problems. The validator leaves them out (validator.ts); `x-refused-as` marks
 * them and tells a client the code of the 422 it gets when it breaks one.
 */
export const REFUSED_AS = 'x-refused-as';

type Rule = { anyOf?: object[]; oneOf?: object[]; not?: object };
const RULE_KEYWORDS = ['anyOf', 'oneOf', 'not'] as const;

/** Options of an object schema that add `rule`, refused as `code` (spread into Type.Object's options). */
export const fieldRule = (code: string, rule: Rule) => ({ ...rule, [REFUSED_AS]: code });

/** Whether a schema node carries rules between its fields (then its `oneOf` is not a union of shapes). */
export const hasFieldRules = (schema: unknown): boolean => typeof schema === 'object' && schema !== null && REFUSED_AS in schema;

/**
 * `schema` without its rules between fields, at any depth; the very object where it has none. A copy
 * keeps TypeBox's own (non-enumerable) markers, which say how the validator reads a node.
 */
export function withoutFieldRules<T>(schema: T): T {
  if (Array.isArray(schema)) {
    const items = schema.map(withoutFieldRules);
    return (items.some((item, i) => item !== schema[i]) ? items : schema) as T;
  }
  if (schema === null || typeof schema !== 'object') return schema;
  const own = hasFieldRules(schema);
  const children = Object.entries(schema).map(([key, value]) => [key, withoutFieldRules(value)] as const);
  if (!own && children.every(([key, value]) => value === (schema as Record<string, unknown>)[key])) return schema;
  const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(schema)) as Record<string, unknown>;
  for (const [key, value] of children) copy[key] = value;
  if (own) for (const key of [REFUSED_AS, ...RULE_KEYWORDS]) delete copy[key];
  return copy as T;
}

/** Scrapes and new monitors: at least one keyword, or a query (validation-messages.ts NOTHING_TO_MATCH). */
export const SOMETHING_TO_MATCH = fieldRule('query.missing', {
  anyOf: [
    { required: ['keywords'], properties: { keywords: { minItems: 1 } } },
    { required: ['query'], properties: { query: { type: 'string' } } },
  ],
});
