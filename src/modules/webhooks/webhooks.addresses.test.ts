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
    ['1.0.0.0', 'public'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});

describe('the unspecified address (this host) in every form', () => {
  it.each([
    ['0.0.0.0', 'IPv4'],
    ['0.255.255.255', 'the rest of 0.0.0.0/8'],
    ['::', 'IPv6'],
    ['::ffff:0.0.0.0', 'IPv4-mapped'],
    ['::ffff:0.1.2.3', 'IPv4-mapped, rest of 0.0.0.0/8'],
    ['::0.0.0.2', 'IPv4-compatible'],
    ['::0.255.255.255', 'IPv4-compatible, rest of 0.0.0.0/8'],
    ['::ffff:0:0.0.0.0', 'IPv4-translated'],
    ['64:ff9b::', 'NAT64'],
    ['64:ff9b::0.1.2.3', 'NAT64, rest of 0.0.0.0/8'],
    ['2002::1', '6to4'],
    ['2002:ff:ffff::', '6to4, rest of 0.0.0.0/8'],
  ])('%s (%s) is unspecified, a kind no setting allows', (address) => {
    expect(classifyAddress(address)).toBe('unspecified');
  });

  it('leaves ::1 loopback, though its last 32 bits read as 0.0.0.1', () => {
    expect(classifyAddress('::1')).toBe('loopback');
  });
});
