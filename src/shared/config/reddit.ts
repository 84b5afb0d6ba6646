/**
 * Where Reddit's data comes from (issue 44): Reddit itself, through an app Reddit has approved, or the
 * built-in demo source (src/integrations/reddit/demo/), which needs no approval. Read once at start-up
 * with the rest of the configuration (config.ts).
 */
import type { DataSource } from '../demo.ts';

export interface RedditConfig {
  clientId: string;
  clientSecret: string;
  userAgent: string;
  apiUrl: string;
  authUrl: string;
}

export interface DemoConfig {
  /** DEMO_BILLED: demo scrapes, matches and simulated publications cost their PRICE_* like Reddit's; false: nothing. */
  billed: boolean;
  /** DEMO_TRICKLE_SECONDS: one new sample post or comment this often. */
  trickleSeconds: number;
}

export interface RedditSourceConfig {
  /** REDDIT_SOURCE: `reddit` (the default with REDDIT_CLIENT_ID) or `demo` (the default without it). */
  redditSource: DataSource;
  /** The approved Reddit app; null on the demo source, or on `reddit` without credentials (scrape is off then). */
  reddit: RedditConfig | null;
  demo: DemoConfig;
}

type Env = Record<string, string | undefined>;

export const DEFAULT_USER_AGENT = 'node:subpilot:0.1.0 (by /u/subpilot)';

export function redditSourceConfig(
  env: Env,
  read: {
    url: (name: string, fallback: string) => string;
    integer: (name: string, fallback: number, min: number, max: number) => number;
    boolean: (name: string, fallback: boolean) => boolean;
    fail: (message: string) => never;
  },
): RedditSourceConfig {
  const apiUrl = read.url('REDDIT_API_URL', 'https://oauth.reddit.com');
  const authUrl = read.url('REDDIT_AUTH_URL', 'https://www.reddit.com');
  const clientId = env.REDDIT_CLIENT_ID ?? '';
  const clientSecret = env.REDDIT_CLIENT_SECRET ?? '';
  if (clientId && !clientSecret) read.fail('REDDIT_CLIENT_SECRET must be set when REDDIT_CLIENT_ID is set');
  const source = env.REDDIT_SOURCE || (clientId ? 'reddit' : 'demo');
  if (source !== 'reddit' && source !== 'demo') read.fail(`REDDIT_SOURCE must be reddit or demo, got "${source}"`);
  const demo = {
    billed: read.boolean('DEMO_BILLED', false),
    // A minute's reads of a quiet subreddit see one or two: enough to watch a monitor work, too few to flood it.
    trickleSeconds: read.integer('DEMO_TRICKLE_SECONDS', 30, 1, 86_400),
  };
  const userAgent = env.REDDIT_USER_AGENT || DEFAULT_USER_AGENT;
  return {
    redditSource: source as DataSource,
    reddit: source === 'reddit' && clientId ? { clientId, clientSecret, userAgent, apiUrl, authUrl } : null,
    demo,
  };
}

/** The address a person on this machine opens: a wildcard host is reachable as loopback. */
export function localOrigin(host: string, port: number): string {
  if (host === '' || host === '0.0.0.0' || host === '::') return `http://127.0.0.1:${port}`;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * Where Reddit sends a person back after Connect Reddit: REDDIT_REDIRECT_URI, else derived from PUBLIC_URL.
 * On the demo source without either, the local address (the demo's approval page is on this machine
 * too), unless PORT is 0 and the address is not known before listening.
 */
export function redirectUri(env: Env, source: DataSource, url: (name: string) => string, listen: { host: string; port: number }): string | null {
  if (env.REDDIT_REDIRECT_URI) return url('REDDIT_REDIRECT_URI');
  const origin = env.PUBLIC_URL ? url('PUBLIC_URL') : source === 'demo' && listen.port !== 0 ? localOrigin(listen.host, listen.port) : null;
  return origin && `${origin}/dashboard/connections/reddit/callback`;
}
