/**
 * The README's quickstart as a new user runs it on a fresh machine (issue 44): no Reddit credentials,
 * so `subpilot serve` runs on the demo source, and the commands copied from the README at test time,
 * pasted into one shell, give a scrape, a monitor and a match. The trickle is 1 s and the poller's
 * interval 1 s, so the match comes in seconds rather than the default minutes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { shellSession } from '../support/examples.ts';
import { examples } from '../support/markdown.ts';
import { startSubpilot } from '../support/processes.ts';

const dir = mkdtempSync(join(tmpdir(), 'subpilot-quickstart-demo-'));
const env = {
  DATABASE_URL: `sqlite:${join(dir, 'quickstart.sqlite')}`,
  DEMO_TRICKLE_SECONDS: '1',
  MONITOR_INTERVAL_SECONDS: '1',
  // Whatever the developer's shell holds, this is a fresh machine: no Reddit app, no model.
  ...Object.fromEntries(['REDDIT_SOURCE', 'REDDIT_CLIENT_ID', 'REDDIT_CLIENT_SECRET', 'LLM_BASE_URL', 'LLM_MODEL', 'LLM_API_KEY'].map((name) => [name, ''])),
};

describe('the README quickstart on a fresh machine, against the demo source', () => {
  let server: { url: string; child: ChildProcess };
  beforeAll(async () => {
    server = await startSubpilot(['serve'], env);
  });
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await new Promise((resolve) => (server?.child.exitCode !== null ? resolve(null) : server.child.once('exit', resolve)));
    rmSync(dir, { recursive: true, force: true });
  });

  it('makes a key, scrapes, creates a monitor and reads a match, every item labelled demo and nothing charged', async () => {
    const session = shellSession(dir, { ...env, BASE_URL: server.url });
    try {
      const step = (name: string) => session.example(name);
      expect(JSON.parse((await step('quickstart-key.sh')).trim().split('\n').at(-1)!)).toEqual({ balance: 100, owed: 0 });

      const scrape = JSON.parse(await step('quickstart-scrape.sh'));
      expect(scrape).toMatchObject({ status: 'completed', credits: { charged: 0, balance: 100 } });
      expect(scrape.results.length).toBeGreaterThan(0);
      for (const result of scrape.results) expect(result).toMatchObject({ source: 'demo', subreddit: expect.stringMatching(/^r\/(typescript|node)$/) });

      expect(await step('quickstart-monitor.sh')).toMatch(/^mon_[0-9a-f]{28}\n$/);

      let matches = '';
      for (const deadline = Date.now() + 60_000; matches === '' && Date.now() < deadline; ) {
        matches = await step('quickstart-matches.sh');
        if (matches === '') await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      const lines = matches.trim().split('\n');
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line).toMatch(/^mat_[0-9a-f]{28} {2}demo {2}(post|comment) {2}r\/(typescript|node) {2}https:\/\/www\.reddit\.com\/r\/\w+\/comments\/demo/);
    } finally {
      session.close();
    }
  }, 150_000);

  it('shows the detail of an error answer rather than a jq error or "null"', async () => {
    const session = shellSession(dir, { ...env, BASE_URL: server.url, SUBPILOT_API_KEY: `ak_live_${'0'.repeat(64)}` });
    try {
      const scrape = await session.run(examples().get('quickstart-scrape.sh')!.code);
      expect(scrape.output).toMatch(/^"The API key is/);
      const monitor = await session.run(examples().get('quickstart-monitor.sh')!.code);
      expect(monitor.errors).toMatch(/jq: error .*The API key is/);
      expect(monitor.output).toBe('\n');
    } finally {
      session.close();
    }
  }, 60_000);
});
