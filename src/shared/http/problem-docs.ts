/**
 * The guide that explains a problem, where one says more than its `detail` can: the `docs` member of
 * the problem body, a path on this server (/docs/guides/…, served by the apidocs module) that a client
 * resolves against the URL it called, so it holds whichever host or PUBLIC_URL the service is reached
 * by. `type` stays the stable `urn:subpilot:problem:<code>`: clients compare it, and a URL in it would
 * change with the host. test/docs/problem-docs.test.ts follows every path here to its section.
 */
const GUIDES = '/docs/guides';

/** By exact code first, then by the code's family (what comes before its dot). */
const BY_CODE: Record<string, string> = {
  'auth.insufficient_scope': `${GUIDES}/keys#key-scopes-expiry-and-roll`,
  'auth.too_many_failures': `${GUIDES}/api#rate-limits`,
  'rate_limit.exceeded': `${GUIDES}/api#rate-limits`,
  'request.invalid': `${GUIDES}/api#validation-messages`,
  'request.invalid_cursor': `${GUIDES}/api#pagination`,
  'query.invalid': `${GUIDES}/queries#errors`,
  'query.missing': `${GUIDES}/queries`,
  'credits.insufficient': `${GUIDES}/api#pricing`,
  'credits.key_limit_reached': `${GUIDES}/keys#monthly-spend-limits-of-keys`,
  'billing.not_configured': `${GUIDES}/api#buying-credits`,
  'billing.unknown_pack': `${GUIDES}/api#buying-credits`,
  'answer_lost': `${GUIDES}/api#idempotency-key-billable-posts`,
  'monitors.limit_reached': `${GUIDES}/monitors#limits-per-account`,
  'monitors.too_many_subreddits': `${GUIDES}/monitors#limits-per-account`,
  'monitors.stream_off': `${GUIDES}/monitors#all-of-reddit`,
  'monitors.volume_too_high': `${GUIDES}/monitors#a-querys-cost-before-it-runs`,
  'monitors.judge_not_configured': `${GUIDES}/relevance#without-a-language-model`,
  'monitors.drafts_not_configured': `${GUIDES}/replies#2-a-draft-from-what-was-found`,
  'scrape.reddit_blocked': `${GUIDES}/scrape#post-apiv1scrape`,
  'scrape.not_configured': `${GUIDES}/operations#reddit-credentials`,
  'monitors.not_configured': `${GUIDES}/operations#reddit-credentials`,
  'webhooks.invalid_url': `${GUIDES}/webhooks#which-urls-are-accepted`,
  'webhooks.not_configured': `${GUIDES}/webhooks`,
  'publish.subreddit_pace': `${GUIDES}/rails#the-rails`,
  'publish.hourly_pace': `${GUIDES}/rails#the-rails`,
  'publish.duplicate': `${GUIDES}/rails#the-rails`,
  'publish.second_reply': `${GUIDES}/rails#the-rails`,
  'mcp.no_oauth': `${GUIDES}/mcp#no-oauth-on-purpose`,
};

const BY_FAMILY: Record<string, string> = {
  auth: `${GUIDES}/api#authentication`,
  idempotency: `${GUIDES}/api#idempotency-key-billable-posts`,
  destinations: `${GUIDES}/destinations`,
  generate: `${GUIDES}/generate-and-publish#post-apiv1generate`,
  publish: `${GUIDES}/generate-and-publish#post-apiv1publish`,
  connections: `${GUIDES}/generate-and-publish#connections`,
  mcp: `${GUIDES}/mcp#authentication-and-checks`,
};

export function docsFor(code: string): string | undefined {
  return BY_CODE[code] ?? BY_FAMILY[code.slice(0, code.indexOf('.'))];
}

/** Every path this file can answer, for the test that follows each one. */
export const problemDocsPaths = (): string[] => [...new Set([...Object.values(BY_CODE), ...Object.values(BY_FAMILY)])];

/** The codes named here one by one, for the test that each is a code the service answers. */
export const problemDocsCodes = (): string[] => Object.keys(BY_CODE);
