import { remove as withoutLookalikes } from 'confusables';
import { publishErrors } from './publish.errors.ts';
import type { PublishBody, PublishFields } from './publish.schemas.ts';
import { sha256 } from '../../shared/crypto/sha256.ts';
import { checkedSubreddit } from '../../shared/http/subreddit.ts';

/**
 * What goes to Reddit: a comment under `target` (t3_/t1_), or a self post in `target` (r/name); and
 * where that is, as far as it is known, for the rails (publish.rails.ts).
 */
export interface PublishTarget {
  kind: 'comment' | 'post';
  target: string;
  title: string | null;
  body: string;
  generationId: string | null;
  /** "r/name" it goes to; null for a comment whose post is not known here (the subreddit pace then cannot apply). */
  subreddit: string | null;
  /** The t3_ post a comment goes under; null for a post, and for a reply to a comment whose post is not known. */
  thread: string | null;
}

/**
 * What publish reads of a stored draft (the generate module's view of a generation). `reply_to` and
 * `thread_id` are optional: drafts written before replies to comments existed have neither (a reply
 * then answers its post), and the view may not carry them yet.
 */
interface Draft {
  id: string;
  type: 'reply' | 'post';
  status: string;
  post_id: string | null;
  subreddit: string;
  title: string | null;
  body: string | null;
  /** The t3_ post or t1_ comment a reply answers. */
  reply_to?: string | null;
  /** The t3_ post a reply is under, whatever it answers. */
  thread_id?: string | null;
}

/** Reads a draft of the account; throws when it has none with that id. */
type DraftReader = (accountId: string, generationId: string) => Promise<Draft>;

/** The subreddit and post a Reddit thing is in, from what the service stored or Reddit; null when not known. */
export type Locate = (accountId: string, fullname: string) => Promise<{ subreddit: string; thread: string } | null>;

/** The body as sent, minus allow_duplicate and allow_second_reply, with keys in a fixed order: what an Idempotency-Key is bound to. */
export const requestHashOf = (body: PublishBody): string =>
  sha256(JSON.stringify(['type', 'parent', 'subreddit', 'title', 'body', 'generation_id'].map((k) => (body as PublishFields)[k as keyof PublishFields] ?? null)));

/**
 * The text as a reader sees it, wherever it went: what the same-text rail compares. Reddit's spam
 * filter is not fooled by spelling the same words differently, so neither is the rail: compatibility
 * forms folded (NFKC: full-width letters, ligatures), invisible format characters dropped (zero-width
 * space and joiner, soft hyphen, the BOM: Unicode's Cf), look-alike letters and accents taken to their
 * Latin base (Unicode's confusables, by the `confusables` library), letter case folded first (upper
 * then lower, so ß is ss, not the b it looks like), and whitespace folded (Reddit re-wraps it).
 */
export function sameTextOf(text: string): string {
  const folded = text.normalize('NFKC').replace(/\p{Cf}/gu, '').toUpperCase().toLowerCase();
  // A look-alike can stand for a capital (Cyrillic Н for H): lower case once more after the swap.
  return withoutLookalikes(folded).normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

export const textHashOf = (t: PublishTarget): string => sha256(sameTextOf(t.body));

/**
 * A reply draft becomes a comment under what it answers (its post, for drafts older than replies to
 * comments); a post draft becomes a self post in its subreddit. A comment sent as text says only its
 * parent: a t3_ parent is its own thread, and the rest is `locateComment`'s to find.
 */
export async function resolveTarget(accountId: string, body: PublishBody, readDraft: DraftReader): Promise<PublishTarget> {
  // The schema has checked the shape, so each of these is present exactly where its kind needs it.
  if (!('generation_id' in body)) {
    if (body.type === 'comment') {
      const thread = body.parent.startsWith('t3_') ? body.parent : null;
      return { kind: 'comment', target: body.parent, title: null, body: body.body, generationId: null, subreddit: null, thread };
    }
    const subreddit = checkedSubreddit(body.subreddit);
    return { kind: 'post', target: subreddit, title: body.title.trim(), body: body.body, generationId: null, subreddit, thread: null };
  }
  const draft = await readDraft(accountId, body.generation_id).catch(() => {
    throw publishErrors.generationNotFound();
  });
  if (draft.status !== 'completed' || !draft.body) throw publishErrors.generationNotReady(draft.status);
  const where = { body: draft.body, generationId: draft.id, subreddit: draft.subreddit };
  return draft.type === 'reply'
    ? { kind: 'comment', target: draft.reply_to ?? draft.post_id!, title: null, thread: draft.thread_id ?? draft.post_id, ...where }
    : { kind: 'post', target: draft.subreddit, title: draft.title ?? 'Untitled', thread: null, ...where };
}

/**
 * A comment sent as text, placed by `locate` (its subreddit and post) for the rails. Asked only once the
 * connection is known good, as it may ask Reddit; when it cannot tell, what the parent's id says stands.
 */
export async function locateComment(accountId: string, t: PublishTarget, locate: Locate | undefined): Promise<PublishTarget> {
  if (!locate || t.kind !== 'comment' || t.generationId !== null) return t;
  const found = await locate(accountId, t.target);
  return found ? { ...t, subreddit: found.subreddit, thread: found.thread } : t;
}
