import { guideUrl, type GuideGroup } from './apidocs.guides.ts';

/**
 * /llms.txt (the llmstxt.org proposal): what the service is, in a few lines an agent reads before it
 * reads anything else, then a link to the Markdown of every guide and to the machine-readable
 * descriptions. Links are absolute on an instance with PUBLIC_URL, since an agent may be handed the
 * text without its address; root-relative otherwise, which resolves against /llms.txt itself.
 */
export function llmsTxt(groups: GuideGroup[], publicUrl: string | null): string {
  const base = publicUrl?.replace(/\/+$/, '') ?? '';
  const link = (title: string, path: string, notes: string) => `- [${title}](${base}${path}): ${notes}`;
  const sections = groups.map(
    (group) => `## ${group.heading}\n\n${group.guides.map((g) => link(g.title, guideUrl(g.name, { markdown: true }), g.summary)).join('\n')}`,
  );
  return `# subpilot

> A credit-billed HTTP API for Reddit work: scrape subreddits, monitor every new matching post and comment,
> draft replies with a language model, and publish them as the account's connected Reddit user. Also an MCP
> server for agents, and a dashboard for people.

- Every call to \`/api/v1/\` sends \`Authorization: Bearer ak_live_<64 hex>\`; an owner creates keys on the dashboard's API keys page.
- Billable calls spend credits. A paid answer carries \`Credits-Charged\` and \`Credits-Balance\` headers; a 402 carries \`Credits-Required\`.
- Errors are \`application/problem+json\` (RFC 9457) with a stable \`code\` and a \`detail\` in words.
- Billable POSTs take an \`Idempotency-Key\`: the first outcome of a key is the outcome, so a retry never pays twice.
- On a 429 or 503, wait the \`Retry-After\` seconds and send the same request again.

${sections.join('\n\n')}

## Reference

${[
  link('OpenAPI document', '/openapi.json', 'every operation, its schemas, examples and problem answers (OpenAPI 3.1, JSON)'),
  link('API reference', '/docs', 'the same document drawn for people'),
  link('MCP endpoint', '/mcp', 'Streamable HTTP, the same key as the API; the MCP guide lists its tools'),
].join('\n')}
`;
}
