import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';

const body = { name: 'Launch watch', subreddits: ['r/node', 'r/TypeScript'], keywords: ['subpilot', 'reddit api'] };

/** A monitor on a server that cannot read Reddit (monitors over all of Reddit without the stream: monitors-all.test.ts). */
describe.each(engines)('the monitors API without Reddit on %s', (engine) => {
  it('a server without Reddit credentials refuses to create a monitor it could never read, with 503', async () => {
    const bare = await startTestApp(engine, { redditConfigured: false, worker: false });
    try {
      const { token } = await bare.accountWithKey(0);
      const answer = await bare.api('POST', '/api/v1/monitors', { token, body });
      expect(answer.status).toBe(503);
      expect(await answer.json()).toMatchObject({ code: 'monitors.not_configured' });
      expect((await (await bare.api('GET', '/api/v1/monitors', { token })).json()).data).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});
