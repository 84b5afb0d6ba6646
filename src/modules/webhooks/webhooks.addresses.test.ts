import { describe, expect, it } from 'vitest';
import { classifyAddress } from './webhooks.addresses.ts';

describe('classifyAddress', () => {
  it.each([
    ['93.184.216.34', 'public'],
    ['2606:2800:220:1:248:1893:25c8:1946', 'public'],
    ['::ffff:93.184.216.34', 'public'],
    ['64:ff9b::5db8:d822', 'public'],
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['64:ff9b::7f00:1', 'private'],
    ['::7f00:1', 'private'],
    ['2002:5db8:d822::1', 'private'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'private'],
    ['100.64.0.1', 'private'],
    ['198.18.0.1', 'private'],
    ['fec0::1', 'private'],
    ['not an address', 'private'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});
