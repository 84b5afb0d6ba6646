import { PostFailure } from '../../integrations/webhooks/webhooks.http.ts';
import { isAppError } from '../../shared/errors.ts';

/**
 * What an account is told about a failed attempt. A refusal of ours (the URL's check, no SECRET_KEY)
 * reads as it is; a failed POST only by how far it got. So a closed port, a filtered one and an
 * unreachable host all read "could not connect to the receiver": the socket's own error (refused,
 * timed out, unreachable) would let anyone able to send a test event map the ports of the server's
 * network. The server log keeps the exact cause.
 */
export function attemptError(cause: unknown, timeoutMs: number): string {
  if (isAppError(cause)) return cause.message;
  if (!(cause instanceof PostFailure)) return 'the delivery failed on this server (its log has the cause)';
  switch (cause.stage) {
    case 'connect':
      return 'could not connect to the receiver';
    case 'certificate':
      return `the receiver's TLS certificate was not accepted (${cause.message})`;
    case 'handshake':
      return 'the TLS handshake with the receiver failed';
    case 'timeout':
      return `the receiver did not answer within ${timeoutMs / 1000} s`;
    case 'answer':
      return 'the receiver closed the connection without a valid HTTP answer';
  }
}
