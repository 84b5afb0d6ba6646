import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export interface LossyProxy {
  url: string;
  /** The `Idempotency-Key` of every request that went through, in order (null: the request had none). */
  keys: (string | null)[];
  /** Cuts the connection of each of the next `count` requests as its answer arrives: the server did the work, the client never hears of it. */
  dropAnswers(count: number): void;
  close(): Promise<void>;
}

/**
 * A TCP relay on 127.0.0.1 in front of `target` that can lose answers: the request reaches the server
 * whole and is carried out, and the connection is cut when the first byte of its answer comes back,
 * as a network that fails at the worst moment does.
 */
export async function startLossyProxy(target: string): Promise<LossyProxy> {
  const { hostname, port } = new URL(target);
  const keys: (string | null)[] = [];
  const open = new Set<Socket>();
  let toDrop = 0;
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    let head = '';
    // Whether the answer now awaited on this connection is one to lose: decided as its request arrives.
    let dropThisAnswer = false;
    client.on('data', (chunk: Buffer) => {
      // Each request's head, read once it is complete, for the key it carries.
      head += chunk.toString('latin1');
      for (let end = head.indexOf('\r\n\r\n'); end !== -1; end = head.indexOf('\r\n\r\n')) {
        keys.push(/^idempotency-key: *(.*?) *$/im.exec(head.slice(0, end))?.[1] ?? null);
        head = '';
        if (toDrop > 0) {
          toDrop--;
          dropThisAnswer = true;
        }
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!dropThisAnswer) return void client.write(chunk);
      client.destroy();
      upstream.destroy();
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    keys,
    dropAnswers(count) {
      toDrop = count;
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
