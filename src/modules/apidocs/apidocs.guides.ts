import type { Heading } from './apidocs.markdown.ts';

/**
 * The guides this server serves at /docs/guides/<name>: the documents of the repository written for
 * the people who use the service (and for operators running one), in the order the index shows them.
 * The documents for contributors (architecture, testing, benchmarks, the spec) are not served: a guide's
 * link to one keeps its words and loses its link. Every document under docs/api/ must be listed here
 * (test/docs/guides.test.ts), so a new one cannot be left off the instance.
 */
export interface Guide {
  /** Its URL name: /docs/guides/<name>, and /docs/guides/<name>.md for the Markdown. */
  name: string;
  /** The document, from the repository's root. */
  source: string;
  title: string;
  summary: string;
}

/** A guide as its page shows it. */
export interface GuidePage {
  guide: Guide;
  /** The document as HTML, its links leading to this server's guides. */
  html: string;
  headings: Heading[];
}

export interface GuideGroup {
  heading: string;
  guides: Guide[];
}

const guide = (name: string, source: string, title: string, summary: string): Guide => ({ name, source, title, summary });

export const GUIDE_GROUPS: GuideGroup[] = [
  {
    heading: 'Start here',
    guides: [
      guide('overview', 'README.md', 'Overview and quickstart', 'What subpilot does, and the API in five minutes with curl.'),
      guide('api', 'docs/api.md', 'The HTTP API', 'Authentication, the order of checks, errors, pagination, Idempotency-Key, rate limits, pricing, buying credits.'),
      guide('keys', 'docs/api/keys.md', 'Keys', 'Scopes, expiry, rolling a key, and monthly spend limits.'),
      guide('dashboard', 'docs/dashboard.md', 'Dashboard', 'Every page of the dashboard, and how it keeps an account safe.'),
    ],
  },
  {
    heading: 'SDKs and tools',
    guides: [
      guide('sdk-typescript', 'sdk/typescript/README.md', 'TypeScript SDK', 'A method per operation, retries that never pay twice, paging iterators, webhook verification.'),
      guide('sdk-python', 'sdk/python/README.md', 'Python SDK', 'The same for Python 3.9 and newer, standard library only.'),
      guide('n8n', 'integrations/n8n/README.md', 'n8n node', 'Actions, a trigger on signed deliveries, and tools for n8n\'s AI agent.'),
    ],
  },
  {
    heading: 'Finding posts and comments',
    guides: [
      guide('scrape', 'docs/api/scrape.md', 'Scrape', 'One-off searches of subreddits: sync or async, comments, what a result holds.'),
      guide('queries', 'docs/api/queries.md', 'Queries', 'Boolean queries: words, "phrases", OR, NOT, fields, their limits and errors.'),
      guide('monitors', 'docs/api/monitors.md', 'Monitors', 'Standing watches on subreddits: matches, reading them incrementally, limits.'),
      guide('relevance', 'docs/api/relevance.md', 'Relevance', 'The judge that scores each match against an intent and says why.'),
      guide('monitors-poller', 'docs/api/monitors-poller.md', 'How monitors read Reddit', 'The poller: nothing missed or twice, gaps, health, fair shares.'),
      guide('monitors-stream', 'docs/api/monitors-stream.md', 'The site-wide stream', 'Every new post and comment on Reddit: its share of the budget, gaps, coverage.'),
    ],
  },
  {
    heading: 'Alerts',
    guides: [
      guide('webhooks', 'docs/api/webhooks.md', 'Webhooks', 'Signed deliveries, verifying them, retries, monitor and low-balance events.'),
      guide('destinations', 'docs/api/destinations.md', 'Destinations', 'Alerts in Slack, Discord, Telegram and email, at once or as digests.'),
    ],
  },
  {
    heading: 'Replying',
    guides: [
      guide('replies', 'docs/api/replies.md', 'From a match to a reply', 'The inbox, a draft from the model, a person approving, publishing.'),
      guide('generate-and-publish', 'docs/api/generate-and-publish.md', 'Generate and publish', 'Drafts from a language model, and posting them to Reddit.'),
      guide('rails', 'docs/api/rails.md', 'Publishing rails', 'What keeps an account from posting like a spam bot, and how each refusal reads.'),
    ],
  },
  {
    heading: 'AI agents',
    guides: [guide('mcp', 'docs/api/mcp.md', 'MCP', 'The MCP server: its tools, results, and adding it to a client.')],
  },
  {
    heading: 'Running an instance',
    guides: [guide('operations', 'docs/operations.md', 'Operations', 'Installing, configuration, the Reddit app, selling credits, the CLI, upgrades.')],
  },
];

export const GUIDES: Guide[] = GUIDE_GROUPS.flatMap((group) => group.guides);

/** The URL of a guide, or of its Markdown, with an optional section. */
export const guideUrl = (name: string, options: { anchor?: string; markdown?: boolean } = {}): string =>
  `/docs/guides/${name}${options.markdown ? '.md' : ''}${options.anchor ? `#${options.anchor}` : ''}`;
