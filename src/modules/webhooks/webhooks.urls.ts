import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { webhooksErrors } from './webhooks.errors.ts';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** Addresses a webhook must not reach unless the operator allows it (SSRF into the private network). */
const privateRanges = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 3],
] as const) {
  privateRanges.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [['::', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) {
  privateRanges.addSubnet(net, bits, 'ipv6');
}

export interface WebhookUrlPolicy {
  /** http:// and loopback addresses are allowed (local development and tests). */
  allowHttp: boolean;
  /** Private and link-local addresses are allowed (a receiver inside the operator's network). */
  allowPrivate: boolean;
}

function classify(address: string): 'loopback' | 'private' | 'public' {
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return classify(mapped);
  if (loopback.check(address, family)) return 'loopback';
  return privateRanges.check(address, family) ? 'private' : 'public';
}

/** Checks the URL and every address its host resolves to; called when a scrape is submitted and before each delivery. */
export async function assertDeliverableUrl(raw: string, policy: WebhookUrlPolicy): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw webhooksErrors.invalidUrl('must be an absolute URL');
  }
  if (url.username || url.password) throw webhooksErrors.invalidUrl('must not carry credentials');
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) {
    throw webhooksErrors.invalidUrl('must use https');
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    throw webhooksErrors.invalidUrl(`has a host name that does not resolve (${host})`);
  }
  for (const address of addresses) {
    const kind = classify(address);
    if (kind === 'loopback' && !policy.allowHttp) throw webhooksErrors.invalidUrl('must not point at this machine');
    if (kind === 'private' && !policy.allowPrivate) throw webhooksErrors.invalidUrl('must not point at a private or link-local address');
  }
  if (url.protocol === 'http:' && addresses.some((a) => classify(a) !== 'loopback')) {
    throw webhooksErrors.invalidUrl('may use http only for a loopback receiver');
  }
  return url;
}
