/**
 * Where the service's Reddit data comes from (REDDIT_SOURCE): the approved Reddit app, or the demo
 * source, a server of this process speaking Reddit's wire format (integrations/reddit/demo/) that the
 * same clients are pointed at. On the demo without LLM_BASE_URL, the demo's model writes verdicts and
 * drafts. The prices are the price book's for that source (credits.prices.ts pricesFor).
 */
import { DEFAULT_USER_AGENT } from '../shared/config/reddit.ts';
import type { Config, LlmConfig, Prices, RedditConfig } from '../shared/config/config.ts';
import type { DataSource } from '../shared/demo.ts';
import { startDemoReddit } from '../integrations/reddit/demo/demo.server.ts';
import { DEMO_MODEL } from '../integrations/reddit/demo/demo.model.ts';
import { pricesFor } from '../modules/credits/credits.prices.ts';

export interface RedditSource {
  source: DataSource;
  /** The app the Reddit clients use: the approved one, the demo's, or null (scrape and monitors off). */
  app: RedditConfig | null;
  llm: LlmConfig | null;
  prices: Prices;
  close(): Promise<void>;
}

export async function openRedditSource(config: Config, clock: () => Date): Promise<RedditSource> {
  if (config.redditSource !== 'demo') {
    return { source: 'reddit', app: config.reddit, llm: config.llm, prices: config.prices, close: async () => undefined };
  }
  const demo = await startDemoReddit({ clock, trickleSeconds: config.demo.trickleSeconds });
  const app = { clientId: 'demo', clientSecret: 'demo', userAgent: DEFAULT_USER_AGENT, apiUrl: demo.url, authUrl: demo.url };
  const llm = config.llm ?? { baseUrl: `${demo.url}/v1`, apiKey: 'demo', model: DEMO_MODEL, timeoutMs: 10_000 };
  const prices = pricesFor(config.prices, { demo: true, billed: config.demo.billed, demoModel: config.llm === null });
  return { source: 'demo', app, llm, prices, close: demo.close };
}
