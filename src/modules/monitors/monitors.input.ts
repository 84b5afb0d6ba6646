import { ALL_ALONE_RULE, ALL_OF_REDDIT, subredditName, subredditProblem } from '../../shared/http/subreddit.ts';
import { invalidFields, matchingRuleCode, NOTHING_TO_MATCH, queryProblem, rules } from '../../shared/http/validation-messages.ts';
import type { MatchMode, MonitorSource } from './monitors.tables.ts';

/*
 * No schema code here: the operator CLI loads the monitors usecases, and a one-shot command must not
 * load typebox (test/cli/startup.test.ts). So the subreddit rule comes from the typebox-free
 * subreddit.ts, as the schemas' does.
 */

export const MONITOR_LIMITS = {
  name: 64,
  subreddits: 100,
  excludeSubreddits: 100,
  keywords: 50,
  excludeKeywords: 50,
  keywordLength: 100,
  maxMatchesPerDay: 1_000_000,
  intent: 500,
  draftInstructions: 2000,
} as const;

/** The bar a judged match must reach to be delivered when the monitor names none. */
export const DEFAULT_MIN_RELEVANCE = 60;

/** A monitor's settings once checked, trimmed and folded: what is stored. */
export interface MonitorSettings {
  name: string;
  /** r/name each; ["r/all"] alone: all of Reddit. */
  subreddits: string[];
  /** r/name each: never matched (for a monitor over all of Reddit, what it leaves out). */
  exclude_subreddits: string[];
  keywords: string[];
  exclude_keywords: string[];
  match: MatchMode;
  sources: MonitorSource[];
  include_nsfw: boolean;
  webhook_url: string | null;
  max_matches_per_day: number | null;
  /** The query text as given (docs/api/queries.md); null: the keywords alone decide. */
  query: string | null;
  /** What a match should be about, for the relevance judge; null: matches are not judged. */
  intent: string | null;
  min_relevance: number;
  /** Each delivered match gets a reply draft (never published by itself). */
  draft_replies: boolean;
  /** What those drafts should say or do; null: the account's voice alone. */
  draft_instructions: string | null;
}

type Problem = { path: string; message: string; position?: number };

const SOURCES: readonly MonitorSource[] = ['posts', 'comments'];

/** Each text read by the one subreddit rule as r/name; a refusal names the item. */
function subredditList(problems: Problem[], field: string, value: unknown, min: number, max: number): string[] {
  const items = list(problems, field, value, min, max) ?? [];
  // Any accepted form (a link, a bare name) is stored as r/name.
  const names = items.map((text, index) => {
    const name = subredditName(text);
    if (name === null) problems.push({ path: `/${field}/${index}`, message: subredditProblem(text) });
    return name ?? text;
  });
  return foldDuplicates(names);
}

/** Keeps the first spelling of each case-insensitive duplicate, in the given order. */
function foldDuplicates(values: string[]): string[] {
  const seen = new Map<string, string>();
  for (const value of values) if (!seen.has(value.toLowerCase())) seen.set(value.toLowerCase(), value);
  return [...seen.values()];
}

function list(problems: Problem[], field: string, value: unknown, min: number, max: number): string[] | undefined {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    problems.push({ path: `/${field}`, message: 'must be an array of strings' });
    return undefined;
  }
  if (value.length < min || value.length > max) problems.push({ path: `/${field}`, message: rules.items(min, max) });
  return value as string[];
}

/** "is 1 to 100 characters long after trimming spaces": what the schema cannot check, worded like what it can. */
// U+0000 too: PostgreSQL's text cannot store it (the API schema's pattern refuses it likewise).
const TRIMMED = (max: number) => rules.trimmed(max);
const hasNul = (text: string) => text.includes('\u0000');

/** Keywords trimmed, each 1–100 characters after trimming (the schema cannot trim), folded. */
function keywords(problems: Problem[], field: string, value: unknown, min: number, max: number): string[] {
  const items = list(problems, field, value, min, max) ?? [];
  const trimmed = items.map((keyword) => keyword.trim());
  trimmed.forEach((keyword, index) => {
    // Counted in code points, as the API schema's pattern counts them.
    if (keyword.length < 1 || [...keyword].length > MONITOR_LIMITS.keywordLength || hasNul(keyword)) {
      problems.push({ path: `/${field}/${index}`, message: TRIMMED(MONITOR_LIMITS.keywordLength) });
    }
  });
  return foldDuplicates(trimmed);
}

/** Checks each field that is present; the API's schema has checked them already, the dashboard's form has not. */
const CHECKS: { [K in keyof MonitorSettings]: (problems: Problem[], value: unknown) => MonitorSettings[K] } = {
  name(problems, value) {
    const name = typeof value === 'string' ? value.trim() : '';
    if (name.length < 1 || [...name].length > MONITOR_LIMITS.name || hasNul(name)) problems.push({ path: '/name', message: TRIMMED(MONITOR_LIMITS.name) });
    return name;
  },
  subreddits(problems, value) {
    const names = subredditList(problems, 'subreddits', value, 1, MONITOR_LIMITS.subreddits);
    // All of Reddit already holds every name: beside them it could only be a mistake.
    if (names.length > 1 && names.includes(ALL_OF_REDDIT)) problems.push({ path: '/subreddits', message: ALL_ALONE_RULE });
    return names;
  },
  exclude_subreddits(problems, value) {
    const names = subredditList(problems, 'exclude_subreddits', value, 0, MONITOR_LIMITS.excludeSubreddits);
    if (names.includes(ALL_OF_REDDIT)) problems.push({ path: '/exclude_subreddits', message: 'must name subreddits to leave out, not all of Reddit' });
    return names;
  },
  // None at all is fine here when a query is given: newMonitorSettings and the update check the pair.
  keywords: (problems, value) => keywords(problems, 'keywords', value, 0, MONITOR_LIMITS.keywords),
  exclude_keywords: (problems, value) => keywords(problems, 'exclude_keywords', value, 0, MONITOR_LIMITS.excludeKeywords),
  match(problems, value) {
    if (value !== 'phrase' && value !== 'word') problems.push({ path: '/match', message: rules.oneOf(['word', 'phrase']) });
    return value as MatchMode;
  },
  sources(problems, value) {
    const items = list(problems, 'sources', value, 1, SOURCES.length) ?? [];
    if (items.some((item) => !SOURCES.includes(item as MonitorSource)) || new Set(items).size !== items.length) {
      problems.push({ path: '/sources', message: 'must be "posts", "comments" or both, each once' });
    }
    // Stored in one order, so a monitor reads the same whichever order it was given in.
    return SOURCES.filter((source) => items.includes(source));
  },
  include_nsfw(problems, value) {
    if (typeof value !== 'boolean') problems.push({ path: '/include_nsfw', message: rules.boolean });
    return value as boolean;
  },
  webhook_url(problems, value) {
    if (value !== null && (typeof value !== 'string' || value.length === 0)) problems.push({ path: '/webhook_url', message: 'must be an https URL or null' });
    return value as string | null;
  },
  max_matches_per_day(problems, value) {
    const ok = value === null || (Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MONITOR_LIMITS.maxMatchesPerDay);
    if (!ok) {
      const rule = rules.number({ type: 'integer', minimum: 1, maximum: MONITOR_LIMITS.maxMatchesPerDay });
      problems.push({ path: '/max_matches_per_day', message: `${rule}, or null for no cap` });
    }
    return value as number | null;
  },
  query(problems, value) {
    if (value === null) return null;
    const text = typeof value === 'string' ? value.trim() : '';
    if (text === '' || hasNul(text)) {
      problems.push({ path: '/query', message: 'must be a query of words, "phrases", OR, NOT and fields (see /docs/guides/queries), or null' });
      return null;
    }
    const problem = queryProblem(text);
    if (problem) problems.push(problem);
    return text;
  },
  intent(problems, value) {
    if (value === null) return null;
    const text = typeof value === 'string' ? value.trim() : '';
    if (text === '' || [...text].length > MONITOR_LIMITS.intent || hasNul(text)) {
      problems.push({ path: '/intent', message: `${TRIMMED(MONITOR_LIMITS.intent)}, or null for no relevance judging` });
    }
    return text;
  },
  min_relevance(problems, value) {
    if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > 100) {
      problems.push({ path: '/min_relevance', message: rules.number({ type: 'integer', minimum: 0, maximum: 100 }) });
    }
    return value as number;
  },
  draft_replies(problems, value) {
    if (typeof value !== 'boolean') problems.push({ path: '/draft_replies', message: rules.boolean });
    return value as boolean;
  },
  draft_instructions(problems, value) {
    if (value === null) return null;
    const text = typeof value === 'string' ? value.trim() : '';
    if (text === '' || [...text].length > MONITOR_LIMITS.draftInstructions || hasNul(text)) {
      problems.push({ path: '/draft_instructions', message: `${TRIMMED(MONITOR_LIMITS.draftInstructions)}, or null for none` });
    }
    return text;
  },
};

/** Something to look for: keywords, a query, or both (then both must hold). */
export function assertLooksForSomething(settings: Pick<MonitorSettings, 'keywords' | 'query'>): void {
  if (settings.keywords.length === 0 && settings.query === null) {
    throw invalidFields('The monitor', [{ path: '/keywords', message: NOTHING_TO_MATCH }], 'query.missing');
  }
}

const DEFAULTS: Omit<MonitorSettings, 'name' | 'subreddits' | 'keywords'> = {
  exclude_subreddits: [],
  exclude_keywords: [],
  // Whole words unless asked otherwise: "api" should not find "rapid" (docs/api/queries.md). Monitors made
  // before this default keep the mode they were stored with.
  match: 'word',
  sources: ['posts'],
  include_nsfw: false,
  webhook_url: null,
  max_matches_per_day: null,
  query: null,
  intent: null,
  min_relevance: DEFAULT_MIN_RELEVANCE,
  draft_replies: false,
  draft_instructions: null,
};

/**
 * The fields given, checked, trimmed and folded; every problem at once as a 422 pointing at the bad
 * field or item (like POST /scrape's keywords). `undefined` means "not given" and is skipped.
 */
export function checkSettings(input: { [K in keyof MonitorSettings]?: unknown }): Partial<MonitorSettings> {
  const problems: Problem[] = [];
  const settings: Record<string, unknown> = {};
  for (const [field, check] of Object.entries(CHECKS)) {
    const value = input[field as keyof MonitorSettings];
    if (value !== undefined) settings[field] = (check as (p: Problem[], v: unknown) => unknown)(problems, value);
  }
  if (problems.length > 0) {
    throw invalidFields('The monitor', problems, matchingRuleCode(problems));
  }
  return settings as Partial<MonitorSettings>;
}

/** A new monitor's settings: the required fields checked like any other, the rest defaulted. */
export function newMonitorSettings(input: { [K in keyof MonitorSettings]?: unknown }): MonitorSettings {
  const { name, subreddits, keywords } = input;
  const settings = { ...DEFAULTS, ...checkSettings({ ...input, name: name ?? '', subreddits: subreddits ?? [], keywords: keywords ?? [] }) } as MonitorSettings;
  assertLooksForSomething(settings);
  return settings;
}
