import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:tls';

export interface Certificate {
  key: Buffer;
  cert: Buffer;
}

/** A throwaway self-signed certificate for browser suites that need https (the browser is told to accept it). */
export function selfSignedCertificate(name: string): Certificate {
  const dir = mkdtempSync(join(tmpdir(), 'subpilot-tls-'));
  try {
    const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', `/CN=${name}`,
      '-addext', `subjectAltName=DNS:${name},DNS:*.${name}`, '-keyout', key, '-out', cert], { stdio: 'ignore' });
    return { key: readFileSync(key), cert: readFileSync(cert) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * TLS on 127.0.0.1 in front of a plain-http port, as the reverse proxy of an https deployment is. The
 * target is asked per connection, so the front can exist (and be named in PUBLIC_URL) before the app.
 */
export async function startTlsFront(certificate: Certificate, targetPort: () => number) {
  const open = new Set<Socket>();
  const track = (socket: Socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = createServer(certificate, (client) => {
    const upstream = connect(targetPort(), '127.0.0.1');
    track(client);
    track(upstream);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
