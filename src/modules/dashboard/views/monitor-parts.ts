import { DEFAULT_MIN_RELEVANCE } from '../../monitors/monitors.input.ts';
import type { MonitorView } from '../../monitors/monitors.usecases.ts';
import type { MatchMode, MonitorSource } from '../../monitors/monitors.tables.ts';
import { html, type Html } from './html.ts';
import { badge, csrfField, type Viewer } from './layout.ts';

/** The create and edit forms' fields as typed: refilled as they were after a refusal. */
export interface MonitorForm {
  name: string;
  /** One per line or comma separated, "r/" optional; "all" alone: all of Reddit. */
  subreddits: string;
  /** Likewise: subreddits never matched (what an all-of-Reddit monitor leaves out). */
  excludeSubreddits: string;
  /** One per line. */
  keywords: string;
  excludeKeywords: string;
  match: MatchMode;
  sources: MonitorSource[];
  includeNsfw: boolean;
  webhookUrl: string;
  maxPerDay: string;
  query: string;
  intent: string;
  /** The bar a judged match must reach, as typed; empty means the default. */
  minRelevance: string;
  /** Each delivered match gets a reply draft (charged), never published by itself. */
  draftReplies: boolean;
  draftInstructions: string;
  /** Ticked after a refusal for volume: accept the estimated matches a day. */
  confirmVolume: boolean;
}

/** A refused form's problems in the form's words, by the field's API name (`query`, `max_matches_per_day`). */
export type FieldErrors = Partial<Record<string, string>>;

export const EMPTY_FORM: MonitorForm = {
  name: '',
  subreddits: '',
  excludeSubreddits: '',
  keywords: '',
  excludeKeywords: '',
  match: 'word',
  sources: ['posts'],
  includeNsfw: false,
  webhookUrl: '',
  maxPerDay: '',
  query: '',
  intent: '',
  minRelevance: String(DEFAULT_MIN_RELEVANCE),
  draftReplies: false,
  draftInstructions: '',
  confirmVolume: false,
};

/** A saved monitor in the edit form's terms. */
export const formOf = (monitor: MonitorView): MonitorForm => ({
  name: monitor.name,
  subreddits: monitor.subreddits.join('\n'),
  excludeSubreddits: monitor.exclude_subreddits.join('\n'),
  keywords: monitor.keywords.join('\n'),
  excludeKeywords: monitor.exclude_keywords.join('\n'),
  match: monitor.match,
  sources: monitor.sources,
  includeNsfw: monitor.include_nsfw,
  webhookUrl: monitor.webhook_url ?? '',
  maxPerDay: monitor.max_matches_per_day === null ? '' : String(monitor.max_matches_per_day),
  query: monitor.query ?? '',
  intent: monitor.intent ?? '',
  minRelevance: String(monitor.min_relevance),
  draftReplies: monitor.draft_replies,
  draftInstructions: monitor.draft_instructions ?? '',
  confirmVolume: false,
});

/** Text from Reddit or a caller, isolated so a bidirectional control in it cannot reorder the page around it. */
export const isolated = (text: string) => html`<bdi>${text}</bdi>`;
export const isolatedList = (texts: string[]) => texts.map((text, i) => html`${i > 0 ? ', ' : ''}${isolated(text)}`);

/** Why a paused monitor is paused, and what brings it back. */
export function pausedText(monitor: Pick<MonitorView, 'status' | 'paused_reason'>): string | null {
  if (monitor.status !== 'paused') return null;
  if (monitor.paused_reason === 'insufficient_credits') return 'Paused: out of credits — it resumes by itself once credits are added, and catches up on what it missed';
  if (monitor.paused_reason === 'daily_cap') return 'Paused until 00:00 UTC: daily cap reached';
  return 'Paused by you';
}

/** The status badge, with the reason in words beside a paused one. */
export function statusOf(monitor: Pick<MonitorView, 'status' | 'paused_reason'>): Html {
  const reason = pausedText(monitor);
  return html`${badge(monitor.status)}${reason ? html` <span class="mon-reason">${reason}</span>` : null}`;
}

const SOURCE_LABELS: [MonitorSource, string, string][] = [
  ['posts', 'Posts', 'new posts: title and text'],
  ['comments', 'Comments', 'new comments'],
];
const MODE_LABELS: [MatchMode, string, string][] = [
  ['word', 'Whole words', 'so "api" does not find "rapid"'],
  ['phrase', 'Anywhere', 'inside words too, so "api" also finds "rapid"'],
];

export const sourcesText = (sources: MonitorSource[]) => sources.map((s) => SOURCE_LABELS.find(([id]) => id === s)?.[1] ?? s).join(' and ');

const checked = (on: boolean) => (on ? html` checked` : null);

/**
 * A short quoted token in a problem ("(" in 'expected a word, a phrase or "(" after OR') as code: set
 * apart from the words around it, and never split across lines, which left a lone quote at a line's end.
 */
const quotedAsCode = (text: string) => text.split(/"([^"\s]{1,20})"/).map((part, i) => (i % 2 === 1 ? html`<code>${part}</code>` : part));

const QUERY_EXAMPLE = '("which tool" OR recommend) -hiring type:post';

/** Every field of a monitor; `action` is the list (create) or the monitor's own address (edit). */
export function monitorFormFields(viewer: Viewer, form: MonitorForm, action: string, submit: string, errors: FieldErrors = {}): Html {
  // A field's problem sits between its label and its control (inside the label, so it is read with it);
  // aria-invalid tells a screen reader which control is wrong.
  const problem = (name: string) => {
    const text = errors[name];
    return text ? html`<span class="field-error">${quotedAsCode(text)}</span>` : null;
  };
  const bad = (name: string) => (errors[name] ? html` aria-invalid="true"` : null);
  return html`<form method="post" action="${action}" class="mon-form">
    ${csrfField(viewer.csrfToken)}
    <label class="mon-wide">Name ${problem('name')}<input type="text" name="name" value="${form.name}" maxlength="64" required${bad('name')}></label>
    <label>Subreddits <span class="muted">(one per line or comma separated, as r/typescript, typescript or a reddit.com/r/typescript link; up to 100; or <code>all</code> alone for all of Reddit)</span> ${problem('subreddits')}
      <textarea name="subreddits" rows="4" required placeholder="r/typescript&#10;r/node"${bad('subreddits')}>${form.subreddits}</textarea></label>
    <label>Exclude subreddits <span class="muted">(with <code>all</code>: the subreddits to leave out, one per line or comma separated; up to 100)</span> ${problem('exclude_subreddits')}
      <textarea name="exclude_subreddits" rows="2" placeholder="r/gaming"${bad('exclude_subreddits')}>${form.excludeSubreddits}</textarea></label>
    <label>Keywords <span class="muted">(one per line; up to 50; optional when a query is given)</span> ${problem('keywords')}
      <textarea name="keywords" rows="4"${bad('keywords')}>${form.keywords}</textarea></label>
    <label>Exclude keywords <span class="muted">(optional, one per line: a match holding one is dropped)</span> ${problem('exclude_keywords')}
      <textarea name="exclude_keywords" rows="3"${bad('exclude_keywords')}>${form.excludeKeywords}</textarea></label>
    <label>Query <span class="muted">(optional: with a query, keywords may stay empty; with both, both must match)</span> ${problem('query')}
      <textarea name="query" rows="3" maxlength="1000" spellcheck="false" placeholder="${QUERY_EXAMPLE}"${bad('query')}>${form.query}</textarea>
      <small class="muted">Words, "phrases", OR, NOT or -word, ( ), and title: body: author: type:post|comment flair: — see <a href="/docs/guides/queries">the query syntax</a>.</small></label>
    <label>Intent <span class="muted">(optional: what a match should be about, in plain words)</span> ${problem('intent')}
      <textarea name="intent" rows="3" maxlength="500" placeholder="Someone asking which tool to use"${bad('intent')}>${form.intent}</textarea>
      <small class="muted">A language model then scores each match 0–100 with a one-sentence reason. Judged matches cost more: each one judged is charged for the judging too (<a href="/docs/guides/relevance">how relevance works</a>).</small></label>
    <label>Minimum relevance <span class="muted">(0–100; default ${DEFAULT_MIN_RELEVANCE})</span> ${problem('min_relevance')}
      <input type="number" name="min_relevance" value="${form.minRelevance}" min="0" max="100" step="1" inputmode="numeric"${bad('min_relevance')}>
      <small class="muted">With an intent, a match scoring below it is kept under Filtered: not delivered, not sent to the webhook, charged only for the judging.</small></label>
    <fieldset class="mon-choice">
      <legend>Match</legend>
      ${problem('match')}
      ${MODE_LABELS.map(
        ([value, label, hint]) => html`<label class="check"><input type="radio" name="match" value="${value}"${checked(form.match === value)}>
        <span class="mon-option">${label}</span> <span class="muted">${hint}</span></label>`,
      )}
    </fieldset>
    <fieldset class="mon-choice">
      <legend>Watch</legend>
      ${problem('sources')}${problem('include_nsfw')}
      <input type="hidden" name="sources" value="">
      ${SOURCE_LABELS.map(
        ([value, label, hint]) => html`<label class="check"><input type="checkbox" name="sources" value="${value}"${checked(form.sources.includes(value))}>
        <span class="mon-option">${label}</span> <span class="muted">${hint}</span></label>`,
      )}
      <label class="check"><input type="checkbox" name="include_nsfw" value="on"${checked(form.includeNsfw)}> Include NSFW</label>
    </fieldset>
    <fieldset class="mon-choice">
      <legend>Reply drafts</legend>
      ${problem('draft_replies')}
      <label class="check"><input type="checkbox" name="draft_replies" value="on"${checked(form.draftReplies)}>
        <span class="mon-option">Draft a reply for each match</span> <span class="muted">charged like any draft; never posted until you approve it in the <a href="/dashboard/inbox">Inbox</a></span></label>
    </fieldset>
    <label>Instructions for the drafts <span class="muted">(optional: what the replies should say; your voice applies too)</span> ${problem('draft_instructions')}
      <textarea name="draft_instructions" rows="3" maxlength="2000"${bad('draft_instructions')}>${form.draftInstructions}</textarea></label>
    <label>Webhook URL <span class="muted">(optional: new matches are POSTed here, signed)</span> ${problem('webhook_url')}
      <input type="url" name="webhook_url" value="${form.webhookUrl}" placeholder="https://" maxlength="2000"${bad('webhook_url')}></label>
    <label>Daily cap <span class="muted">(optional)</span> ${problem('max_matches_per_day')}
      <input type="number" name="max_matches_per_day" value="${form.maxPerDay}" min="1" step="1" inputmode="numeric"${bad('max_matches_per_day')}>
      <small class="muted">Most matches delivered (and charged) per UTC day; past it the monitor pauses until 00:00 UTC.</small></label>
    ${errors.confirm_volume || form.confirmVolume
      ? html`<label class="check">${problem('confirm_volume')}<input type="checkbox" name="confirm_volume" value="on"${checked(form.confirmVolume)}> Accept this many matches a day (each one is charged)</label>`
      : null}
    <button type="submit">${submit}</button>
  </form>`;
}
