import type { Static } from 'typebox';
import {
  matchesQuerySchema,
  monitorBodySchema,
  monitorParamsSchema,
  monitorPatchSchema,
  type MonitorBody,
  type MonitorPatchBody,
} from '../monitors/monitors.schemas.ts';
import type { Prices } from '../../shared/config/config.ts';
import { matchCost } from '../credits/credits.prices.ts';
import { excerpt, fittedPage, type ToolAnswer } from './mcp.results.ts';
import { argumentsOf } from './mcp.schemas.ts';
import { credits, demoMark, pagedTool, tool, type ToolDeps } from './mcp.tools-kit.ts';

type MonitorView = Awaited<ReturnType<ToolDeps['monitors']['get']>>;
type MatchPage = Awaited<ReturnType<ToolDeps['monitors']['matches']>>;
type MatchArgs = Static<typeof matchesQuerySchema> & { id: string };

/** What the monitor looks for: its keywords, its query, or both (then both must hold). */
const lookingFor = (m: MonitorView) =>
  [m.keywords.length > 0 ? m.keywords.map((k) => `"${k}"`).join(', ') : null, m.query === null ? null : `query ${m.query}`].filter(Boolean).join(' and ');

/** Where it looks: its subreddits, or all of Reddit less what it excludes. */
const where = (m: MonitorView) =>
  m.subreddits.length === 1 && m.subreddits[0] === 'r/all'
    ? `all of Reddit${m.exclude_subreddits.length > 0 ? ` except ${m.exclude_subreddits.join(', ')}` : ''}`
    : m.subreddits.join(', ');

const describeMonitor = (m: MonitorView) =>
  `${m.id} "${m.name}" (${m.status}${m.paused_reason ? `, ${m.paused_reason}` : ''}): ${lookingFor(m)} in ${where(m)}` +
  (m.intent === null ? '' : `, judged against "${m.intent}" (bar ${m.min_relevance})`);

/** The preview in words: what the rule would have matched in the stream's last hour, or why it cannot say. */
function previewText(m: MonitorView): string {
  const p = m.preview;
  if (!p) return '';
  if (p.matched_last_hour === null) return ` Preview: none (${p.reason})`;
  return ` Preview: it would have matched ${p.matched_last_hour} of the ${p.items_in_window} posts and comments in its reach read since ${p.window_started_at}, about ${p.estimated_per_day} a day.`;
}

/**
 * What each new match of this monitor costs, as the poller will charge it (credits.prices.ts): the
 * match, the judge's score when it has an intent, and a draft when it drafts replies.
 */
function costOfMatches(m: MonitorView, prices: Prices): string {
  const delivered = matchCost(prices, { judged: m.intent !== null, filtered: false });
  const parts = m.intent === null ? '' : `: ${credits(prices.monitorMatch)} for the match and ${credits(prices.judge)} for its relevance score`;
  const filtered = m.intent === null ? '' : ` One scored below ${m.min_relevance} is kept as filtered and costs only the score, ${credits(matchCost(prices, { judged: true, filtered: true }))}.`;
  const draft = m.draft_replies ? ` Each delivered match's reply draft costs ${credits(prices.generate)} more.` : '';
  return `Each new match costs ${credits(delivered)}${parts}.${filtered}${draft}`;
}

/** A match's score and reason, or why it went out unjudged; nothing for a monitor without an intent. */
export const verdictOf = (m: MatchPage['data'][number]) =>
  m.relevance !== null ? ` [relevance ${m.relevance}${m.filtered ? ', filtered' : ''}: ${m.relevance_reason}]` : m.judge_error ? ` [not judged: ${m.judge_error.message}]` : '';

/**
 * Matches for an agent: the API's page plus `next_after`, the id to pass as `after` next time so that
 * only newer matches come back. Without `after` the page is newest first, so that id is its first
 * match; with `after` it is oldest first, so its last. Unchanged when the page is empty.
 */
function matchesAnswer(page: MatchPage, args: MatchArgs): ToolAnswer {
  const newest = args.after === undefined ? page.data[0] : page.data[page.data.length - 1];
  const nextAfter = newest?.id ?? args.after ?? null;
  const more = page.has_more
    ? args.after === undefined
      ? `Older matches: call again with cursor ${page.next_cursor}.`
      : `More new matches waiting: call again with after ${nextAfter}.`
    : '';
  const lines = page.data
    .slice(0, 10)
    .map((m) => `- ${demoMark(m)}${m.id} [${m.status}]: ${m.reddit_id} in ${m.subreddit} by u/${m.author}: ${excerpt(m.type === 'comment' ? m.body : m.title, 120)} (${m.permalink})${verdictOf(m)}`);
  const summary = [
    `${page.data.length} match${page.data.length === 1 ? '' : 'es'} of monitor ${args.id}${args.after ? ` after ${args.after}` : ''}.`,
    ...lines,
    ...(page.data.length > 10 ? [`…and ${page.data.length - 10} more in the structured content.`] : []),
    more,
    nextAfter ? `To see only newer matches next time, call with after ${nextAfter}.` : '',
  ].filter(Boolean);
  return { summary: summary.join('\n'), data: { ...page, next_after: nextAfter } };
}

/** What the preview is, and when it refuses, in amounts. */
const previewNote = (limit: number) =>
  "The answer's preview counts what the rule would have matched among the posts and comments read site-wide in the last hour; " +
  `when that comes to more than ${limit.toLocaleString('en-US')} matches a day the change is refused unless confirm_volume is true: narrow the query or add exclude_subreddits first.`;

export const monitorTools = ({ monitors, prices, previewDailyLimit }: ToolDeps) => [
  tool<MatchArgs>({
    name: 'get_monitor_matches',
    title: 'Get new matches of a monitor',
    description:
      "A monitor's matches (posts and comments that matched), free: spends no credits (each match was charged when it was found). " +
      'Pass `after` = next_after of your previous call to get only matches you have not seen, oldest first; without it, the newest first. ' +
      'Up to 100 per call (limit); a long page comes back shorter with has_more. For a monitor with an intent each match carries its ' +
      'relevance score and reason; include "filtered" also lists those judged below its min_relevance.',
    scope: 'read',
    schema: argumentsOf(monitorParamsSchema, matchesQuerySchema.properties),
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: async (caller, args) =>
      fittedPage(
        args.limit ?? 20,
        (limit) =>
          monitors.matches(caller.accountId, args.id, { limit, cursor: args.cursor, after: args.after, filtered: args.include === 'filtered' ? 'with' : 'without' }),
        (page) => matchesAnswer(page, args),
      ),
  }),
  tool<MonitorBody>({
    name: 'create_monitor',
    title: 'Create a monitor',
    description:
      'Starts watching subreddits for new posts and/or comments with the keywords or a boolean query, from now on; each new match is stored once and ' +
      `costs ${credits(prices.monitorMatch)}, charged when it is found, until the monitor is paused or the credits run out (it then pauses). ` +
      `With an intent each match is also scored 0–100 with a reason for ${credits(prices.judge)} more; one below min_relevance is kept as filtered and costs only that. ` +
      `With draft_replies each delivered match also gets a reply draft for ${credits(prices.generate)}. ` +
      'subreddits ["all"] watches all of Reddit (exclude_subreddits leaves some out), on servers that read the site-wide stream. ' +
      `${previewNote(previewDailyLimit)} ` +
      'Creating it is free. Side effects: a monitor that keeps spending credits; with webhook_url, matches are POSTed there. ' +
      'Read matches with get_monitor_matches.',
    scope: 'monitors',
    schema: argumentsOf(monitorBodySchema),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    run: async (caller, args) => {
      const monitor = await monitors.create(caller.accountId, args, { via: caller.via });
      const summary = `Created monitor ${describeMonitor(monitor)}. ${costOfMatches(monitor, prices)}${previewText(monitor)} Read them with get_monitor_matches, id ${monitor.id}.`;
      return { summary, data: monitor };
    },
  }),
  pagedTool<MonitorView>({
    name: 'list_monitors',
    title: 'List monitors',
    description: "This account's monitors, newest first.",
    noun: ['monitor', 'monitors'],
    list: (accountId, page) => monitors.list(accountId, page),
    line: describeMonitor,
  }),
  tool<MonitorPatchBody & { id: string }>({
    name: 'update_monitor',
    title: 'Update a monitor',
    description:
      'Changes a monitor: status "paused" stops it (and its spending), "active" resumes it; any other field given replaces its value, ' +
      `fields left out keep theirs. Free: spends no credits, but an active monitor spends as matches arrive: ${credits(prices.monitorMatch)} a match, ` +
      `${credits(prices.judge)} more for each score with an intent, ${credits(prices.generate)} more for each draft with draft_replies. ` +
      previewNote(previewDailyLimit),
    scope: 'monitors',
    schema: argumentsOf(monitorParamsSchema, monitorPatchSchema.properties),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async (caller, { id, ...patch }) => {
      const monitor = await monitors.update(caller.accountId, id, patch);
      return { summary: `Updated monitor ${describeMonitor(monitor)}.${previewText(monitor)}`, data: monitor };
    },
  }),
];
