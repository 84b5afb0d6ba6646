import { describe, expect, it } from 'vitest';
import { loadConfig } from '../shared/config/config.ts';
import { startupReport } from './startup-report.ts';

const everything = {
  REDDIT_CLIENT_ID: 'id',
  REDDIT_CLIENT_SECRET: 'secret',
  LLM_BASE_URL: 'http://127.0.0.1:11434/v1',
  LLM_MODEL: 'llama3',
  PUBLIC_URL: 'https://subpilot.example',
  SECRET_KEY: 'a'.repeat(64),
  SMTP_URL: 'smtp://mail.example:587',
  MAIL_FROM: 'alerts@subpilot.example',
  TELEGRAM_BOT_TOKEN: `123456:${'A'.repeat(35)}`,
};
const listening = { host: '127.0.0.1', port: 8080 };
const without = (...names: (keyof typeof everything)[]) =>
  loadConfig(Object.fromEntries(Object.entries(everything).filter(([name]) => !names.includes(name as keyof typeof everything))));

describe('the start-up report', () => {
  it('with everything configured it says only where the dashboard is, at PUBLIC_URL', () => {
    expect(startupReport(loadConfig(everything), listening)).toEqual([
      { level: 'info', msg: 'Dashboard: https://subpilot.example/dashboard' },
      { level: 'info', msg: 'Credits are not sold here (no STRIPE_SECRET_KEY): grant them with `subpilot credits grant`; a 402 tells the caller to ask the operator.' },
    ]);
  });

  it('with a share of the budget for the stream it says the stream reads all of Reddit, at how many requests a minute', () => {
    expect(startupReport(loadConfig({ ...everything, REDDIT_STREAM_SHARE: '0.7', REDDIT_REQUESTS_PER_MINUTE: '100' }), listening)[2]).toEqual({
      level: 'info',
      msg:
        'All of Reddit: the site-wide stream reads every new post and comment with 70 of the 100 Reddit requests a minute (REDDIT_STREAM_SHARE=0.7); ' +
        'past 600 s behind it skips ahead and records the ids it skipped (docs/api/monitors-stream.md).',
    });
  });

  it('with Stripe it names the packs on sale and the address Stripe must send its events to', () => {
    const stripe = { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x', CREDIT_PACKS: '500:5.00,2000:18.00', CURRENCY: 'eur' };
    expect(startupReport(loadConfig({ ...everything, ...stripe }), listening)[1]).toEqual({
      level: 'info',
      msg: "Selling credits with Stripe: packs of 500, 2000 credits (eur); Stripe's events go to https://subpilot.example/webhooks/stripe.",
    });
  });

  it('with nothing configured it runs on the demo source, says so, and names what each capability still off needs', () => {
    const lines = startupReport(loadConfig({ PORT: '4321' }), { host: '0.0.0.0', port: 4321 });
    expect(lines[0]).toEqual({ level: 'info', msg: 'Dashboard: http://127.0.0.1:4321/dashboard' });
    const warnings = lines.slice(2);
    expect(warnings.every((line) => line.level === 'warn')).toBe(true);
    expect(warnings.map((line) => /^(.*?)(?: (?:is|are) off|:)/.exec(line.msg)?.[1])).toEqual(['Reddit source', 'Connect Reddit and publish', 'Webhooks', 'Email alerts', 'Sign-up confirmation and password reset by mail', 'Telegram alerts']);
    expect(warnings[0]!.msg).toMatch(/^Reddit source: demo\. .*every 30 s, labelled "demo", never Reddit's; publishing is simulated .* free \(DEMO_BILLED=false\); drafts and relevance verdicts come from the demo model .*REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET of an app Reddit has approved/);
    // The demo's approval page is on this machine: the redirect goes back to the local address, and only SECRET_KEY is missing.
    expect(warnings[1]!.msg).toBe('Connect Reddit and publish are off (POST /api/v1/publish answers 503): set SECRET_KEY (try: openssl rand -hex 32).');
  });

  it('on the demo source with a language model and DEMO_BILLED, the line says demo data is charged and names no demo model', () => {
    const [demo] = startupReport(without('REDDIT_CLIENT_ID', 'REDDIT_CLIENT_SECRET'), listening).slice(2);
    expect(demo!.msg).not.toMatch(/demo model/);
    const billed = startupReport(loadConfig({ ...everything, REDDIT_SOURCE: 'demo', DEMO_BILLED: 'true', DEMO_TRICKLE_SECONDS: '5' }), listening).slice(2);
    expect(billed.map((line) => line.msg)).toEqual([expect.stringMatching(/every 5 s.*charged at the PRICE_\* as Reddit data would be \(DEMO_BILLED=true\)/)]);
  });

  it('with REDDIT_SOURCE=reddit and nothing else it gives one warning per capability, each naming what to set', () => {
    const lines = startupReport(loadConfig({ REDDIT_SOURCE: 'reddit' }), { host: '0.0.0.0', port: 4321 });
    expect(lines[0]).toEqual({ level: 'info', msg: 'Dashboard: http://127.0.0.1:4321/dashboard' });
    const warnings = lines.slice(2);
    expect(warnings.every((line) => line.level === 'warn')).toBe(true);
    expect(warnings.map((line) => /^(.*?) (?:is|are) off/.exec(line.msg)?.[1])).toEqual([
      'Scrape',
      'Generate and relevance judging',
      'Connect Reddit and publish',
      'Webhooks',
      'Email alerts',
      'Sign-up confirmation and password reset by mail',
      'Telegram alerts',
    ]);
    expect(warnings[0]!.msg).toMatch(/REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET .*approved/);
    expect(warnings[1]!.msg).toMatch(/LLM_BASE_URL and LLM_MODEL/);
    expect(warnings[2]!.msg).toMatch(/REDDIT_CLIENT_ID.*"web app".*PUBLIC_URL.*SECRET_KEY/);
    expect(warnings[3]!.msg).toMatch(/SECRET_KEY \(try: openssl rand -hex 32\)/);
    expect(warnings[4]!.msg).toMatch(/^Email alerts are off \(an email destination answers 503\): set SMTP_URL and MAIL_FROM; PUBLIC_URL .*; SECRET_KEY/);
    expect(warnings[5]!.msg).toMatch(/^Sign-up confirmation .*tells whoever tries that an address has an account.*: set SMTP_URL and MAIL_FROM; PUBLIC_URL .*, or ALLOW_SIGNUP=false\.$/);
    expect(warnings[6]!.msg).toMatch(/^Telegram alerts are off .*: set TELEGRAM_BOT_TOKEN .*BotFather.*; SECRET_KEY/);
  });

  it('without SECRET_KEY alone, connections/publish, webhooks, email and Telegram are off and each names SECRET_KEY only', () => {
    const warnings = startupReport(without('SECRET_KEY'), listening).slice(2);
    expect(warnings).toHaveLength(4);
    expect(warnings[0]!.msg).toMatch(/^Connect Reddit and publish are off .*set SECRET_KEY \(try: openssl rand -hex 32\)\.$/);
    expect(warnings[1]!.msg).toMatch(/^Webhooks are off/);
    expect(warnings[2]!.msg).toMatch(/^Email alerts are off .*: set SECRET_KEY \(try: openssl rand -hex 32\)\.$/);
    expect(warnings[3]!.msg).toMatch(/^Telegram alerts are off .*: set SECRET_KEY \(try: openssl rand -hex 32\)\.$/);
  });

  it('without PUBLIC_URL connections are off for want of a redirect URI, and the dashboard is at the listening address', () => {
    const lines = startupReport(without('PUBLIC_URL'), { host: '::1', port: 9000 });
    expect(lines.map((line) => line.msg)).toEqual([
      'Dashboard: http://[::1]:9000/dashboard',
      expect.stringMatching(/^Credits are not sold here/),
      'Connect Reddit and publish are off (POST /api/v1/publish answers 503): set PUBLIC_URL (or REDDIT_REDIRECT_URI).',
      'Email alerts are off (an email destination answers 503): set PUBLIC_URL (the links in each mail).',
      expect.stringMatching(/^Sign-up confirmation and password reset by mail are off .*: set PUBLIC_URL \(the links in each mail\), or ALLOW_SIGNUP=false\.$/),
    ]);
  });

  it('with sign-up closed, no mail is needed for it and nothing is said of it', () => {
    const lines = startupReport(loadConfig({ ...everything, SMTP_URL: '', MAIL_FROM: '', ALLOW_SIGNUP: 'false' }), listening);
    expect(lines.map((line) => line.msg).filter((msg) => msg.startsWith('Sign-up'))).toEqual([]);
  });

  it('without Reddit credentials the source is the demo, and nothing is off', () => {
    const warnings = startupReport(without('REDDIT_CLIENT_ID', 'REDDIT_CLIENT_SECRET'), listening).slice(2);
    expect(warnings.map((line) => line.msg)).toEqual([expect.stringMatching(/^Reddit source: demo\./)]);
  });

  it('with REDDIT_SOURCE=reddit and no credentials scrape and connections are off, and nothing else', () => {
    const warnings = startupReport(loadConfig({ ...everything, REDDIT_SOURCE: 'reddit', REDDIT_CLIENT_ID: '', REDDIT_CLIENT_SECRET: '' }), listening).slice(2);
    expect(warnings.map((line) => line.msg)).toEqual([
      expect.stringMatching(/^Scrape is off/),
      expect.stringMatching(/^Connect Reddit and publish are off .*: set REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET \(an approved Reddit app of type "web app"\)\.$/),
    ]);
  });

  it('without a language model only generate is off', () => {
    const warnings = startupReport(without('LLM_BASE_URL', 'LLM_MODEL'), listening).slice(2);
    expect(warnings.map((line) => line.msg)).toEqual([
      "Generate and relevance judging are off (POST /api/v1/generate answers 503, a monitor's intent is refused): set LLM_BASE_URL and LLM_MODEL to an OpenAI-compatible endpoint and model.",
    ]);
  });
});
