import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';

/**
 * A port on 127.0.0.1 that drops connection attempts, as a firewall's DROP does: a listener in a
 * child process that is stopped (it accepts nothing) with its accept queue already full, so the
 * kernel ignores new SYNs and a client's connect times out instead of being refused.
 */
export async function startUnansweredPort() {
  const child = spawn(
    process.execPath,
    ['-e', "const s = require('node:net').createServer().listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => console.log(s.address().port))"],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<number>((resolve) => child.stdout!.once('data', (text) => resolve(Number(String(text).trim()))));
  child.kill('SIGSTOP');
  // A backlog of 1 holds two connections; both are completed before anyone else tries.
  const fillers: Socket[] = [];
  for (let i = 0; i < 2; i++) {
    const socket = connect(port, '127.0.0.1');
    fillers.push(socket);
    await new Promise((resolve) => socket.once('connect', resolve));
  }
  return {
    port,
    close() {
      fillers.forEach((socket) => socket.destroy());
      child.kill('SIGKILL');
    },
  };
}
