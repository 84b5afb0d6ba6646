import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSubpilot } from '../support/processes.ts';
import { eventually } from '../support/receiver.ts';

const dir = mkdtempSync(join(tmpdir(), 'subpilot-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('subpilot serve at start-up', () => {
  it('logs where the dashboard is and, with nothing configured, which capabilities are off and what to set', async () => {
    let stdout = '';
    const { url, child } = await startSubpilot(
      ['serve'],
      {
        DATABASE_URL: `sqlite:${join(dir, 'startup.sqlite')}`,
        LOG_LEVEL: 'info',
        // Whatever the developer's shell holds, this process starts with every optional capability off.
        ...Object.fromEntries(
          ['REDDIT_CLIENT_ID', 'REDDIT_CLIENT_SECRET', 'LLM_BASE_URL', 'LLM_MODEL', 'LLM_API_KEY', 'SECRET_KEY', 'PUBLIC_URL', 'REDDIT_REDIRECT_URI', 'SMTP_URL', 'MAIL_FROM', 'TELEGRAM_BOT_TOKEN'].map(
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
        expect.stringMatching(/^Scrape is off .*REDDIT_CLIENT_ID/),
        expect.stringMatching(/^Generate and relevance judging are off .*LLM_BASE_URL/),
        expect.stringMatching(/^Connect Reddit and publish are off .*SECRET_KEY/),
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
