import { publishErrors } from './publish.errors.ts';
import type { PublishBody, PublishFields } from './publish.schemas.ts';
import { sha256 } from '../../shared/crypto/sha256.ts';

/** What goes to Reddit: a comment under `target` (t3_/t1_), or a self post in `target` (r/name). */
export interface PublishTarget {
  kind: 'comment' | 'post';
  target: string;
  title: string | null;
  body: string;
  generationId: string | null;
}

/** What publish reads of a stored draft (the generate module's view of a generation). */
interface Draft {
  id: string;
  type: 'reply' | 'post';
  status: string;
  post_id: string | null;
  subreddit: string;
  title: string | null;
  body: string | null;
}

/** Reads a draft of the account; throws when it has none with that id. */
type DraftReader = (accountId: string, generationId: string) => Promise<Draft>;

/** The body as sent, minus allow_duplicate, with keys in a fixed order: what an Idempotency-Key is bound to. */
export const requestHashOf = (body: PublishBody): string =>
  sha256(JSON.stringify(['type', 'parent', 'subreddit', 'title', 'body', 'generation_id'].map((k) => (body as PublishFields)[k as keyof PublishFields] ?? null)));

/** The same text to the same place, however it was asked for: what the 10-minute guard compares. */
export const contentHashOf = (t: PublishTarget): string =>
  sha256(JSON.stringify([t.kind, t.target.toLowerCase(), t.title, t.body]));

/** A reply draft becomes a comment on its post; a post draft becomes a self post in its subreddit. */
export async function resolveTarget(accountId: string, body: PublishBody, readDraft: DraftReader): Promise<PublishTarget> {
  // The schema has checked the shape, so each of these is present exactly where its kind needs it.
  if (!('generation_id' in body)) {
    const isComment = body.type === 'comment';
    return {
      kind: isComment ? 'comment' : 'post',
      target: isComment ? body.parent : `r/${body.subreddit.slice(2)}`,
      title: isComment ? null : body.title.trim(),
      body: body.body,
      generationId: null,
    };
  }
  const draft = await readDraft(accountId, body.generation_id).catch(() => {
    throw publishErrors.generationNotFound();
  });
  if (draft.status !== 'completed' || !draft.body) throw publishErrors.generationNotReady(draft.status);
  return draft.type === 'reply'
    ? { kind: 'comment', target: draft.post_id!, title: null, body: draft.body, generationId: draft.id }
    : { kind: 'post', target: draft.subreddit, title: draft.title ?? 'Untitled', body: draft.body, generationId: draft.id };
}
