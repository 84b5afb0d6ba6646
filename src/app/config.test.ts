import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('dashboard configuration', () => {
  it('defaults: sign-up on, no public URL, sessions of 168 hours', () => {
    expect(loadConfig({})).toMatchObject({ allowSignup: true, publicUrl: null, sessionTtlHours: 168 });
  });

  it('reads ALLOW_SIGNUP, PUBLIC_URL and SESSION_TTL_HOURS', () => {
    const config = loadConfig({ ALLOW_SIGNUP: 'false', PUBLIC_URL: 'https://dash.example.com/', SESSION_TTL_HOURS: '12' });
    expect(config).toMatchObject({ allowSignup: false, publicUrl: 'https://dash.example.com', sessionTtlHours: 12 });
  });

  it.each([
    ['ALLOW_SIGNUP', 'no'],
    ['PUBLIC_URL', 'ftp://example.com'],
    ['SESSION_TTL_HOURS', '0'],
    ['SESSION_TTL_HOURS', 'a week'],
  ])('a bad %s (%s) throws a ConfigError naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});
