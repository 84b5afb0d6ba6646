import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { displayPrefixOf, fingerprintOf, generateToken, parseAuthorization } from './keys.tokens.ts';

describe('API key tokens (spec sections 2 and 8)', () => {
  it('a token is ak_live_ and 64 lowercase hex characters, 72 in all, from 32 random bytes', () => {
    const token = generateToken(randomBytes);
    expect(token).toMatch(/^ak_live_[0-9a-f]{64}$/);
    expect(token).toHaveLength(72);
    expect(generateToken(() => Buffer.alloc(32, 0xab))).toBe(`ak_live_${'ab'.repeat(32)}`);
  });

  it('two generated tokens differ', () => {
    expect(generateToken(randomBytes)).not.toBe(generateToken(randomBytes));
  });

  it('the shown prefix is ak_live_ and the 8 characters after it', () => {
    expect(displayPrefixOf(`ak_live_0123456789${'a'.repeat(54)}`)).toBe('ak_live_01234567');
  });

  it('the stored fingerprint is the SHA-256 of the token', () => {
    expect(fingerprintOf('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('parses exactly one "Bearer <key>" and nothing looser', () => {
    const token = generateToken(randomBytes);
    expect(parseAuthorization([`Bearer ${token}`])).toEqual({ kind: 'token', token });
    expect(parseAuthorization(undefined)).toEqual({ kind: 'missing' });
    expect(parseAuthorization([`Bearer ${token}`, `Bearer ${token}`]).kind).toBe('malformed');
    expect(parseAuthorization([`Bearer ${token}\n`]).kind).toBe('malformed');
    expect(parseAuthorization([` Bearer ${token}`]).kind).toBe('malformed');
  });
});
