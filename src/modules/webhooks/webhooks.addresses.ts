import ipaddr from 'ipaddr.js';

export type AddressKind = 'loopback' | 'private' | 'public';

/** The one IPv6 block that holds the public internet; anything outside it is reserved or special. */
const globalUnicast = ipaddr.IPv6.parseCIDR('2000::/3');
/** NAT64's well-known prefix (RFC 6052): the last 32 bits are the IPv4 address the gateway reaches. */
const nat64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

function classifyV4(address: ipaddr.IPv4): AddressKind {
  const range = address.range();
  if (range === 'loopback') return 'loopback';
  return range === 'unicast' ? 'public' : 'private';
}

/**
 * Where a webhook would really go. IPv4-mapped addresses are IPv4 connections, and a NAT64 address
 * is what DNS64 hands an IPv6-only host for a public IPv4 site: both are judged by the IPv4 address
 * inside (a NAT64 form of loopback reaches the gateway's, not ours, so it counts as private). Every
 * other IPv6 form is public only inside 2000::/3 and outside ipaddr.js's special ranges: IPv4-
 * compatible (::a.b.c.d), NAT64 local-use, 6to4, Teredo, unique-local, site-local, link-local,
 * multicast, documentation and unspecified addresses are all private.
 */
export function classifyAddress(raw: string): AddressKind {
  if (!ipaddr.isValid(raw)) return 'private';
  const parsed = ipaddr.parse(raw);
  if (parsed.kind() === 'ipv4') return classifyV4(parsed as ipaddr.IPv4);
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return classifyV4(v6.toIPv4Address());
  if (v6.match(nat64)) {
    return classifyV4(new ipaddr.IPv4(v6.toByteArray().slice(12))) === 'public' ? 'public' : 'private';
  }
  if (v6.range() === 'loopback') return 'loopback';
  return v6.match(globalUnicast) && v6.range() === 'unicast' ? 'public' : 'private';
}
