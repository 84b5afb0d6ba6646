import Type, { type Static } from 'typebox';
import { DEFAULT_MIN_RELEVANCE } from '../monitors/monitors.input.ts';
import type { MonitorSource } from '../monitors/monitors.tables.ts';
import { volumeEstimate } from '../monitors/monitors.errors.ts';
import type { MonitorInput, MonitorPreview } from '../monitors/monitors.usecases.ts';
import { isAppError, type AppError } from '../../shared/errors.ts';
import { fieldName } from '../../shared/http/validation-messages.ts';
import { formProblem } from './dashboard.reply.ts';
import type { FieldErrors, MonitorForm } from './views/monitor-parts.ts';

/*
 * The monitor form (create and edit) in the API's terms and back: what it posts, the input the
 * usecases take from it, and a refusal in the form's own words, as a whole and field by field.
 */

// Text areas are long enough for the API's limits (100 subreddits, 50 keywords of 100 characters, a
// query of 1,000 characters, an intent of 500, draft instructions of 2,000) with room for spacing.
export const formBody = Type.Object({
  csrf: Type.Optional(Type.String()),
  name: Type.String({ maxLength: 200 }),
  subreddits: Type.String({ maxLength: 10_000 }),
  exclude_subreddits: Type.Optional(Type.String({ maxLength: 10_000 })),
  keywords: Type.String({ maxLength: 10_000 }),
  exclude_keywords: Type.Optional(Type.String({ maxLength: 10_000 })),
  match: Type.Optional(Type.Union([Type.Literal('word'), Type.Literal('phrase')])),
  // The form always sends one empty `sources` (a hidden field), so no box ticked reads as "none", not as "field absent".
  sources: Type.Optional(Type.Union([Type.String({ maxLength: 20 }), Type.Array(Type.String({ maxLength: 20 }), { maxItems: 4 })])),
  include_nsfw: Type.Optional(Type.String({ maxLength: 10 })),
  webhook_url: Type.Optional(Type.String({ maxLength: 2000 })),
  max_matches_per_day: Type.Optional(Type.String({ maxLength: 20 })),
  query: Type.Optional(Type.String({ maxLength: 4000 })),
  intent: Type.Optional(Type.String({ maxLength: 2000 })),
  min_relevance: Type.Optional(Type.String({ maxLength: 20 })),
  draft_replies: Type.Optional(Type.String({ maxLength: 10 })),
  draft_instructions: Type.Optional(Type.String({ maxLength: 10_000 })),
  confirm_volume: Type.Optional(Type.String({ maxLength: 10 })),
});
export type FormBody = Static<typeof formBody>;

const SOURCES: readonly MonitorSource[] = ['posts', 'comments'];
const isSource = (value: string): value is MonitorSource => (SOURCES as readonly string[]).includes(value);
const lines = (text: string) => text.split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
/** Digits as a number; anything else NaN, which the usecases refuse like any other bad number. */
const wholeNumber = (text: string) => (/^\d+$/.test(text) ? Number(text) : Number.NaN);

/** The fields as typed, to refill the form after a refusal. */
export const formOfBody = (body: FormBody): MonitorForm => ({
  name: body.name,
  subreddits: body.subreddits,
  excludeSubreddits: body.exclude_subreddits ?? '',
  keywords: body.keywords,
  excludeKeywords: body.exclude_keywords ?? '',
  match: body.match ?? 'word',
  // A client that sends no sources field at all gets the API's default.
  sources: body.sources === undefined ? ['posts'] : [body.sources].flat().filter(isSource),
  includeNsfw: body.include_nsfw !== undefined,
  webhookUrl: body.webhook_url?.trim() ?? '',
  maxPerDay: body.max_matches_per_day?.trim() ?? '',
  query: body.query ?? '',
  intent: body.intent ?? '',
  minRelevance: body.min_relevance?.trim() ?? '',
  draftReplies: body.draft_replies !== undefined,
  draftInstructions: body.draft_instructions ?? '',
  confirmVolume: body.confirm_volume !== undefined,
});

/**
 * The form in the API's terms: subreddits one per line or comma separated, each in any form the API
 * takes (the usecases make it r/name); keywords one per line; empty optional fields are "none", an
 * empty bar is the default one. The usecases check every value (a number that is not digits arrives as NaN).
 */
export function inputOf(form: MonitorForm): Required<MonitorInput> {
  const cap = form.maxPerDay;
  return {
    name: form.name.trim(),
    subreddits: form.subreddits.split(/[\s,]+/).filter(Boolean),
    exclude_subreddits: form.excludeSubreddits.split(/[\s,]+/).filter(Boolean),
    keywords: lines(form.keywords),
    exclude_keywords: lines(form.excludeKeywords),
    match: form.match,
    sources: form.sources,
    include_nsfw: form.includeNsfw,
    webhook_url: form.webhookUrl === '' ? null : form.webhookUrl,
    max_matches_per_day: cap === '' ? null : wholeNumber(cap),
    query: form.query.trim() === '' ? null : form.query,
    intent: form.intent.trim() === '' ? null : form.intent,
    min_relevance: form.minRelevance === '' ? DEFAULT_MIN_RELEVANCE : wholeNumber(form.minRelevance),
    draft_replies: form.draftReplies,
    draft_instructions: form.draftInstructions.trim() === '' ? null : form.draftInstructions,
    confirm_volume: form.confirmVolume,
  };
}

const LABELS: Record<string, string> = {
  name: 'Name',
  subreddits: 'Subreddits',
  exclude_subreddits: 'Exclude subreddits',
  keywords: 'Keywords',
  exclude_keywords: 'Exclude keywords',
  match: 'Match',
  sources: 'Watch (tick posts, comments or both)',
  include_nsfw: 'Include NSFW',
  webhook_url: 'Webhook URL',
  max_matches_per_day: 'Daily cap',
  query: 'Query',
  intent: 'Intent',
  min_relevance: 'Minimum relevance',
  draft_replies: 'Draft a reply for each match',
  draft_instructions: 'Instructions for the drafts',
};

/** The API's answer names `intent` and the API's way out; the form has a field of that name to empty. */
const NO_JUDGE =
  'Intent cannot be used: this server has no language model configured, so it cannot judge relevance; nothing was changed. ' +
  'Leave Intent empty (keywords and queries still work), or ask the operator to set LLM_BASE_URL and LLM_MODEL.';

/** Likewise for drafts, which need the same model: the checkbox is the field to clear. */
const NO_WRITER =
  'Draft a reply for each match cannot be used: this server has no language model configured, so it cannot draft replies; nothing was changed. ' +
  'Untick it (you can still draft replies one by one once a model is configured), or ask the operator to set LLM_BASE_URL and LLM_MODEL.';

/** The model-less refusals (503 for the API) that one field of the form fixes, by that field. */
const NO_MODEL: Record<string, { field: string; message: string }> = {
  'monitors.judge_not_configured': { field: 'intent', message: NO_JUDGE },
  'monitors.drafts_not_configured': { field: 'draft_replies', message: NO_WRITER },
  'monitors.stream_off': {
    field: 'subreddits',
    message:
      'All of Reddit cannot be watched on this server: only the site-wide stream reads it, and the stream is off; nothing was changed. ' +
      'Name the subreddits to watch instead, or ask the operator to set REDDIT_STREAM_SHARE.',
  },
};

/** A refusal as the form shows it: one message above it, and each field's own problems beside that field. */
export interface FormRefusal {
  message: string;
  fields: FieldErrors;
}

/**
 * A refused form in the form's own words: the usecases word a problem for the API ("subreddits[2] must
 * be …"), the person sees the label and the item they typed instead of the field's API name. A refusal
 * that names no field keeps its own message.
 */
export function formRefusal(problem: AppError, input: Required<MonitorInput>): FormRefusal {
  const noModel = NO_MODEL[problem.code];
  if (noModel) return { message: noModel.message, fields: { [noModel.field]: noModel.message } };
  // Too many matches a day: the box to tick appears beside the form's button, with the estimate.
  if (problem.code === 'monitors.volume_too_high') {
    const estimate = volumeEstimate(problem.extra.preview as MonitorPreview);
    const message = `${estimate} Narrow the query (more specific keywords, a phrase, -words), add subreddits to exclude, or tick “Accept this many matches a day” below.`;
    return { message, fields: { confirm_volume: 'Tick to accept, or narrow the monitor.' } };
  }
  const issues = problem.extra.errors as { path: string; message: string }[] | undefined;
  if (!issues?.length) return { message: problem.message, fields: {} };
  // Items of one field refused by one rule are named together, so a long rule is said once.
  const grouped = new Map<string, { field: string; rule: string; items: string[] }>();
  for (const { path, message } of issues) {
    const [field = '', index] = path.split('/').slice(1);
    const item = index === undefined ? undefined : (input[field as keyof MonitorInput] as string[] | undefined)?.[Number(index)];
    const worded = message.startsWith(`${fieldName(path)} `) ? message.slice(fieldName(path).length + 1) : message;
    // The item is quoted before the rule, so the rule's own "(got …)" would say it twice.
    const rule = item === undefined ? worded : worded.replace(/ \(got .*\)$/s, '');
    const key = `${field}\u0000${rule}`;
    const group = grouped.get(key) ?? { field, rule, items: [] };
    if (item !== undefined) group.items.push(`“${item}”`);
    grouped.set(key, group);
  }
  const fields: FieldErrors = {};
  const parts = [...grouped.values()].map(({ field, rule, items }) => {
    const named = items.length === 0 ? '' : ` ${items.length === 1 ? items[0] : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`}`;
    const part = `${LABELS[field] ?? field}${named} ${rule}`;
    fields[field] = fields[field] ? `${fields[field]}; ${part}` : part;
    return part;
  });
  return { message: `Please fix: ${parts.join('; ')}.`, fields };
}

/**
 * The refusal to show beside the form: a 4xx the person can fix (dashboard.reply.ts), and an intent or
 * drafts this server has no model for, a 503 for the API that clearing one field fixes. Anything else is thrown.
 */
export const formProblemOf = (error: unknown): AppError => (isAppError(error) && NO_MODEL[error.code] ? error : formProblem(error));
