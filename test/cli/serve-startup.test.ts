import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSubpilot } from '../support/processes.ts';
import { eventually } from '../support/receiver.ts';

const dir = mkdtempSync(join(tmpdir(), 'subpilot-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('subpilot serve at start-up', () => {
  it('logs where the dashboard is and, with nothing configured, that the source is the demo and which capabilities are off and what to set', async () => {
    let stdout = '';
    const { url, child } = await startSubpilot(
      ['serve'],
      {
        DATABASE_URL: `sqlite:${join(dir, 'startup.sqlite')}`,
        LOG_LEVEL: 'info',
        // Whatever the developer's shell holds, this process starts with every optional capability off.
        ...Object.fromEntries(
          ['REDDIT_SOURCE', 'REDDIT_CLIENT_ID', 'REDDIT_CLIENT_SECRET', 'LLM_BASE_URL', 'LLM_MODEL', 'LLM_API_KEY', 'SECRET_KEY', 'PUBLIC_URL', 'REDDIT_REDIRECT_URI', 'SMTP_URL', 'MAIL_FROM', 'TELEGRAM_BOT_TOKEN'].map(
            (name) => [name, ''],
          ),
        ),
      },
      { onStdout: (text) => (stdout += text) },
    );
    try {
      const messages = await eventually(async () => {
        const lines = stdout.split('\n').filter((line) => line.startsWith('{'));
        const parsed = lines.map((line) => JSON.parse(line) as { level: number; msg: string });
        return parsed.some((line) => line.msg.startsWith('Telegram alerts are off')) ? parsed : undefined;
      }, 10_000);
      expect(messages).toContainEqual(expect.objectContaining({ level: 30, msg: `Dashboard: ${url}/dashboard` }));
      const warnings = messages.filter((line) => line.level === 40).map((line) => line.msg);
      expect(warnings).toEqual([
        expect.stringMatching(/^Reddit source: demo\. .*labelled "demo".*free \(DEMO_BILLED=false\).*REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET of an app Reddit has approved/),
        // The demo's approval page is on this machine: Connect Reddit comes back to the listening address, so only SECRET_KEY is missing.
        'Connect Reddit and publish are off (POST /api/v1/publish answers 503): set SECRET_KEY (try: openssl rand -hex 32).',
        expect.stringMatching(/^Webhooks are off .*SECRET_KEY/),
        expect.stringMatching(/^Email alerts are off .*SMTP_URL/),
        expect.stringMatching(/^Sign-up confirmation and password reset by mail are off .*SMTP_URL/),
        expect.stringMatching(/^Telegram alerts are off .*TELEGRAM_BOT_TOKEN/),
      ]);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)));
    }
  });
});
