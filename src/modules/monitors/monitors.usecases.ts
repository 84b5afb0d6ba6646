/**
 * What an account does with its monitors (the API, the dashboard and the CLI all come through here):
 * create, list, read, edit, pause or resume, delete, and page through the matches. All of it is free;
 * reading Reddit and charging for matches is the poller's (poller/poller.usecases.ts).
 */
import type { Updateable } from 'kysely';
import { newId } from '../../shared/crypto/ids.ts';
import type { RandomBytes } from '../../shared/crypto/random.ts';
import { transaction, type Database } from '../../shared/db/database.ts';
import { decodeCursor, toPage, type Page } from '../../shared/http/pagination.ts';
import { invalidFields, rules } from '../../shared/http/validation-messages.ts';
import { idempotencyIn, type IdempotencyClaim } from '../idempotency/idempotency.usecases.ts';
import type { SubredditsUsecases } from '../subreddits/subreddits.usecases.ts';
import { utcDayStart } from '../../shared/calendar.ts';
import type { Via } from '../../shared/via.ts';
import { monitorsErrors } from './monitors.errors.ts';
import { healthOf } from './monitors.health.ts';
import { assertLooksForSomething, checkSettings, newMonitorSettings, type MonitorSettings } from './monitors.input.ts';
import { createObservedStateRepository } from './monitors.observed-state.repository.ts';
import type { RedditAppState } from './monitors.reddit-app.ts';
import type { JudgeState } from './monitors.judge-state.ts';
import { assertWithinLimits, usageOf, type MonitorChange, type MonitorLimits, type MonitorUsage } from './monitors.limits.ts';
import { createMonitorsRepository } from './monitors.repository.ts';
import { isAllOfReddit } from './monitors.scope.ts';
import { ALL_OF_REDDIT } from '../../shared/http/subreddit.ts';
import type { MonitorRow, MonitorsTable, MonitorSource } from './monitors.tables.ts';
import type { StreamState } from './monitors.stream-serving.ts';
import { toMatchView, toMonitorView, type MatchView, type MonitorActivity, type MonitorHealth, type MonitorInput, type MonitorPatch, type MonitorPreview, type MonitorView, type RedditAppView } from './monitors.view.ts';

export type { MonitorInput, MonitorPatch, MonitorPreview, SubredditHealthState, RedditErrorCode, RedditAppView, MonitorHealth, MonitorView, MatchView, MonitorActivity } from './monitors.view.ts';

export interface MonitorsUsecases {
  /**
   * `via`: the interface it is created through, which its charges show in the ledger (no default, so
   * every new caller says it); `idempotency`: the request's Idempotency-Key, bound to the monitor in the
   * transaction that creates it.
   */
  create(accountId: string, input: MonitorInput, options: { via: Via; idempotency?: IdempotencyClaim | null }): Promise<MonitorView>;
  list(accountId: string, page: { limit: number; cursor?: string }): Promise<Page<MonitorView>>;
  /** 404 `monitors.not_found` for an unknown id or another account's. */
  get(accountId: string, id: string): Promise<MonitorView>;
  update(accountId: string, id: string, patch: MonitorPatch): Promise<MonitorView>;
  remove(accountId: string, id: string): Promise<void>;
  /** The activity of these monitors of the account (others are left out), read at `now` (the clock's time, for "40 s ago"). */
  activity(accountId: string, monitorIds: string[]): Promise<{ now: string; monitors: Map<string, MonitorActivity> }>;
  /**
   * `after`: everything stored after that match, oldest first; otherwise newest first from `cursor`.
   * `filtered`: matches judged below the bar are left out ('without', the default), listed too ('with') or alone ('only').
   */
  matches(
    accountId: string,
    id: string,
    query: { limit: number; cursor?: string; after?: string; filtered?: 'with' | 'without' | 'only' },
  ): Promise<Page<MatchView>>;
  /** The state every monitor's health carries, for a page that shows it without a monitor (the dashboard's list). */
  redditApp(): Promise<RedditAppView>;
  /** The account's monitors and distinct subreddits against its limits (paused monitors count). */
  usage(accountId: string): Promise<MonitorUsage>;
}

/** The stored columns of checked settings (JSON for the lists, 0/1 for the flag). */
function columnsOf(settings: Partial<MonitorSettings>): Updateable<MonitorsTable> {
  const json = (value: string[] | undefined) => (value === undefined ? undefined : JSON.stringify(value));
  const columns: Updateable<MonitorsTable> = {
    name: settings.name,
    subreddits: json(settings.subreddits),
    keywords: json(settings.keywords),
    exclude_keywords: json(settings.exclude_keywords),
    exclude_subreddits: json(settings.exclude_subreddits),
    match_mode: settings.match,
    sources: json(settings.sources),
    include_nsfw: settings.include_nsfw === undefined ? undefined : settings.include_nsfw ? 1 : 0,
    webhook_url: settings.webhook_url,
    max_matches_per_day: settings.max_matches_per_day,
    query: settings.query,
    intent: settings.intent,
    min_relevance: settings.min_relevance,
    draft_replies: settings.draft_replies === undefined ? undefined : settings.draft_replies ? 1 : 0,
    draft_instructions: settings.draft_instructions,
  };
  return Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined));
}

/** An intent needs the judge, draft_replies the writer: both are the language model, which may not be configured. */
function assertModelFor(settings: Partial<MonitorSettings>, llmConfigured: boolean): void {
  if (llmConfigured) return;
  if (settings.intent) throw monitorsErrors.judgeNotConfigured();
  if (settings.draft_replies) throw monitorsErrors.draftsNotConfigured();
}

/** The fields that change what a monitor matches: a change of one is previewed, and may be refused for its volume. */
const MATCHING_FIELDS = ['subreddits', 'exclude_subreddits', 'keywords', 'exclude_keywords', 'match', 'sources', 'include_nsfw', 'query'] as const;

/** Page cursors carry their direction: `o<seq>` newest first (older ones next), `n<seq>` oldest first (newer ones next). */
const MATCH_CURSOR = /^[on]\d{1,18}$/;

export function createMonitorsUsecases(deps: {
  db: Database;
  clock: () => Date;
  random: RandomBytes;
  assertWebhookUrl: (url: string) => Promise<void>;
  subreddits: Pick<SubredditsUsecases, 'known'>;
  /** Without Reddit credentials nothing would ever be read: creating a monitor is refused (503). */
  redditConfigured: boolean;
  /** The poller's MONITOR_INTERVAL_SECONDS: a subreddit unread for two of them is stale. */
  intervalSeconds: number;
  /** Without a language model an intent could never be judged, nor a reply drafted: asking for either is refused (503). */
  llmConfigured: boolean;
  limits: MonitorLimits;
  /** Whether this server runs the site-wide stream: a monitor over all of Reddit needs it (503 `monitors.stream_off` otherwise). */
  streamOn: boolean;
  /** What the site-wide stream covers now, and how late it is, for the health (stream/stream.serving.usecases.ts); absent while it is off. */
  streamState?: () => Promise<StreamState>;
  /** What a monitor's rule would have matched in the stream's last hour, with the server's daily limit (app/monitor-stream.ts). */
  preview: (row: MonitorRow) => MonitorPreview;
}): MonitorsUsecases {
  const { db, clock, random } = deps;
  const monitors = createMonitorsRepository(db);
  const redditAppState = createObservedStateRepository<RedditAppState>(db, 'monitors');
  /** Reddit's state as a monitor's health shows it (`detail` is the judge's alone). */
  async function redditApp(): Promise<RedditAppView> {
    const { state, since } = await redditAppState.read();
    return { state, since };
  }
  const judgeState = createObservedStateRepository<JudgeState>(db, 'judge');

  /** The views of these rows, their health read in one go for all of them (the directory never asks Reddit here). */
  async function viewsOf(rows: MonitorRow[]): Promise<MonitorView[]> {
    const names = [...new Set(rows.flatMap((row) => (JSON.parse(row.subreddits) as string[]).map((s) => s.slice(2).toLowerCase())))];
    const sources = [...new Set(rows.flatMap((row) => JSON.parse(row.sources) as MonitorSource[]))];
    const [entries, cursors, gaps, silent, reddit, judged, stream] = await Promise.all([
      deps.subreddits.known(names),
      monitors.cursors(names, sources),
      monitors.gaps(rows.map((row) => row.id)),
      monitors.silentDestinations(rows.map((row) => row.id)),
      redditApp(),
      judgeState.read(),
      deps.streamState?.() ?? { covers: {}, lags: {} },
    ]);
    const directory = new Map(entries.map((entry) => [entry.name, entry]));
    const judge = { state: judged.state, since: judged.since, error: judged.detail };
    const facts = { directory, cursors, gaps, silent, reddit, judge, streamOn: deps.streamOn, stream, now: clock(), staleAfterMs: 2 * deps.intervalSeconds * 1000 };
    return rows.map((row): MonitorView => toMonitorView(row, healthOf(row, facts)));
  }

  /** In the creating or editing transaction, with the account's row locked, so two racing requests cannot both pass. */
  async function checkLimits(trx: Database, accountId: string, change: MonitorChange): Promise<void> {
    const repository = createMonitorsRepository(trx);
    await repository.lockAccount(accountId);
    assertWithinLimits(await repository.subredditsOfAccount(accountId), deps.limits, change);
  }

  /**
   * The preview of the monitor as it will be, and its refusal: above the daily limit without
   * confirm_volume (422), never for want of a count. `checked`: only when its rule changed or it resumes.
   */
  function previewFor(row: MonitorRow, checked: boolean, confirmed: boolean | undefined): MonitorPreview {
    const preview = deps.preview(row);
    const over = preview.estimated_per_day !== null && preview.estimated_per_day > preview.daily_limit;
    if (checked && over && confirmed !== true) throw monitorsErrors.volumeTooHigh(preview);
    return preview;
  }

  async function owned(accountId: string, id: string): Promise<MonitorRow> {
    const row = await monitors.findForAccount(accountId, id);
    if (!row) throw monitorsErrors.notFound();
    return row;
  }

  return {
    async create(accountId, input, { via, idempotency = null }) {
      const settings = newMonitorSettings(input);
      if (!deps.redditConfigured) throw monitorsErrors.notConfigured();
      if (settings.subreddits.includes(ALL_OF_REDDIT) && !deps.streamOn) throw monitorsErrors.streamOff();
      assertModelFor(settings, deps.llmConfigured);
      if (settings.webhook_url) await deps.assertWebhookUrl(settings.webhook_url);
      const now = clock();
      const at = now.toISOString();
      const row = {
        id: newId('mon', now, random),
        account_id: accountId,
        status: 'active',
        paused_reason: null,
        paused_until: null,
        ...columnsOf(settings),
        watch_from: at,
        resume_from: null,
        via,
        created_at: at,
        updated_at: at,
      } as MonitorRow;
      const preview = previewFor(row, true, input.confirm_volume);
      await transaction(db, async (trx) => {
        await checkLimits(trx, accountId, { subreddits: settings.subreddits });
        await idempotencyIn(trx).bind(idempotency, row.id, at);
        await createMonitorsRepository(trx).insert(row);
      });
      return { ...(await viewsOf([row]))[0]!, preview };
    },

    async list(accountId, page) {
      const before = decodeCursor(page.cursor, /^mon_[0-9a-f]{28}$/);
      const rows = await monitors.page(accountId, page.limit, before);
      const { data, ...rest } = toPage(rows, page.limit, (row) => row.id);
      return { ...rest, data: await viewsOf(data) };
    },

    async get(accountId, id) {
      return (await viewsOf([await owned(accountId, id)]))[0]!;
    },

    async update(accountId, id, patch) {
      const row = await owned(accountId, id);
      const { status, confirm_volume: confirmed, ...fields } = patch;
      if (status !== undefined && status !== 'active' && status !== 'paused') {
        throw invalidFields('The monitor', [{ path: '/status', message: rules.oneOf(['active', 'paused']) }]);
      }
      const settings = checkSettings(fields);
      assertLooksForSomething({
        keywords: settings.keywords ?? (JSON.parse(row.keywords) as string[]),
        query: settings.query !== undefined ? settings.query : row.query,
      });
      assertModelFor(settings, deps.llmConfigured);
      if (settings.webhook_url) await deps.assertWebhookUrl(settings.webhook_url);
      const now = clock().toISOString();
      // New subreddits or keywords of an active monitor apply from the poller's next cycle; only a
      // resume moves watch_from, so what was published while the owner paused it (or while the daily
      // cap did) is never matched afterwards. A pause for credits is not the owner's choice: resumed
      // by hand too, it watches from where it stopped, and the poller catches up the stretch since.
      // The owner's own pause drops any such stretch still owed: from then on it is theirs.
      const change: Updateable<MonitorsTable> = { ...columnsOf(settings), updated_at: now };
      if (status === 'paused') Object.assign(change, { status: 'paused', paused_reason: 'user', paused_until: null, resume_from: null });
      if (status === 'active' && row.status === 'paused') {
        const owed = row.paused_reason === 'insufficient_credits' ? row.resume_from : null;
        Object.assign(change, { status: 'active', paused_reason: null, paused_until: null, watch_from: owed ?? now, resume_from: owed });
      }
      const after = { ...row, ...change } as MonitorRow;
      const resuming = status === 'active' && row.status === 'paused';
      const active = after.status === 'active';
      // All of Reddit with no stream to read it: refused when it would start being watched (a resume, or new subreddits).
      if (active && isAllOfReddit(after) && !deps.streamOn && (resuming || settings.subreddits !== undefined)) throw monitorsErrors.streamOff();
      const ruleChanged = MATCHING_FIELDS.some((field) => settings[field] !== undefined);
      const preview = previewFor(after, active && (ruleChanged || resuming), confirmed);
      const updated = await transaction(db, async (trx) => {
        if (settings.subreddits) await checkLimits(trx, accountId, { monitorId: id, subreddits: settings.subreddits });
        const repository = createMonitorsRepository(trx);
        const done = await repository.update(accountId, id, change);
        // A new bar re-sorts the verdicts already stored, without judging again.
        if (done && settings.min_relevance !== undefined) await repository.resort(id, settings.min_relevance);
        return done;
      });
      if (!updated) throw monitorsErrors.notFound();
      return { ...(await viewsOf([await owned(accountId, id)]))[0]!, preview };
    },

    async remove(accountId, id) {
      const removed = await transaction(db, (trx) => createMonitorsRepository(trx).remove(accountId, id));
      if (!removed) throw monitorsErrors.notFound();
    },

    async activity(accountId, monitorIds) {
      const now = clock();
      const rows = await monitors.activity(accountId, monitorIds, utcDayStart(now));
      const activity = rows.map((row): [string, MonitorActivity] => [
        row.id,
        // PostgreSQL's driver may hand a count back as text.
        { matches_today: Number(row.matches_since ?? 0), last_match_at: row.last_found_at ?? null },
      ]);
      return { now: now.toISOString(), monitors: new Map(activity) };
    },

    async usage(accountId) {
      return usageOf(await monitors.subredditsOfAccount(accountId), deps.limits);
    },

    async matches(accountId, id, query) {
      if (query.after !== undefined && query.cursor !== undefined && query.cursor !== '') throw monitorsErrors.cursorWithAfter();
      await owned(accountId, id);
      let from: { direction: 'older' | 'newer'; seq?: number } = { direction: 'older' };
      if (query.after !== undefined) {
        const match = await monitors.matchSeq(id, query.after);
        if (!match) throw monitorsErrors.matchNotFound();
        from = { direction: 'newer', seq: Number(match.seq) };
      } else {
        const cursor = decodeCursor(query.cursor, MATCH_CURSOR);
        if (cursor) from = { direction: cursor[0] === 'o' ? 'older' : 'newer', seq: Number(cursor.slice(1)) };
      }
      const rows = await monitors.matchesPage(id, query.limit, from, query.filtered ?? 'without');
      // PostgreSQL's driver hands a bigserial back as text.
      const page = toPage(rows, query.limit, (row) => `${from.direction === 'older' ? 'o' : 'n'}${Number(row.seq)}`);
      return { ...page, data: page.data.map(toMatchView) };
    },

    redditApp,
  };
}
