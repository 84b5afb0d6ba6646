import { describe, expect, it } from 'vitest';
import { createAllowedMethods } from './allowed-methods.ts';

describe('the methods a path is served with', () => {
  const allowed = createAllowedMethods();
  allowed.add('/api/v1/scrapes/:id', ['GET', 'HEAD']);
  allowed.add('/api/v1/scrape', 'POST');
  allowed.add('/assets/*', 'GET');
  allowed.add('/a.b', 'GET');

  it('a parameter stands for one path segment, and the query string is ignored', () => {
    expect(allowed.of('/api/v1/scrapes/scr_1?limit=5')).toEqual(['GET', 'HEAD']);
    expect(allowed.of('/api/v1/scrapes/scr_1/results')).toEqual([]);
  });

  it('a wildcard stands for the rest of the path', () => {
    expect(allowed.of('/assets/css/site.css')).toEqual(['GET']);
  });

  it('other characters of a pattern are taken literally', () => {
    expect(allowed.of('/a.b')).toEqual(['GET']);
    expect(allowed.of('/axb')).toEqual([]);
  });

  it('methods registered for the same path at different times are listed together, in Allow order', () => {
    allowed.add('/api/v1/scrape', 'GET');
    expect(allowed.of('/api/v1/scrape')).toEqual(['GET', 'POST']);
  });
});
