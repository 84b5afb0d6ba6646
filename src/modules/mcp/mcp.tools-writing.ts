import Type from 'typebox';
import { generateBodySchema, type GenerateBody } from '../generate/generate.schemas.ts';
import { publishBodySchema, type PublishBody } from '../publish/publish.schemas.ts';
import { excerpt } from './mcp.results.ts';
import { argumentsOf } from './mcp.schemas.ts';
import { chargeLine, credits, tool, type ToolDeps } from './mcp.tools-kit.ts';

const confirm = Type.Optional(
  Type.Boolean({
    description: 'true posts to Reddit and charges; left out or false only shows what would be posted, where, and the price',
  }),
);

type PublishArgs = PublishBody & { confirm?: boolean };

export const writingTools = ({ generate, publish, prices }: ToolDeps) => [
  tool<GenerateBody>({
    name: 'generate_draft',
    title: 'Write a draft',
    description:
      `Writes a draft with a language model: a reply to a Reddit post (type "reply", post_id) or a new self post (type "post", subreddit). ` +
      `Costs ${credits(prices.generate)}, refunded if the model fails. Side effects: spends credits; posts nothing — publish the draft with ` +
      'publish (generation_id), after a person has read it.',
    scope: 'generate',
    schema: argumentsOf(generateBodySchema),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    run: async (caller, args) => {
      const draft = await generate.generate(caller, args, null);
      const where = draft.type === 'reply' ? `a reply to ${draft.post_id} in ${draft.subreddit}` : `a post for ${draft.subreddit}`;
      const summary = [
        `Draft ${draft.id}, ${where}. ${chargeLine(draft)}`,
        ...(draft.title ? [`Title: ${draft.title}`] : []),
        excerpt(draft.body ?? '', 1_500),
        `Nothing was posted. To post it: publish with generation_id ${draft.id} and confirm true.`,
      ];
      return { summary: summary.join('\n'), data: draft };
    },
  }),
  tool<PublishArgs>({
    name: 'publish',
    title: 'Post to Reddit',
    description:
      "Posts a comment or a self post to Reddit as the account's connected Reddit user: a stored draft (generation_id), a comment " +
      `(type "comment", parent, body) or a post (type "post", subreddit, title, body). Costs ${credits(prices.publish)}, refunded if Reddit ` +
      'refuses. Never implicit: without confirm: true it posts nothing, charges nothing, and answers with exactly what would be posted, ' +
      'where, as whom, and the price — show that to a person and call again with confirm: true only when they approve. ' +
      'Side effects (with confirm): a public post or comment on Reddit under the account\'s name; spends credits.',
    scope: 'publish',
    schema: argumentsOf(publishBodySchema, { confirm }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    run: async (caller, { confirm: confirmed, ...body }) => {
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
      const { publication } = await publish.publish(caller, body as PublishBody);
      const where = publication.reddit ? ` at ${publication.reddit.permalink}` : '';
      return { summary: `Publication ${publication.id} is ${publication.status}${where}. ${chargeLine(publication)}`, data: publication };
    },
  }),
];
