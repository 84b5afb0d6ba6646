import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { open, seal } from './seal.ts';

describe('seal/open (AES-256-GCM)', () => {
  const key = randomBytes(32);

  it('round-trips, with a fresh IV each time, and refuses another key, context or a changed byte', () => {
    const a = seal(key, 'refresh-token', 'acc_1');
    expect(a).not.toBe(seal(key, 'refresh-token', 'acc_1'));
    expect(open(key, a, 'acc_1')).toBe('refresh-token');
    expect(() => open(randomBytes(32), a, 'acc_1')).toThrow();
    expect(() => open(key, a, 'acc_2')).toThrow();
    // Flip one bit of the ciphertext itself: editing base64 text can land on padding bits or rewrite a character to itself.
    const parts = a.split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = body[0]! ^ 1;
    const tampered = [...parts.slice(0, 3), body.toString('base64url')].join('.');
    expect(() => open(key, tampered, 'acc_1')).toThrow();
  });
});
