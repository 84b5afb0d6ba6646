import { describe, expect, it } from 'vitest';
import { formatScopes, parseScopes, SCOPES, scopesOf } from './keys.scopes.ts';

describe('key scopes', () => {
  it('a key stored without scopes (every key made before them) has every scope', () => {
    expect(scopesOf(null)).toEqual([...SCOPES]);
  });

  it('the stored form lists the scopes once each, in a fixed order, space-separated', () => {
    expect(formatScopes(['scrape', 'read', 'scrape'])).toBe('read scrape');
    expect(scopesOf('read scrape')).toEqual(['read', 'scrape']);
  });

  it('choosing every scope is stored as null, so the key also gets scopes added later', () => {
    expect(formatScopes([...SCOPES].reverse())).toBeNull();
    expect(formatScopes(null)).toBeNull();
  });

  it('a stored name that is no longer a scope grants nothing', () => {
    expect(scopesOf('read admin')).toEqual(['read']);
  });

  it('typed scopes may be separated by commas or spaces, in any case', () => {
    expect(parseScopes('Read, scrape publish')).toEqual({ ok: true, scopes: ['read', 'scrape', 'publish'] });
    expect(parseScopes(['generate', ' read '])).toEqual({ ok: true, scopes: ['read', 'generate'] });
  });

  it('no scope at all, or a name that is not a scope, is refused with the reason', () => {
    expect(parseScopes(' , ')).toEqual({ ok: false, reason: expect.stringContaining('at least one scope') });
    expect(parseScopes('read,admin')).toEqual({ ok: false, reason: expect.stringContaining('"admin" is not a scope') });
  });
});
