import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('dashboard configuration', () => {
  it('defaults: sign-up on with no credits, no public URL, sessions of 168 hours', () => {
    expect(loadConfig({})).toMatchObject({ allowSignup: true, signupCredits: 0, publicUrl: null, sessionTtlHours: 168 });
  });

  it('reads ALLOW_SIGNUP, SIGNUP_CREDITS, PUBLIC_URL and SESSION_TTL_HOURS', () => {
    const config = loadConfig({ ALLOW_SIGNUP: 'false', SIGNUP_CREDITS: '50', PUBLIC_URL: 'https://dash.example.com/', SESSION_TTL_HOURS: '12' });
    expect(config).toMatchObject({ allowSignup: false, signupCredits: 50, publicUrl: 'https://dash.example.com', sessionTtlHours: 12 });
  });

  it.each([
    ['ALLOW_SIGNUP', 'no'],
    ['SIGNUP_CREDITS', '-5'],
    ['SIGNUP_CREDITS', '2.5'],
    ['SIGNUP_CREDITS', '1000001'],
    ['PUBLIC_URL', 'ftp://example.com'],
    ['SESSION_TTL_HOURS', '0'],
    ['SESSION_TTL_HOURS', 'a week'],
  ])('a bad %s (%s) throws a ConfigError naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});

describe('HTTP timeouts', () => {
  it('default to 30 s for a request, 10 s for its headers and 72 s for an idle kept-alive connection', () => {
    expect(loadConfig({}).http).toEqual({ requestTimeoutMs: 30_000, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 72_000 });
  });

  it('refuse a headers timeout longer than the request timeout, naming the variable', () => {
    expect(() => loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '5000', HTTP_HEADERS_TIMEOUT_MS: '6000' })).toThrow('HTTP_HEADERS_TIMEOUT_MS');
    expect(loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '5000' }).http.headersTimeoutMs).toBe(5000);
  });
});

describe('limits per account, per address and on Reddit', () => {
  it('default to 5 × the per-key limit per account, 30 failed keys per address and 90 Reddit calls a minute', () => {
    expect(loadConfig({})).toMatchObject({ rateLimitPerAccountPerMinute: 600, authFailuresPerMinute: 120, redditRequestsPerMinute: 90 });
    expect(loadConfig({ RATE_LIMIT_PER_MINUTE: '10' }).rateLimitPerAccountPerMinute).toBe(50);
  });

  it.each([
    ['RATE_LIMIT_PER_ACCOUNT_PER_MINUTE', '0'],
    ['AUTH_FAILURES_PER_MINUTE', 'many'],
    ['REDDIT_REQUESTS_PER_MINUTE', '0'],
  ])('a bad %s (%s) throws a ConfigError naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});

describe('generate and publish configuration', () => {
  it('defaults: prices 5 and 10, no model, no connections', () => {
    expect(loadConfig({ REDDIT_SOURCE: 'reddit' })).toMatchObject({ prices: { generate: 5, publish: 10 }, llm: null, secretKey: null, redditRedirectUri: null });
  });

  it('reads SECRET_KEY as 64 hex digits or base64, and derives the redirect URI from PUBLIC_URL', () => {
    const bytes = randomBytes(32);
    expect(loadConfig({ SECRET_KEY: bytes.toString('hex') }).secretKey).toEqual(bytes);
    expect(loadConfig({ SECRET_KEY: bytes.toString('base64') }).secretKey).toEqual(bytes);
    expect(loadConfig({ PUBLIC_URL: 'https://app.example.com' }).redditRedirectUri).toBe(
      'https://app.example.com/dashboard/connections/reddit/callback',
    );
    expect(loadConfig({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1', LLM_MODEL: 'llama3' }).llm).toMatchObject({ apiKey: 'unused', model: 'llama3' });
  });

  it.each([
    ['SECRET_KEY', { SECRET_KEY: 'too-short-secret-value' }],
    ['SECRET_KEY', { SECRET_KEY: 'ab'.repeat(31) }],
    ['LLM_MODEL', { LLM_BASE_URL: 'http://127.0.0.1/v1' }],
    ['LLM_BASE_URL', { LLM_MODEL: 'gpt' }],
    ['PRICE_PUBLISH', { PRICE_PUBLISH: 'ten' }],
    ['REDDIT_REDIRECT_URI', { REDDIT_REDIRECT_URI: 'not a url' }],
    ['REDDIT_SOURCE', { REDDIT_SOURCE: 'pushshift' }],
    ['DEMO_BILLED', { DEMO_BILLED: 'yes' }],
    ['DEMO_TRICKLE_SECONDS', { DEMO_TRICKLE_SECONDS: '0' }],
  ])('a bad value throws a ConfigError naming %s', (name, env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });

  it('never prints the secret itself', () => {
    const secret = 'my-very-secret-value-that-is-wrong';
    expect(() => loadConfig({ SECRET_KEY: secret })).toThrow(expect.objectContaining({ message: expect.not.stringContaining(secret) }));
  });
});

describe('the Reddit source', () => {
  it('is the demo without REDDIT_CLIENT_ID, free, a sample every 30 s, and Connect Reddit comes back to the local address', () => {
    expect(loadConfig({})).toMatchObject({ redditSource: 'demo', reddit: null, demo: { billed: false, trickleSeconds: 30 } });
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '9000' }).redditRedirectUri).toBe('http://127.0.0.1:9000/dashboard/connections/reddit/callback');
    // PORT=0 is known only once listening; PUBLIC_URL wins over the local address.
    expect(loadConfig({ PORT: '0' }).redditRedirectUri).toBeNull();
    expect(loadConfig({ PUBLIC_URL: 'https://app.example.com' }).redditRedirectUri).toBe('https://app.example.com/dashboard/connections/reddit/callback');
  });

  it('is Reddit with REDDIT_CLIENT_ID, and the demo when REDDIT_SOURCE=demo says so whatever the credentials', () => {
    const credentials = { REDDIT_CLIENT_ID: 'id', REDDIT_CLIENT_SECRET: 'secret' };
    expect(loadConfig(credentials)).toMatchObject({ redditSource: 'reddit', reddit: { clientId: 'id', apiUrl: 'https://oauth.reddit.com' } });
    expect(loadConfig({ ...credentials, REDDIT_SOURCE: 'demo', DEMO_BILLED: 'true', DEMO_TRICKLE_SECONDS: '2' })).toMatchObject({ redditSource: 'demo', reddit: null, demo: { billed: true, trickleSeconds: 2 } });
    expect(loadConfig({ REDDIT_SOURCE: 'reddit' })).toMatchObject({ redditSource: 'reddit', reddit: null });
  });
});
