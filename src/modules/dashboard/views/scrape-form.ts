import { plural } from '../../../shared/text.ts';
import { html, type Html } from './html.ts';
import { csrfField, errorBox, type Viewer } from './layout.ts';

/** The New scrape form's fields as typed (dashboard.scrape-form.ts turns them into the API's body). */
export interface ScrapeForm {
  subreddits: string;
  keywords: string;
  query: string;
  sources: string[];
  time: string;
  limit: string;
}

const TIMES = [
  ['hour', 'Past hour'],
  ['day', 'Past day'],
  ['week', 'Past week'],
  ['month', 'Past month'],
  ['year', 'Past year'],
  ['all', 'All time'],
] as const;
const SOURCES = [
  ['posts', 'Posts', "Reddit's search"],
  ['comments', 'Comments', 'the newest comments of the subreddits'],
] as const;
const checked = (on: boolean) => (on ? html` checked` : null);

/**
 * Starts a scrape as POST /api/v1/scrape does, paid from the account (no key). `attempt` is the form's
 * Idempotency-Key; `error` a refusal of the last press, in the API's words.
 */
export function scrapeFormSection(view: { viewer: Viewer; form: ScrapeForm; attempt: string; pairPrice: number; error?: string }): Html {
  const { form } = view;
  return html`<section class="card" aria-labelledby="new-scrape">
  <h2 id="new-scrape">New scrape</h2>
  <p>Finds posts and comments in the subreddits that hold the keywords or match the query, as
    <code>POST /api/v1/scrape</code> does. Costs ${plural(view.pairPrice, 'credit')} per subreddit × keyword pair, held when it
    starts and charged when it completes; subreddits Reddit cannot show are refunded.</p>
  ${errorBox(view.error)}
  <form method="post" action="/dashboard/scrapes" class="mon-form">
    ${csrfField(view.viewer.csrfToken)}
    <input type="hidden" name="attempt" value="${view.attempt}">
    <label>Subreddits <span class="muted">(one per line or comma separated; "r/" optional; up to 20)</span>
      <textarea name="subreddits" rows="3" required placeholder="r/typescript&#10;r/node">${form.subreddits}</textarea></label>
    <label>Keywords <span class="muted">(one per line; up to 20; optional when a query is given)</span>
      <textarea name="keywords" rows="3">${form.keywords}</textarea></label>
    <label class="mon-wide">Query <span class="muted">(optional: <a href="/docs/guides/queries">query syntax</a>; with keywords, both must hold)</span>
      <textarea name="query" rows="2" spellcheck="false">${form.query}</textarea></label>
    <fieldset class="mon-choice">
      <legend>Look in</legend>
      <input type="hidden" name="sources" value="">
      ${SOURCES.map(
        ([value, label, hint]) => html`<label class="check"><input type="checkbox" name="sources" value="${value}"${checked(form.sources.includes(value))}>
        <span class="mon-option">${label}</span> <span class="muted">${hint}</span></label>`,
      )}
    </fieldset>
    <label>Time <select name="time">${TIMES.map(([value, label]) => html`<option value="${value}"${value === form.time ? html` selected` : null}>${label}</option>`)}</select></label>
    <label>Most results <span class="muted">(1–500)</span>
      <input type="number" name="limit" value="${form.limit}" min="1" max="500" step="1" inputmode="numeric"></label>
    <button type="submit">Start scrape</button>
  </form>
</section>`;
}
