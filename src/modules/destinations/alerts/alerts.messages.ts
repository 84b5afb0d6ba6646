import type { DestinationKind } from '../destinations.tables.ts';

/** What a message says of one match (alerts.repository.ts reads it). */
export interface AlertMatch {
  id: string;
  monitor_id: string;
  type: 'post' | 'comment';
  subreddit: string;
  author: string;
  title: string | null;
  body: string | null;
  /** Absolute, as stored (reddit.content.ts). */
  permalink: string;
  relevance: number | null;
  relevance_reason: string | null;
  /** The reply draft written for it, if any. */
  draft_id: string | null;
  draft_body: string | null;
}

/** Where the links of a message point: the dashboard of this server (PUBLIC_URL), when it has one. */
export interface AlertLinks {
  publicUrl: string | null;
}

const EXCERPT = 300;
const DRAFT = 600;
/** A digest lists this many matches; the rest are counted and linked. */
const DIGEST_ITEMS = 20;
/** Discord refuses content over 2,000 characters (50035); Slack cuts text at 40,000. */
const LIMIT: Record<DestinationKind, number> = { slack: 39_000, discord: 2000 };

const clip = (text: string, limit: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > limit ? `${flat.slice(0, limit - 1).trimEnd()}…` : flat;
};

/**
 * Text from Reddit is shown, never obeyed: Slack reads <…> as links and mentions and & as an entity
 * (api.slack.com/reference/surfaces/formatting#escaping); Discord reads markdown, so its marks are
 * escaped, and mentions are switched off with `allowed_mentions` below.
 */
const escape = (kind: DestinationKind, text: string) =>
  kind === 'slack' ? text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : text.replace(/([\\*_~`|>[\]()#-])/g, '\\$1');

const link = (kind: DestinationKind, url: string, label: string) => (kind === 'slack' ? `<${url}|${label}>` : `[${label}](<${url}>)`);

function lines(kind: DestinationKind, match: AlertMatch, links: AlertLinks): string[] {
  const e = (text: string) => escape(kind, text);
  const heading = match.title ? clip(match.title, 200) : `a comment by u/${match.author}`;
  const out = [`*${e(heading)}*  ·  ${e(match.subreddit)}  ·  u/${e(match.author)}`];
  if (match.body) out.push(`> ${e(clip(match.body, EXCERPT))}`);
  if (match.relevance !== null) out.push(`Relevance ${match.relevance}/100${match.relevance_reason ? `: ${e(clip(match.relevance_reason, 200))}` : ''}`);
  const to = [link(kind, match.permalink, 'Open on Reddit')];
  if (links.publicUrl) to.push(link(kind, `${links.publicUrl}/dashboard/inbox?monitor=${match.monitor_id}#${match.id}`, 'Open in the Inbox'));
  if (match.draft_id && match.draft_body) {
    out.push(`Draft reply: ${e(clip(match.draft_body, DRAFT))}`);
    // The confirm step, after log-in: a person still approves every publication.
    if (links.publicUrl) to.push(link(kind, `${links.publicUrl}/dashboard/drafts/${match.draft_id}/publish`, 'Review and approve the draft'));
  }
  out.push(to.join('  ·  '));
  return out;
}

/** The channel's body for a text: Slack's `text`; Discord's `content` with no mention that pings anyone. */
const body = (kind: DestinationKind, text: string) => (kind === 'slack' ? { text } : { content: text, allowed_mentions: { parse: [] } });

/** One match, sent at once. */
export function matchMessage(kind: DestinationKind, monitorName: string, match: AlertMatch, links: AlertLinks) {
  const text = [`New ${match.type} for monitor "${escape(kind, monitorName)}"`, ...lines(kind, match, links)].join('\n');
  return body(kind, fit(kind, text));
}

/** The matches of one window, oldest first; never called with none (an empty digest sends nothing). */
export function digestMessage(kind: DestinationKind, monitorName: string, window: string, matches: AlertMatch[], links: AlertLinks) {
  const shown = matches.slice(0, DIGEST_ITEMS);
  const head = `${matches.length} new match${matches.length === 1 ? '' : 'es'} for monitor "${escape(kind, monitorName)}" (${window})`;
  const more = matches.length - shown.length;
  const tail = more > 0 ? [`…and ${more} more${links.publicUrl ? `: ${link(kind, `${links.publicUrl}/dashboard/inbox?monitor=${matches[0]!.monitor_id}`, 'all in the Inbox')}` : ' (in the Inbox)'}`] : [];
  const parts = [head, ...shown.map((match) => lines(kind, match, links).join('\n')), ...tail];
  // Discord's 2,000 characters hold few matches: as many whole ones as fit, then the count of the rest.
  let text = parts.join('\n\n');
  for (let n = shown.length - 1; text.length > LIMIT[kind] && n >= 1; n--) {
    const rest = matches.length - n;
    text = [head, ...shown.slice(0, n).map((match) => lines(kind, match, links).join('\n')), `…and ${rest} more in the Inbox`].join('\n\n');
  }
  return body(kind, fit(kind, text));
}

/** Whole text when it fits the channel's limit, else cut with a mark. */
const fit = (kind: DestinationKind, text: string) => (text.length <= LIMIT[kind] ? text : `${text.slice(0, LIMIT[kind] - 1)}…`);
