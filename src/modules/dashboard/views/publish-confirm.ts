import type { GenerateUsecases } from '../../generate/generate.usecases.ts';
import type { InboxItem } from '../../monitors/inbox/inbox.usecases.ts';
import type { PublishUsecases } from '../../publish/publish.usecases.ts';
import { html, safeHref, type Html } from './html.ts';
import { csrfField, errorBox, page, type Viewer } from './layout.ts';
import { redditor } from './inbox-entry.ts';
import { isolated } from './monitor-parts.ts';
import { textBlock } from './written.ts';

type Preview = Awaited<ReturnType<PublishUsecases['preview']>>;
type Draft = Awaited<ReturnType<GenerateUsecases['show']>>;

export interface PublishConfirmPage {
  viewer: Viewer;
  draft: Draft;
  /** What would go out; null when it cannot (not connected, the draft not ready): `error` says why. */
  preview: Preview | null;
  /** The monitor match the draft answers, which names the parent's author and its post. */
  match: InboxItem | null;
  /** The inbox address to come back to (after publishing, or on Cancel); null: the draft's own page. */
  returnTo: string | null;
  /** The Idempotency-Key of this confirmation: pressing Confirm twice publishes once. */
  attempt: string;
  error?: string;
  /** The refusal is a missing or lapsed Reddit connection: the way to fix it is linked. */
  connect?: boolean;
  /** Boxes lifting a rail: the one that refused (unticked) and those the last press had ticked. */
  overrides?: { flag: RailFlag; ticked: boolean }[];
}

/** The API's flags that lift a rail for one publication (docs/api/rails.md), sent by the confirm form as checkboxes. */
export type RailFlag = 'allow_duplicate' | 'allow_second_reply';

/** What ticking the box does, in the person's words; the flag's name is there too, to match the rail's reason above it. */
const OVERRIDE_WORDS: Record<RailFlag, [string, string]> = {
  allow_duplicate: ['Publish the same text again', 'lifts the same-text rail for this publication only'],
  allow_second_reply: ['Reply in this thread again', 'lifts the one-reply-per-thread rail for this publication only'],
};

/** Unticked by default: a rail is lifted only by someone who has read why it refused. */
const overrideBoxes = (overrides: PublishConfirmPage['overrides'] = []) =>
  overrides.length
    ? html`<fieldset class="confirm-override"><legend>Publish anyway?</legend>${overrides.map(({ flag, ticked }) => {
        const [label, hint] = OVERRIDE_WORDS[flag];
        return html`<label class="check"><input type="checkbox" name="${flag}" value="on"${ticked ? html` checked` : null}> ${label} <span class="muted">(<code>${flag}</code>: ${hint})</span></label>`;
      })}</fieldset>`
    : null;

const credits = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;

/** The parent on Reddit, linked when the match gives its address (a t1_ alone has none without its post). */
function parentLink(target: string, match: InboxItem | null): Html {
  const href = match ? safeHref(match.permalink) : target.startsWith('t3_') ? `https://www.reddit.com/comments/${target.slice(3)}` : null;
  return href ? html`<a href="${href}" target="_blank" rel="noopener noreferrer"><code>${target}</code></a>` : html`<code>${target}</code>`;
}

/** Where it goes in words: a new post, a reply to a comment by someone on a post, or a comment on a post. */
function destination(view: PublishConfirmPage, preview: Preview): Html {
  const { draft } = view;
  if (preview.type === 'post') return html`A new post in ${isolated(preview.target)}`;
  const match = view.match?.reddit_id === preview.target ? view.match : null;
  const parent = parentLink(preview.target, match);
  if (match?.type === 'comment') {
    return html`A reply to the comment by ${redditor(match.author)} (${parent}) on “${isolated(match.title)}”, in ${isolated(match.subreddit)}`;
  }
  if (match) return html`A comment on the post “${isolated(match.title)}” by ${redditor(match.author)} (${parent}), in ${isolated(match.subreddit)}`;
  const what = preview.target.startsWith('t1_') ? 'A reply to the comment' : 'A comment on the post';
  return html`${what} ${parent} in ${isolated(draft.subreddit)}`;
}

function cancelHref(view: PublishConfirmPage): string {
  if (!view.returnTo) return `/dashboard/drafts/${view.draft.id}`;
  return view.match ? `${view.returnTo}#${view.match.id}` : view.returnTo;
}

function confirmation(view: PublishConfirmPage, preview: Preview): Html {
  const short = preview.balance < preview.price;
  return html`<section class="card confirm" aria-labelledby="what-goes-out">
  <dl class="facts">
    <dt>Where</dt><dd>${destination(view, preview)}</dd>
    <dt>As</dt><dd>${preview.author ? redditor(preview.author) : 'the connected Reddit account'} <span class="muted">(the Reddit account on <a href="/dashboard/connections">Connections</a>)</span></dd>
    <dt>Price</dt><dd>${credits(preview.price)}, charged only once Reddit takes it <span class="muted">(balance: ${credits(preview.balance)})</span></dd>
  </dl>
  ${short ? html`<p class="alert alert-warn">The balance is below the price: publishing is refused until credits are added.</p>` : null}
  <h2 id="what-goes-out">The exact text</h2>
  ${preview.title !== null ? html`<p class="confirm-title"><strong>Title:</strong> ${isolated(preview.title)}</p>` : null}
  ${textBlock(preview.body)}
  ${errorBox(view.error)}
  <form method="post" action="/dashboard/drafts/${view.draft.id}/publish" class="actions wrap confirm-actions">
    ${csrfField(view.viewer.csrfToken)}
    ${view.returnTo ? html`<input type="hidden" name="return_to" value="${view.returnTo}">` : null}
    <input type="hidden" name="attempt" value="${view.attempt}">
    ${overrideBoxes(view.overrides)}
    <button type="submit">Confirm and publish</button>
    <a href="${cancelHref(view)}">Cancel</a>
  </form>
</section>`;
}

/**
 * The one confirm step before anything is posted, from a draft's page or the Inbox: the exact text,
 * where it goes (the t1_/t3_ parent and its subreddit, whose comment), as which Reddit user, and the
 * price. Nothing is posted before Confirm; a refusal (a rail, the balance, Reddit) is shown beside it, and
 * a rail the API lets a request lift (the same text again, a second reply in a thread) offers its box.
 */
export function publishConfirmPage(view: PublishConfirmPage): Html {
  const { preview } = view;
  const kind = view.draft.type === 'post' ? 'post' : 'reply';
  return page({
    title: `Publish this ${kind}?`,
    viewer: view.viewer,
    section: view.returnTo ? 'inbox' : 'drafts',
    body: preview
      ? html`<p class="muted">Nothing is posted until you confirm.</p>${confirmation(view, preview)}`
      : html`${errorBox(view.error)}<p class="actions wrap"><a href="${cancelHref(view)}">← Back</a>${view.connect
          ? html` <a href="/dashboard/connections">Connect Reddit on Connections</a>`
          : null}</p>`,
  });
}
