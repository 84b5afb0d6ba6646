import type { MonitorView } from '../../monitors/monitors.usecases.ts';
import type { MatchMode, MonitorSource } from '../../monitors/monitors.tables.ts';
import { html, type Html } from '../html.ts';
import { badge, csrfField, type Viewer } from './layout.ts';

/** The create and edit forms' fields as typed: refilled as they were after a refusal. */
export interface MonitorForm {
  name: string;
  /** One per line or comma separated, "r/" optional. */
  subreddits: string;
  /** One per line. */
  keywords: string;
  excludeKeywords: string;
  match: MatchMode;
  sources: MonitorSource[];
  includeNsfw: boolean;
  webhookUrl: string;
  maxPerDay: string;
}

export const EMPTY_FORM: MonitorForm = {
  name: '',
  subreddits: '',
  keywords: '',
  excludeKeywords: '',
  match: 'phrase',
  sources: ['posts'],
  includeNsfw: false,
  webhookUrl: '',
  maxPerDay: '',
};

/** A saved monitor in the edit form's terms. */
export const formOf = (monitor: MonitorView): MonitorForm => ({
  name: monitor.name,
  subreddits: monitor.subreddits.join('\n'),
  keywords: monitor.keywords.join('\n'),
  excludeKeywords: monitor.exclude_keywords.join('\n'),
  match: monitor.match,
  sources: monitor.sources,
  includeNsfw: monitor.include_nsfw,
  webhookUrl: monitor.webhook_url ?? '',
  maxPerDay: monitor.max_matches_per_day === null ? '' : String(monitor.max_matches_per_day),
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
  ['phrase', 'Phrase', 'anywhere in the text, so "api" also finds "rapid"'],
  ['word', 'Whole words', 'so "api" does not find "rapid"'],
];

export const sourcesText = (sources: MonitorSource[]) => sources.map((s) => SOURCE_LABELS.find(([id]) => id === s)?.[1] ?? s).join(' and ');

const checked = (on: boolean) => (on ? html` checked` : null);

/** Every field of a monitor; `action` is the list (create) or the monitor's own address (edit). */
export function monitorFormFields(viewer: Viewer, form: MonitorForm, action: string, submit: string): Html {
  return html`<form method="post" action="${action}" class="mon-form">
    ${csrfField(viewer.csrfToken)}
    <label class="mon-wide">Name <input type="text" name="name" value="${form.name}" maxlength="64" required></label>
    <label>Subreddits <span class="muted">(one per line or comma separated; "r/" optional; up to 100)</span>
      <textarea name="subreddits" rows="4" required placeholder="r/typescript&#10;r/node">${form.subreddits}</textarea></label>
    <label>Keywords <span class="muted">(one per line; up to 50)</span>
      <textarea name="keywords" rows="4" required>${form.keywords}</textarea></label>
    <label>Exclude keywords <span class="muted">(optional, one per line: a match holding one is dropped)</span>
      <textarea name="exclude_keywords" rows="3">${form.excludeKeywords}</textarea></label>
    <fieldset class="mon-choice">
      <legend>Match</legend>
      ${MODE_LABELS.map(
        ([value, label, hint]) => html`<label class="check"><input type="radio" name="match" value="${value}"${checked(form.match === value)}>
        <span class="mon-option">${label}</span> <span class="muted">${hint}</span></label>`,
      )}
    </fieldset>
    <fieldset class="mon-choice">
      <legend>Watch</legend>
      <input type="hidden" name="sources" value="">
      ${SOURCE_LABELS.map(
        ([value, label, hint]) => html`<label class="check"><input type="checkbox" name="sources" value="${value}"${checked(form.sources.includes(value))}>
        <span class="mon-option">${label}</span> <span class="muted">${hint}</span></label>`,
      )}
      <label class="check"><input type="checkbox" name="include_nsfw" value="on"${checked(form.includeNsfw)}> Include NSFW</label>
    </fieldset>
    <label>Webhook URL <span class="muted">(optional: new matches are POSTed here, signed)</span>
      <input type="url" name="webhook_url" value="${form.webhookUrl}" placeholder="https://" maxlength="2000"></label>
    <label>Daily cap <span class="muted">(optional)</span>
      <input type="number" name="max_matches_per_day" value="${form.maxPerDay}" min="1" step="1" inputmode="numeric">
      <small class="muted">Most matches stored (and charged) per UTC day; past it the monitor pauses until 00:00 UTC.</small></label>
    <button type="submit">${submit}</button>
  </form>`;
}
