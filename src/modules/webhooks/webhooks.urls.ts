import { isIP } from 'node:net';
import type { HostResolver, ResolvedAddress } from '../../integrations/webhooks/webhooks.http.ts';
import { classifyAddress } from './webhooks.addresses.ts';
import { webhooksErrors } from './webhooks.errors.ts';

export interface WebhookUrlPolicy {
  /** http:// and loopback addresses are allowed (local development and tests). */
  allowHttp: boolean;
  /** Private and link-local addresses are allowed (a receiver inside the operator's network). */
  allowPrivate: boolean;
}

/**
 * Checks the URL and every address its host resolves to; called when a scrape is submitted and before
 * each delivery, which then connects to exactly these addresses (no second lookup to rebind).
 */
export async function checkDeliverableUrl(
  raw: string,
  policy: WebhookUrlPolicy,
  resolve: HostResolver,
): Promise<{ url: URL; addresses: ResolvedAddress[] }> {
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
  let addresses: ResolvedAddress[];
  try {
    const family = isIP(host);
    addresses = family ? [{ address: host, family }] : await resolve(host);
  } catch {
    throw webhooksErrors.invalidUrl(`has a host name that does not resolve (${host})`);
  }
  if (addresses.length === 0) throw webhooksErrors.invalidUrl(`has a host name that does not resolve (${host})`);
  const kinds = addresses.map((a) => classifyAddress(a.address));
  // Whatever the policy: no receiver lives there, only this server's own ports.
  if (kinds.includes('unspecified')) {
    throw webhooksErrors.invalidUrl(
      "must not point at the unspecified address (0.0.0.0 or ::, in any form): it reaches this server itself, not a receiver; use the receiver's own host name or address",
    );
  }
  if (kinds.includes('loopback') && !policy.allowHttp) throw webhooksErrors.invalidUrl('must not point at this machine');
  if (kinds.includes('private') && !policy.allowPrivate) {
    throw webhooksErrors.invalidUrl('must not point at a private, link-local or reserved address');
  }
  if (url.protocol === 'http:' && kinds.some((kind) => kind !== 'loopback')) {
    throw webhooksErrors.invalidUrl('may use http only for a loopback receiver');
  }
  return { url, addresses };
}
