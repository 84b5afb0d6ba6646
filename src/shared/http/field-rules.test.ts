import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { fieldRule, REFUSED_AS, withoutFieldRules } from './field-rules.ts';
import { oneOf } from './schemas.ts';

const rule = fieldRule('query.missing', { anyOf: [{ required: ['a'] }, { required: ['b'] }] });
const withRule = Type.Object({ a: Type.Optional(Type.String()), b: Type.Optional(Type.String()) }, rule);

describe('rules between fields', () => {
  it('are left out for the validator at any depth, and a schema without any is the very same object', () => {
    const union = oneOf([withRule, Type.Object({ c: Type.String() })]);
    const stripped = withoutFieldRules(union) as unknown as { oneOf: Record<string, unknown>[] };
    expect(stripped.oneOf[0]).not.toHaveProperty('anyOf');
    expect(stripped.oneOf[0]).not.toHaveProperty(REFUSED_AS);
    expect(stripped.oneOf[1]).toBe((union as unknown as { oneOf: unknown[] }).oneOf[1]);
    expect(withoutFieldRules(pageLike)).toBe(pageLike);
  });

  it("keep TypeBox's own markers on a copied node, and the document keeps the rule with its code", () => {
    const stripped = withoutFieldRules(withRule);
    expect((stripped as unknown as Record<string, unknown>)['~kind']).toBe('Object');
    expect(withRule).toMatchObject({ anyOf: rule.anyOf, [REFUSED_AS]: 'query.missing' });
  });
});

const pageLike = Type.Object({ limit: Type.Optional(Type.Integer()) });
