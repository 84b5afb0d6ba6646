import Type, { type TObject, type TSchema } from 'typebox';
import { generateBodySchema } from '../generate/generate.schemas.ts';
import { inboxQuerySchema, type InboxQuery } from '../monitors/inbox/inbox.schemas.ts';
import type { MatchStatus } from '../monitors/monitors.tables.ts';
import { excerpt, fittedPage, type ToolAnswer } from './mcp.results.ts';
import { idempotencyKeyArgument, onceFor } from './mcp.tools-once.ts';
import { argumentsOf } from './mcp.schemas.ts';
import { credits, demoMark, tool, type ToolDeps } from './mcp.tools-kit.ts';
import { verdictOf } from './mcp.tools-monitors.ts';
import { draftAnswer } from './mcp.tools-writing.ts';

type InboxPage = Awaited<ReturnType<ToolDeps['inbox']['list']>>;
type InboxItem = InboxPage['data'][number];
type DraftReplyArgs = { match_id: string; instructions?: string; idempotency_key?: string };

/** POST /generate's reply shape, whose `instructions` draft_reply takes as they are: the same rule, written once. */
const replyShape = (generateBodySchema as unknown as { oneOf: (TObject & { title?: string })[] }).oneOf.find((shape) => shape.title === 'GenerateReply')!;

const draftReplySchema = Type.Object(
  {
    match_id: Type.String({
      // A match only: a t3_/t1_ fullname here would be read from Reddit, which is generate_draft's job.
      pattern: '^mat_[0-9a-f]{28}$',
      'x-rule': 'must be a match id: mat_ and 28 hex digits',
      description: 'The match to answer: an id from list_inbox or get_monitor_matches',
    }),
    instructions: Type.Optional(replyShape.properties.instructions as TSchema),
    idempotency_key: idempotencyKeyArgument,
  },
  { additionalProperties: false },
);

/** An inbox entry on one line: where it stands, what it is, and what answers it so far. */
function lineOf(item: InboxItem): string {
  const text = excerpt(item.type === 'comment' ? item.body : item.title, 120);
  const draft = item.draft ? `; draft ${item.draft.id} (${item.draft.status})` : '';
  const published = item.publication ? `; publication ${item.publication.id} (${item.publication.status}${item.publication.permalink ? ` at ${item.publication.permalink}` : ''})` : '';
  return `- ${demoMark(item)}${item.id} [${item.status}] ${item.reddit_id} in ${item.subreddit} by u/${item.author} ("${item.monitor_name}"): ${text} (${item.permalink})${verdictOf(item)}${draft}${published}`;
}

function inboxAnswer(page: InboxPage): ToolAnswer {
  const count = `${page.data.length} match${page.data.length === 1 ? '' : 'es'} in the inbox`;
  const summary = [
    `${count}${page.has_more ? `; more with cursor ${page.next_cursor}` : ''}.`,
    ...page.data.slice(0, 10).map(lineOf),
    ...(page.data.length > 10 ? [`…and ${page.data.length - 10} more in the structured content.`] : []),
    ...(page.data.some((item) => item.status === 'new') ? ['Draft a reply to a new one with draft_reply (match_id).'] : []),
  ];
  return { summary: summary.join('\n'), data: page };
}

/** The inbox (GET /api/v1/inbox) and a reply drafted from a match: the loop from a match to a reply, up to the person's approval. */
export const inboxTools = ({ inbox, generate, idempotency, prices }: ToolDeps) => [
  tool<InboxQuery>({
    name: 'list_inbox',
    title: 'List the inbox',
    description:
      "Every delivered match of this account's monitors, newest first, with where it stands (status new, drafted, published or " +
      'dismissed), its reply draft and the publication that answered it. Filters: monitor_id, status (one or more, e.g. "new,drafted"), ' +
      'min_relevance (judged matches scoring at least this). Up to 100 a page (limit; pass next_cursor as cursor for the next). ' +
      'Free: spends no credits. Draft a reply to a match with draft_reply.',
    scope: 'read',
    schema: argumentsOf(inboxQuerySchema),
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: async (caller, args) =>
      fittedPage(
        args.limit ?? 20,
        (limit) =>
          inbox.list(caller.accountId, {
            limit,
            cursor: args.cursor,
            monitorId: args.monitor_id,
            statuses: args.status ? (args.status.split(',') as MatchStatus[]) : undefined,
            minRelevance: args.min_relevance,
          }),
        inboxAnswer,
      ),
  }),
  tool<DraftReplyArgs>({
    name: 'draft_reply',
    title: 'Draft a reply to a match',
    description:
      "Writes a reply to a monitor's match with a language model, from the post or comment as it was stored (Reddit is not read); " +
      "a reply to a comment goes under that comment. Optional instructions say what to write; the account's voice applies. " +
      `Costs ${credits(prices.generate)}, refunded if the model fails. The match becomes drafted. Side effects: spends credits; ` +
      'never posts anything. Publishing the draft is a separate step: show its text to a person, and only after they approve it ' +
      'call publish with generation_id and confirm: true. Retrying after a lost answer? Send the same idempotency_key: the same draft, never charged twice.',
    scope: 'generate',
    schema: argumentsOf(draftReplySchema),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    run: (caller, args) =>
      onceFor<Omit<DraftReplyArgs, 'idempotency_key'>>(idempotency, caller, 'draft_reply', args, {
        run: async (claim, { match_id, instructions }) => ({ answer: draftAnswer(await inbox.draftReply(caller, match_id, instructions, claim)), final: true }),
        rebuild: async (id) => draftAnswer(await generate.get(caller.accountId, id)),
      }),
  }),
];
