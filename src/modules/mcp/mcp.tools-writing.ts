import Type from 'typebox';
import { generateBodySchema, type GenerateBody } from '../generate/generate.schemas.ts';
import type { GenerationView } from '../generate/generate.view.ts';
import { optionalIdempotencyKey } from '../idempotency/idempotency.schemas.ts';
import { publishBodySchema, type PublishBody } from '../publish/publish.schemas.ts';
import { excerpt, type ToolAnswer } from './mcp.results.ts';
import { idempotencyKeyArgument, onceFor } from './mcp.tools-once.ts';
import { argumentsOf } from './mcp.schemas.ts';
import { chargeLine, credits, demoMark, tool, type ToolDeps } from './mcp.tools-kit.ts';

const confirm = Type.Optional(
  Type.Boolean({
    description: 'true posts to Reddit and charges; left out or false only shows what would be posted, where, and the price',
  }),
);

type PublishArgs = PublishBody & { confirm?: boolean; idempotency_key?: string };

/** A new draft for the model: where it would go, what it cost, its text, and that posting it is a separate, confirmed step. */
export function draftAnswer(draft: GenerationView): ToolAnswer {
  const match = draft.match_id ? ` (match ${draft.match_id})` : '';
  const where = draft.type === 'reply' ? `a reply to ${draft.reply_to}${match} in ${draft.subreddit}` : `a post for ${draft.subreddit}`;
  const summary = [
    `Draft ${draft.id}, ${where}. ${chargeLine(draft)}`,
    ...(draft.title ? [`Title: ${draft.title}`] : []),
    excerpt(draft.body ?? '', 1_500),
    `Nothing was posted. Once a person has approved the text: publish with generation_id ${draft.id} and confirm true.`,
  ];
  return { summary: summary.join('\n'), data: draft };
}

export const writingTools = ({ generate, publish, idempotency, prices }: ToolDeps) => [
  tool<GenerateBody & { idempotency_key?: string }>({
    name: 'generate_draft',
    title: 'Write a draft',
    description:
      'Writes a draft with a language model: a reply (type "reply", reply_to: a t3_ post, a t1_ comment, or a monitor match id mat_…; ' +
      'a reply to a comment goes under that comment) or a new self post (type "post", subreddit). A match or a scrape result of this ' +
      `account is the context as stored; anything else is read from Reddit. Costs ${credits(prices.generate)}, refunded if the model ` +
      'fails. Side effects: spends credits; posts nothing — publish the draft with publish (generation_id), after a person has read it. ' +
      'Retrying after a lost answer? Send the same idempotency_key: the same draft, never charged twice.',
    scope: 'generate',
    schema: argumentsOf(generateBodySchema, { idempotency_key: idempotencyKeyArgument }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    run: (caller, args) =>
      onceFor<GenerateBody>(idempotency, caller, 'generate_draft', args, {
        run: async (claim, body) => ({ answer: draftAnswer(await generate.generate(caller, body, claim)), final: true }),
        rebuild: async (id) => draftAnswer(await generate.get(caller.accountId, id)),
      }),
  }),
  tool<PublishArgs>({
    name: 'publish',
    title: 'Post to Reddit',
    description:
      "Posts a comment or a self post to Reddit as the account's connected Reddit user: a stored draft (generation_id), a comment " +
      `(type "comment", parent, body) or a post (type "post", subreddit, title, body). Costs ${credits(prices.publish)}, held and charged ` +
      "only when Reddit accepts it. The service's rails refuse, charging nothing: the same text twice within a day (unless allow_duplicate), " +
      'a second reply in one thread (unless allow_second_reply), and more publications per subreddit or per hour than the operator allows. ' +
      'Never implicit: without confirm: true it posts nothing, charges nothing, and answers with exactly what would be posted, ' +
      'where, as whom, and the price — show that to a person and call again with confirm: true only when they approve. ' +
      'Side effects (with confirm): a public post or comment on Reddit under the account\'s name; spends credits. ' +
      'Retrying a confirmed call after a lost answer? Send the same idempotency_key: the first outcome, never a second post or charge.',
    scope: 'publish',
    schema: argumentsOf(publishBodySchema, { confirm, idempotency_key: idempotencyKeyArgument }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    run: async (caller, { confirm: confirmed, idempotency_key, ...body }) => {
      if (confirmed !== true) {
        const preview = await publish.preview(caller, body as PublishBody);
        const place = preview.type === 'comment' ? `a comment under ${preview.target}` : `a self post in ${preview.target}, titled "${preview.title}"`;
        const short = preview.balance < preview.price ? ' (not enough credits: add some first)' : '';
        const summary = [
          `Nothing was posted or charged. With confirm: true this would post ${place} as u/${preview.author ?? '(unknown)'}, ` +
            `for ${credits(preview.price)}; the balance is ${credits(preview.balance)}${short}. The text:`,
          preview.body,
        ];
        return { summary: summary.join('\n'), data: { confirmed: false, would_publish: preview } };
      }
      // Publish keeps its keys on the publication itself, as POST /publish does: the same semantics.
      const { publication } = await publish.publish(caller, body as PublishBody, optionalIdempotencyKey(idempotency_key));
      const where = publication.reddit ? ` at ${publication.reddit.permalink}` : '';
      return { summary: `${demoMark(publication)}Publication ${publication.id} is ${publication.status}${where}. ${chargeLine(publication)}`, data: publication };
    },
  }),
];
