/**
 * How a webhook reaches its receiver: the DNS lookup of the receiver's host and a POST that connects
 * only to addresses already checked. Which addresses are acceptable is the webhooks module's decision.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address a host name resolves to; comes in as a dependency so tests can script DNS. */
export type HostResolver = (host: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = (host) => dnsLookup(host, { all: true, verbatim: true });

/**
 * POSTs to `url` connecting only to `addresses` (the ones that were checked): the socket's lookup
 * answers from them instead of asking DNS again, while TLS still verifies the certificate against the
 * URL's host name (Node takes the servername from the host). Redirects are never followed: Node's
 * client does not, so a 3xx comes back as the answer. Resolves to the status code.
 */
export function postPinned(
  url: URL,
  addresses: ResolvedAddress[],
  message: { headers: Record<string, string>; body: string; timeoutMs: number },
): Promise<number> {
  const lookup: LookupFunction = (_host, options, callback) => {
    const usable = addresses.filter((a) => !options.family || a.family === options.family);
    if (usable.length === 0) return callback(Object.assign(new Error('no checked address of this family'), { code: 'ENOTFOUND' }), '', 0);
    if (options.all) return (callback as (error: null, all: ResolvedAddress[]) => void)(null, usable);
    callback(null, usable[0]!.address, usable[0]!.family);
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, {
      method: 'POST',
      lookup,
      agent: false,
      signal: AbortSignal.timeout(message.timeoutMs),
      headers: { ...message.headers, 'content-length': String(Buffer.byteLength(message.body)) },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(message.body);
  });
}
