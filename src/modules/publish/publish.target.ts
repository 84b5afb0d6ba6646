import { invalidFields } from '../../shared/http/validation-messages.ts';
import { publishErrors } from './publish.errors.ts';
import type { PublishBody } from './publish.schemas.ts';
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
  sha256(JSON.stringify(['type', 'parent', 'subreddit', 'title', 'body', 'generation_id'].map((k) => body[k as keyof PublishBody] ?? null)));

/** The same text to the same place, however it was asked for: what the 10-minute guard compares. */
export const contentHashOf = (t: PublishTarget): string =>
  sha256(JSON.stringify([t.kind, t.target.toLowerCase(), t.title, t.body]));

export function checkShape(body: PublishBody): void {
  const problems: { path: string; message: string }[] = [];
  const needs = (field: keyof PublishBody, why: string) => body[field] === undefined && problems.push({ path: `/${field}`, message: `is required ${why}` });
  const forbids = (field: keyof PublishBody, why: string) => body[field] !== undefined && problems.push({ path: `/${field}`, message: `is not allowed ${why}` });
  if (body.generation_id !== undefined) {
    for (const field of ['type', 'parent', 'subreddit', 'title', 'body'] as const) forbids(field, 'with generation_id (the draft says it)');
  } else if (body.type === 'comment') {
    needs('parent', 'for a comment');
    needs('body', 'for a comment');
    forbids('subreddit', 'for a comment');
    forbids('title', 'for a comment');
  } else if (body.type === 'post') {
    needs('subreddit', 'for a post');
    needs('title', 'for a post');
    needs('body', 'for a post');
    forbids('parent', 'for a post');
  } else {
    problems.push({ path: '/type', message: 'is required ("comment" or "post") unless generation_id is given' });
  }
  if (body.body !== undefined && !body.body.trim()) problems.push({ path: '/body', message: 'must not be blank' });
  if (body.title !== undefined && !body.title.trim()) problems.push({ path: '/title', message: 'must not be blank' });
  if (problems.length > 0) {
    throw invalidFields('The request body', problems);
  }
}

/** A reply draft becomes a comment on its post; a post draft becomes a self post in its subreddit. */
export async function resolveTarget(accountId: string, body: PublishBody, readDraft: DraftReader): Promise<PublishTarget> {
  if (body.generation_id === undefined) {
    const isComment = body.type === 'comment';
    return {
      kind: isComment ? 'comment' : 'post',
      target: isComment ? body.parent! : `r/${body.subreddit!.slice(2)}`,
      title: isComment ? null : body.title!.trim(),
      body: body.body!,
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
