import type { DestinationKind } from '../destinations.tables.ts';
import { FORMATS, type Format, type MailParts } from '../destinations.formats.ts';

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

const clip = (text: string, limit: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > limit ? `${flat.slice(0, limit - 1).trimEnd()}…` : flat;
};

function lines(f: Format, match: AlertMatch, links: AlertLinks): string {
  const e = f.escape;
  const heading = match.title ? clip(match.title, 200) : `a comment by u/${match.author}`;
  const out = [`${f.bold(e(heading))}  ·  ${e(match.subreddit)}  ·  u/${e(match.author)}`];
  if (match.body) out.push(f.quote(e(clip(match.body, EXCERPT))));
  if (match.relevance !== null) out.push(`Relevance ${match.relevance}/100${match.relevance_reason ? `: ${e(clip(match.relevance_reason, 200))}` : ''}`);
  const to = [f.link(match.permalink, 'Open on Reddit')];
  if (links.publicUrl) to.push(f.link(`${links.publicUrl}/dashboard/inbox?monitor=${match.monitor_id}#${match.id}`, 'Open in the Inbox'));
  if (match.draft_id && match.draft_body) {
    out.push(`Draft reply: ${e(clip(match.draft_body, DRAFT))}`);
    // The confirm step, after log-in: a person still approves every publication.
    if (links.publicUrl) to.push(f.link(`${links.publicUrl}/dashboard/drafts/${match.draft_id}/publish`, 'Review and approve the draft'));
  }
  out.push(to.join('  ·  '));
  return f.lines(out);
}

/** The text of one match in a format. */
const matchText = (f: Format, monitorName: string, match: AlertMatch, links: AlertLinks) =>
  fit(f, f.lines([`New ${match.type} for monitor "${f.escape(monitorName)}"`, lines(f, match, links)]));

/** The matches of one window in a format: as many whole ones as fit, then the count of the rest. */
function digestText(f: Format, monitorName: string, window: string, matches: AlertMatch[], links: AlertLinks) {
  const shown = matches.slice(0, DIGEST_ITEMS);
  const head = `${headline(monitorName, window, matches.length, f.escape)}`;
  const more = matches.length - shown.length;
  const all = links.publicUrl ? f.link(`${links.publicUrl}/dashboard/inbox?monitor=${matches[0]!.monitor_id}`, 'all in the Inbox') : null;
  const tail = more > 0 ? [`…and ${more} more${all ? `: ${all}` : ' (in the Inbox)'}`] : [];
  let text = f.blocks([head, ...shown.map((match) => lines(f, match, links)), ...tail]);
  // Discord's 2,000 characters hold few matches.
  for (let n = shown.length - 1; text.length > f.limit && n >= 1; n--) {
    text = f.blocks([head, ...shown.slice(0, n).map((match) => lines(f, match, links)), `…and ${matches.length - n} more in the Inbox`]);
  }
  return fit(f, text);
}

const headline = (monitorName: string, window: string, count: number, e: (text: string) => string) =>
  `${count} new match${count === 1 ? '' : 'es'} for monitor "${e(monitorName)}" (${window})`;

/**
 * The channel's body for a text: Slack's `text`; Discord's `content` with no mention that pings
 * anyone; Telegram's `text` as HTML, without a link preview (a preview of Reddit per alert is noise).
 */
function body(kind: Exclude<DestinationKind, 'email'>, text: string) {
  if (kind === 'slack') return { text };
  if (kind === 'discord') return { content: text, allowed_mentions: { parse: [] } };
  return { text, parse_mode: 'HTML', link_preview_options: { is_disabled: true } };
}

/** One match, sent at once. */
export function matchMessage(kind: DestinationKind, monitorName: string, match: AlertMatch, links: AlertLinks): unknown {
  if (kind !== 'email') return body(kind, matchText(FORMATS[kind], monitorName, match, links));
  const subject = `${match.title ? clip(match.title, 120) : `New comment by u/${match.author}`} (r/${match.subreddit.replace(/^r\//, '')})`;
  return { subject, text: matchText(FORMATS.text, monitorName, match, links), html: matchText(FORMATS.html, monitorName, match, links) } satisfies MailParts;
}

/** The matches of one window, oldest first; never called with none (an empty digest sends nothing). */
export function digestMessage(kind: DestinationKind, monitorName: string, window: string, matches: AlertMatch[], links: AlertLinks): unknown {
  if (kind !== 'email') return body(kind, digestText(FORMATS[kind], monitorName, window, matches, links));
  return {
    subject: headline(monitorName, window, matches.length, (text) => text),
    text: digestText(FORMATS.text, monitorName, window, matches, links),
    html: digestText(FORMATS.html, monitorName, window, matches, links),
  } satisfies MailParts;
}

/** Whole text when it fits the channel's limit, else cut with a mark. */
const fit = (f: Format, text: string) => (text.length <= f.limit ? text : `${text.slice(0, f.limit - 1)}…`);
