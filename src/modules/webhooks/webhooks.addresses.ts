import ipaddr from 'ipaddr.js';

/**
 * `unspecified` is 0.0.0.0/8 or :: in any form: connecting there reaches this very host (the kernel
 * sends it to loopback), whose own ports no webhook may scan, so no setting allows it.
 */
export type AddressKind = 'unspecified' | 'loopback' | 'private' | 'public';

/** The one IPv6 block that holds the public internet; anything outside it is reserved or special. */
const globalUnicast = ipaddr.IPv6.parseCIDR('2000::/3');
/** NAT64's well-known prefix (RFC 6052): the last 32 bits are the IPv4 address the gateway reaches. */
const nat64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
/** "This network" (RFC 1122): 0.0.0.0 is this host, and no other address of the block is anyone's destination. */
const thisNetwork = ipaddr.IPv4.parseCIDR('0.0.0.0/8');

/**
 * IPv6 forms that carry an IPv4 address, with the byte where it starts: IPv4-mapped, IPv4-translated
 * (SIIT), IPv4-compatible (:: itself is 0.0.0.0 written this way), NAT64 and 6to4. Each is sent to,
 * or translated into, the address inside, so an unspecified one there is unspecified too.
 */
const carriers: [range: [ipaddr.IPv6, number], offset: number][] = [
  [ipaddr.IPv6.parseCIDR('::ffff:0:0/96'), 12],
  [ipaddr.IPv6.parseCIDR('::ffff:0:0:0/96'), 12],
  [ipaddr.IPv6.parseCIDR('::/96'), 12],
  [nat64, 12],
  [ipaddr.IPv6.parseCIDR('2002::/16'), 2],
];

function carriedV4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const carrier = carriers.find(([range]) => address.match(range));
  if (!carrier) return null;
  const offset = carrier[1];
  return new ipaddr.IPv4(address.toByteArray().slice(offset, offset + 4));
}

function classifyV4(address: ipaddr.IPv4): AddressKind {
  if (address.match(thisNetwork)) return 'unspecified';
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
 * multicast and documentation addresses are all private. Any form carrying 0.0.0.0/8 is unspecified.
 */
export function classifyAddress(raw: string): AddressKind {
  if (!ipaddr.isValid(raw)) return 'private';
  const parsed = ipaddr.parse(raw);
  if (parsed.kind() === 'ipv4') return classifyV4(parsed as ipaddr.IPv4);
  const v6 = parsed as ipaddr.IPv6;
  // Before the carriers: ::1 is loopback by definition, not an IPv4-compatible 0.0.0.1.
  if (v6.range() === 'loopback') return 'loopback';
  const inside = carriedV4(v6);
  if (inside?.match(thisNetwork)) return 'unspecified';
  if (v6.isIPv4MappedAddress()) return classifyV4(v6.toIPv4Address());
  if (v6.match(nat64)) return classifyV4(inside!) === 'public' ? 'public' : 'private';
  return v6.match(globalUnicast) && v6.range() === 'unicast' ? 'public' : 'private';
}
