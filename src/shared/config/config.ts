import { resolve } from 'node:path';
import { billingConfig, type BillingConfig } from './billing.ts';
import { channelsConfig, type ChannelsConfig } from './channels.ts';
import { railsConfig, type RailsConfig } from './rails.ts';
import { streamConfig, type StreamConfig } from './stream.ts';
import { redditSourceConfig, redirectUri, type DemoConfig, type RedditConfig } from './reddit.ts';
import type { DataSource } from '../demo.ts';

export type { DemoConfig, RedditConfig } from './reddit.ts';

export type DatabaseTarget =
  | { dialect: 'sqlite'; path: string }
  | { dialect: 'postgres'; url: string };

/** An OpenAI-compatible Chat Completions endpoint; null when LLM_BASE_URL is unset. */
export interface LlmConfig {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
}

export interface Config {
  port: number;
  host: string;
  database: DatabaseTarget;
  /** Reddit itself or the built-in demo (reddit.ts); the demo needs no approved app. */
  redditSource: DataSource;
  /** The approved Reddit app; null on the demo source or without REDDIT_CLIENT_ID. */
  reddit: RedditConfig | null;
  demo: DemoConfig;
  prices: Prices;
  logLevel: string;
  /** Whether the dashboard's sign-up page accepts new accounts. */
  allowSignup: boolean;
  /** Credits a dashboard sign-up starts with (a grant in its ledger); 0: none. */
  signupCredits: number;
  /** Where people reach the dashboard; an https URL makes the session cookie Secure. */
  publicUrl: string | null;
  /** Who API users should write to, as the API document's info.contact; null: the document names no one. */
  apiContact: { email?: string; url?: string } | null;
  sessionTtlHours: number;
  llm: LlmConfig | null;
  /** Where Reddit sends the person back after they approve the connection; null: connections are off. */
  redditRedirectUri: string | null;
  /** 32 bytes for AES-256-GCM over stored Reddit refresh tokens; null: connections are off. */
  secretKey: Buffer | null;
  jobs: JobsConfig;
  webhooks: { allowHttp: boolean; allowPrivate: boolean; retryDelaySeconds: number };
  rateLimitPerMinute: number;
  /** All keys of one account together (an account may hold several keys). */
  rateLimitPerAccountPerMinute: number;
  /** Requests with a missing or invalid key per client address per minute before 429. */
  authFailuresPerMinute: number;
  /** Reddit API calls per minute shared by every instance and account (Reddit allows 100 per client id). */
  redditRequestsPerMinute: number;
  redisUrl: string | null;
  http: HttpTimeouts;
  monitors: MonitorsConfig;
  /** The site-wide stream's share of the Reddit budget and its lag bound (stream.ts); share 0: off. */
  stream: StreamConfig;
  /** Buying credits with Stripe (billing.ts); without it credits come from the operator. */
  billing: BillingConfig;
  /** The publishing rails (rails.ts): paces and the same-text window; 0 turns one off. */
  rails: RailsConfig;
  /** Email, Telegram and the channels' paces for alert destinations (channels.ts). */
  channels: ChannelsConfig;
}

/**
 * The variable that sets each price. The API's reference names them (its prices are each instance's
 * own); what a model reads over MCP states the amounts instead (mcp.schemas.ts).
 */
export const PRICE_VARIABLES = {
  scrapePair: 'PRICE_SCRAPE',
  generate: 'PRICE_GENERATE',
  publish: 'PRICE_PUBLISH',
  monitorMatch: 'PRICE_MONITOR_MATCH',
  judge: 'PRICE_JUDGE',
} as const satisfies Record<keyof Prices, string>;

/** Credits per unit of what each feature sells; what a purchase costs is worked out in credits.prices.ts. */
export interface Prices {
  /** Per subreddit × keyword pair of a scrape. */
  scrapePair: number;
  /** Per generated draft. */
  generate: number;
  /** Per comment or post sent to Reddit. */
  publish: number;
  /** Per match a monitor delivers. */
  monitorMatch: number;
  /** Per match the relevance judge scores (delivered or filtered). */
  judge: number;
}

/** The one poller behind every monitor (src/modules/monitors). */
export interface MonitorsConfig {
  /** The target time between two reads of every watched subreddit; longer when the Reddit budget is short. */
  intervalSeconds: number;
  /** Listing pages read per subreddit group and source in one cycle before the rest is recorded as a gap. */
  maxPagesPerCycle: number;
  /** Monitors one account may have, paused ones included. */
  maxPerAccount: number;
  /** Distinct subreddits (case-insensitive) across all of one account's monitors, paused ones included. */
  maxSubredditsPerAccount: number;
}

/** Slow clients (slow-loris) must not hold connections open for ever. */
export interface HttpTimeouts {
  /** The whole request, headers and body, must arrive within this. */
  requestTimeoutMs: number;
  /** The headers must arrive within this (at most requestTimeoutMs). */
  headersTimeoutMs: number;
  /** An idle kept-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
}

export interface JobsConfig {
  /** How long a sync scrape waits for its job before answering 202. */
  syncWaitMs: number;
  /** A job not finished by then is taken over by another worker (after a kill -9, say). */
  leaseSeconds: number;
  concurrency: number;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function url(env: Env, name: string, fallback: string): string {
  const raw = env[name] || fallback;
  try {
    const parsed = new URL(raw);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error('scheme');
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
}

function apiContact(env: Env): Config['apiContact'] {
  const email = env.API_CONTACT_EMAIL || undefined;
  if (email !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    throw new ConfigError(`API_CONTACT_EMAIL must be an email address, got "${email}"`);
  }
  const contactUrl = env.API_CONTACT_URL ? url(env, 'API_CONTACT_URL', '') : undefined;
  return email || contactUrl ? { ...(email ? { email } : {}), ...(contactUrl ? { url: contactUrl } : {}) } : null;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw !== 'true' && raw !== 'false') throw new ConfigError(`${name} must be true or false, got "${raw}"`);
  return raw === 'true';
}

function httpTimeouts(env: Env): HttpTimeouts {
  const requestTimeoutMs = integer(env, 'HTTP_REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000);
  const headersTimeoutMs = integer(env, 'HTTP_HEADERS_TIMEOUT_MS', Math.min(10_000, requestTimeoutMs), 100, 3_600_000);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError(`HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS (${requestTimeoutMs}), got "${headersTimeoutMs}"`);
  }
  // Above the 60 s idle timeout of common load balancers, so the balancer, not us, closes idle connections.
  return { requestTimeoutMs, headersTimeoutMs, keepAliveTimeoutMs: integer(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 72_000, 100, 3_600_000) };
}

function redisUrl(raw: string): string {
  if (!/^rediss?:\/\/[^\s]+$/.test(raw)) throw new ConfigError('REDIS_URL must start with redis:// or rediss:// (the value is not shown)');
  return raw;
}

/** 32 bytes as 64 hex digits or base64; the value itself never appears in an error. */
export function parseSecretKey(raw: string | undefined): Buffer | null {
  if (!raw) return null;
  const key = /^[0-9a-fA-F]{64}$/.test(raw)
    ? Buffer.from(raw, 'hex')
    : /^[A-Za-z0-9+/_-]+={0,2}$/.test(raw)
      ? Buffer.from(raw, 'base64')
      : null;
  if (!key || key.length !== 32) {
    throw new ConfigError('SECRET_KEY must be 32 bytes written as 64 hex digits or as base64 (the value is not shown); try: openssl rand -hex 32');
  }
  return key;
}

function llmConfig(env: Env): LlmConfig | null {
  if (!env.LLM_BASE_URL) {
    if (env.LLM_MODEL || env.LLM_API_KEY) throw new ConfigError('LLM_BASE_URL must be set when LLM_MODEL or LLM_API_KEY is set');
    return null;
  }
  if (!env.LLM_MODEL) throw new ConfigError('LLM_MODEL must be set when LLM_BASE_URL is set');
  return {
    baseUrl: url(env, 'LLM_BASE_URL', ''),
    // Local OpenAI-compatible servers often take no key, but the client insists on one.
    apiKey: env.LLM_API_KEY || 'unused',
    model: env.LLM_MODEL,
    timeoutMs: integer(env, 'LLM_TIMEOUT_MS', 60_000, 1000, 600_000),
  };
}

export function parseDatabaseUrl(raw: string | undefined): DatabaseTarget {
  if (!raw) return { dialect: 'sqlite', path: resolve('data/subpilot.sqlite') };
  if (raw.startsWith('sqlite:')) {
    const path = raw.slice('sqlite:'.length).replace(/^\/\//, '');
    if (!path) throw new ConfigError('DATABASE_URL "sqlite:" needs a file path, e.g. sqlite:./data/subpilot.sqlite');
    return { dialect: 'sqlite', path: path === ':memory:' ? path : resolve(path) };
  }
  if (/^postgres(ql)?:\/\//.test(raw)) return { dialect: 'postgres', url: raw };
  throw new ConfigError('DATABASE_URL must start with sqlite: or postgres:// (the value is not shown)');
}

/** Reads and validates the environment once; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: Env = process.env): Config {
  const fail = (message: string): never => {
    throw new ConfigError(message);
  };
  const source = redditSourceConfig(env, {
    url: (name, fallback) => url(env, name, fallback),
    integer: (name, fallback, min, max) => integer(env, name, fallback, min, max),
    boolean: (name, fallback) => boolean(env, name, fallback),
    fail,
  });
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  const logLevel = env.LOG_LEVEL || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "${logLevel}"`);
  }
  return {
    port,
    host,
    database: parseDatabaseUrl(env.DATABASE_URL),
    ...source,
    prices: {
      scrapePair: integer(env, PRICE_VARIABLES.scrapePair, 1, 0, 1_000_000),
      generate: integer(env, PRICE_VARIABLES.generate, 5, 0, 1_000_000),
      publish: integer(env, PRICE_VARIABLES.publish, 10, 0, 1_000_000),
      monitorMatch: integer(env, PRICE_VARIABLES.monitorMatch, 1, 0, 1_000_000),
      judge: integer(env, PRICE_VARIABLES.judge, 1, 0, 1_000_000),
    },
    logLevel,
    allowSignup: boolean(env, 'ALLOW_SIGNUP', true),
    signupCredits: integer(env, 'SIGNUP_CREDITS', 0, 0, 1_000_000),
    publicUrl: env.PUBLIC_URL ? url(env, 'PUBLIC_URL', '') : null,
    apiContact: apiContact(env),
    sessionTtlHours: integer(env, 'SESSION_TTL_HOURS', 168, 1, 24 * 366),
    llm: llmConfig(env),
    redditRedirectUri: redirectUri(env, source.redditSource, (name) => url(env, name, ''), { host, port }),
    secretKey: parseSecretKey(env.SECRET_KEY),
    jobs: {
      syncWaitMs: integer(env, 'SCRAPE_SYNC_WAIT_MS', 25_000, 0, 600_000),
      leaseSeconds: integer(env, 'JOB_LEASE_SECONDS', 120, 1, 3600),
      concurrency: integer(env, 'WORKER_CONCURRENCY', 4, 1, 64),
    },
    webhooks: {
      allowHttp: boolean(env, 'ALLOW_HTTP_WEBHOOKS', false),
      allowPrivate: boolean(env, 'ALLOW_PRIVATE_WEBHOOKS', false),
      retryDelaySeconds: integer(env, 'WEBHOOK_RETRY_DELAY_SECONDS', 30, 1, 3600),
    },
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 120, 1, 1_000_000_000),
    // Five keys' worth: an account's integrations share it, and creating keys does not raise it.
    rateLimitPerAccountPerMinute: integer(
      env,
      'RATE_LIMIT_PER_ACCOUNT_PER_MINUTE',
      5 * integer(env, 'RATE_LIMIT_PER_MINUTE', 120, 1, 1_000_000_000),
      1,
      5_000_000_000,
    ),
    authFailuresPerMinute: integer(env, 'AUTH_FAILURES_PER_MINUTE', 120, 1, 1_000_000_000),
    // Reddit allows 100; 10 are left for user-context calls (publishing) and clock skew between instances.
    redditRequestsPerMinute: integer(env, 'REDDIT_REQUESTS_PER_MINUTE', 90, 1, 100_000),
    redisUrl: env.REDIS_URL ? redisUrl(env.REDIS_URL) : null,
    http: httpTimeouts(env),
    monitors: {
      intervalSeconds: integer(env, 'MONITOR_INTERVAL_SECONDS', 60, 1, 3600),
      // 10 pages of 100 reach back about as far as Reddit's listings go (about 1,000 things).
      maxPagesPerCycle: integer(env, 'MONITOR_MAX_PAGES_PER_CYCLE', 10, 1, 10),
      // One Reddit app has about 90 requests a minute for every account: no one account may take most of
      // them. 500 subreddits are 5 groups of 100 × 2 sources = 10 listing requests a minute at 60 s.
      maxPerAccount: integer(env, 'MONITOR_MAX_PER_ACCOUNT', 25, 1, 1_000_000),
      maxSubredditsPerAccount: integer(env, 'MONITOR_MAX_SUBREDDITS_PER_ACCOUNT', 500, 1, 1_000_000),
    },
    stream: streamConfig(env, integer, fail),
    billing: billingConfig(env, env.PUBLIC_URL ? url(env, 'PUBLIC_URL', '') : null, url(env, 'STRIPE_API_URL', 'https://api.stripe.com'), fail),
    rails: railsConfig(env, integer),
    channels: channelsConfig(env, (name, fallback) => url(env, name, fallback), fail),
  };
}
