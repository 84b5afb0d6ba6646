import { Writable } from 'node:stream';
import { buildServer } from '../../src/app/server.ts';
import type { TestApp } from './app.ts';

/** One JSON log line of the service, as pino writes it. */
export interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  [field: string]: unknown;
}

/**
 * A second server over the test app's services whose log lines the test reads: `lines` parsed, `raw()`
 * as written (to prove a secret never reached the log in any form).
 */
export async function serverWithLogs(app: TestApp): Promise<{ url: string; lines: LogLine[]; raw: () => string; close: () => Promise<void> }> {
  const lines: LogLine[] = [];
  let raw = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      raw += chunk;
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const server = await buildServer(app.services, { logStream: stream });
  const url = await server.listen({ port: 0, host: '127.0.0.1' });
  return { url, lines, raw: () => raw, close: () => server.close() };
}
