import { resolve } from 'node:path';

export type DatabaseTarget =
  | { dialect: 'sqlite'; path: string }
  | { dialect: 'postgres'; url: string };

export interface RedditConfig {
  clientId: string;
  clientSecret: string;
  userAgent: string;
  apiUrl: string;
  authUrl: string;
}

export interface Config {
  port: number;
  host: string;
  database: DatabaseTarget;
  reddit: RedditConfig | null;
  priceScrape: number;
  logLevel: string;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

const DEFAULT_USER_AGENT = 'node:subpilot:0.1.0 (by /u/subpilot)';

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
  const redditApiUrl = url(env, 'REDDIT_API_URL', 'https://oauth.reddit.com');
  const redditAuthUrl = url(env, 'REDDIT_AUTH_URL', 'https://www.reddit.com');
  const clientId = env.REDDIT_CLIENT_ID ?? '';
  const clientSecret = env.REDDIT_CLIENT_SECRET ?? '';
  if (clientId && !clientSecret) {
    throw new ConfigError('REDDIT_CLIENT_SECRET must be set when REDDIT_CLIENT_ID is set');
  }
  const logLevel = env.LOG_LEVEL || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "${logLevel}"`);
  }
  return {
    port: integer(env, 'PORT', 8080, 0, 65535),
    host: env.HOST || '127.0.0.1',
    database: parseDatabaseUrl(env.DATABASE_URL),
    reddit: clientId
      ? {
          clientId,
          clientSecret,
          userAgent: env.REDDIT_USER_AGENT || DEFAULT_USER_AGENT,
          apiUrl: redditApiUrl,
          authUrl: redditAuthUrl,
        }
      : null,
    priceScrape: integer(env, 'PRICE_SCRAPE', 1, 0, 1_000_000),
    logLevel,
  };
}
