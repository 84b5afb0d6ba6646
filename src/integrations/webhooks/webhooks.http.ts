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
 * How far a failed POST got. `connect`: no connection was made, whatever the reason (refused, timed
 * out, unreachable: the socket's error tells a closed port from a filtered one, so callers show the
 * stage, not the error). `certificate`: the receiver's TLS certificate was not accepted. `handshake`:
 * TLS failed otherwise. `timeout`: connected, but no complete answer in time. `answer`: connected,
 * but the connection failed or the answer was not HTTP.
 */
export type PostStage = 'connect' | 'certificate' | 'handshake' | 'timeout' | 'answer';

export class PostFailure extends Error {
  constructor(
    readonly stage: PostStage,
    cause: Error,
  ) {
    super(cause.message, { cause });
    this.name = 'PostFailure';
  }
}

/** OpenSSL's verification codes and Node's host name check; other TLS errors are the handshake's. */
const CERTIFICATE_ERROR = /CERT|UNABLE_TO_|INVALID_CA|HOSTNAME_MISMATCH/;

function stageOf(error: Error & { code?: string }, progress: { connected: boolean; secured: boolean }, timedOut: boolean): PostStage {
  if (!progress.connected) return 'connect';
  if (timedOut) return 'timeout';
  if (!progress.secured) return CERTIFICATE_ERROR.test(error.code ?? '') ? 'certificate' : 'handshake';
  return 'answer';
}

/**
 * POSTs to `url` connecting only to `addresses` (the ones that were checked): the socket's lookup
 * answers from them instead of asking DNS again, while TLS still verifies the certificate against the
 * URL's host name (Node takes the servername from the host). Redirects are never followed: Node's
 * client does not, so a 3xx comes back as the answer. Resolves to the status code; rejects with a
 * PostFailure.
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
  const tls = url.protocol === 'https:';
  const send = tls ? httpsRequest : httpRequest;
  const signal = AbortSignal.timeout(message.timeoutMs);
  const progress = { connected: false, secured: !tls };
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => reject(new PostFailure(stageOf(error, progress, signal.aborted), error));
    const req = send(url, {
      method: 'POST',
      lookup,
      agent: false,
      signal,
      headers: { ...message.headers, 'content-length': String(Buffer.byteLength(message.body)) },
    });
    req.on('socket', (socket) => {
      socket.once('connect', () => (progress.connected = true));
      socket.once('secureConnect', () => (progress.secured = true));
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(message.body);
  });
}
