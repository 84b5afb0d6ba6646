import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { open, seal } from './crypto.ts';

describe('seal/open (AES-256-GCM)', () => {
  const key = randomBytes(32);

  it('round-trips, with a fresh IV each time, and refuses another key, context or a changed byte', () => {
    const a = seal(key, 'refresh-token', 'acc_1');
    expect(a).not.toBe(seal(key, 'refresh-token', 'acc_1'));
    expect(open(key, a, 'acc_1')).toBe('refresh-token');
    expect(() => open(randomBytes(32), a, 'acc_1')).toThrow();
    expect(() => open(key, a, 'acc_2')).toThrow();
    const tampered = a.slice(0, -2) + (a.endsWith('A') ? 'BA' : 'AA');
    expect(() => open(key, tampered, 'acc_1')).toThrow();
  });
});

describe('generate and publish configuration', () => {
  it('defaults: prices 5 and 10, no model, no connections', () => {
    expect(loadConfig({})).toMatchObject({ priceGenerate: 5, pricePublish: 10, llm: null, secretKey: null, redditRedirectUri: null });
  });

  it('reads SECRET_KEY as 64 hex digits or base64, and derives the redirect URI from PUBLIC_URL', () => {
    const bytes = randomBytes(32);
    expect(loadConfig({ SECRET_KEY: bytes.toString('hex') }).secretKey).toEqual(bytes);
    expect(loadConfig({ SECRET_KEY: bytes.toString('base64') }).secretKey).toEqual(bytes);
    expect(loadConfig({ PUBLIC_URL: 'https://app.example.com' }).redditRedirectUri).toBe(
      'https://app.example.com/dashboard/connections/reddit/callback',
    );
    expect(loadConfig({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1', LLM_MODEL: 'llama3' }).llm).toMatchObject({ apiKey: 'unused', model: 'llama3' });
  });

  it.each([
    ['SECRET_KEY', { SECRET_KEY: 'too-short-secret-value' }],
    ['SECRET_KEY', { SECRET_KEY: 'ab'.repeat(31) }],
    ['LLM_MODEL', { LLM_BASE_URL: 'http://127.0.0.1/v1' }],
    ['LLM_BASE_URL', { LLM_MODEL: 'gpt' }],
    ['PRICE_PUBLISH', { PRICE_PUBLISH: 'ten' }],
    ['REDDIT_REDIRECT_URI', { REDDIT_REDIRECT_URI: 'not a url' }],
  ])('a bad value throws a ConfigError naming %s', (name, env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });

  it('never prints the secret itself', () => {
    const secret = 'my-very-secret-value-that-is-wrong';
    expect(() => loadConfig({ SECRET_KEY: secret })).toThrow(expect.objectContaining({ message: expect.not.stringContaining(secret) }));
  });
});
