import type { Kysely } from 'kysely';
import type { Prices } from '../../shared/config/config.ts';
import { transaction, type Database, type Tables } from '../../shared/db/database.ts';
import { newId } from '../../shared/crypto/ids.ts';
import type { RandomBytes } from '../../shared/crypto/random.ts';
import { decodeCursor, toPage } from '../../shared/http/pagination.ts';
import { leaseFor } from '../../shared/jobs/leases.ts';
import type { Payer } from '../../shared/via.ts';
import { afterCommitOf, commitOf } from '../../shared/outcomes.ts';
import { LlmUnavailableError, type LlmClient } from '../../integrations/llm/llm.client.ts';
import type { RedditClient } from '../../integrations/reddit/reddit.client.ts';
import { voiceOf } from '../accounts/accounts.usecases.ts';
import { chargeFor, refundOf } from '../credits/credits.prices.ts';
import { creditsIn } from '../credits/credits.usecases.ts';
import { idempotencyIn, type IdempotencyClaim } from '../idempotency/idempotency.usecases.ts';
import { createReplyContexts, type FindMatchedItem, type ReplyContext, type StoredItem } from './generate.context.usecases.ts';
import { generateErrors } from './generate.errors.ts';
import { buildPrompt, missingPart, toDraft } from './generate.prompt.ts';
import { createGenerationsRepository, type GenerationRow } from './generate.repository.ts';
import type { GenerateBody, GenerationEdit } from './generate.schemas.ts';
import { committingGeneration, toGenerationView } from './generate.view.ts';
import { checkedSubreddit } from '../../shared/http/subreddit.ts';

/** The inbox's marks on a match, made in the transaction that records or settles its draft (monitors' inboxIn). */
export type InboxMarks = (db: Kysely<Tables>) => {
  draftAttached(matchId: string, draftId: string): Promise<void>;
  draftWritten(draftId: string, at: string): Promise<void>;
};

/** A draft charged and recorded, still to be written by the model (`write`): what the poller holds between the two. */
export interface PreparedDraft {
  row: GenerationRow;
  body: GenerateBody;
  reply: ReplyContext | null;
  voice: string | null;
}

export function createGenerateUsecases(deps: {
  db: Database;
  llm: LlmClient | null;
  reddit: RedditClient | null;
  clock: () => Date;
  random: RandomBytes;
  prices: Prices;
  findMatched: FindMatchedItem;
  inbox: InboxMarks;
}) {
  const { db, llm, clock, random, prices, inbox } = deps;
  const generations = createGenerationsRepository(db);
  const contexts = createReplyContexts({ db, reddit: deps.reddit, findMatched: deps.findMatched });

  async function settle(row: GenerationRow, change: Partial<GenerationRow> & { refund: number }) {
    const { refund, ...rest } = change;
    return transaction(db, async (trx) => {
      const at = clock().toISOString();
      const settled = await createGenerationsRepository(trx).settle(row.id, {
        status: rest.status ?? 'failed',
        title: rest.title ?? null,
        body: rest.body ?? null,
        model: rest.model ?? null,
        usage: rest.usage ?? null,
        error: rest.error ?? null,
        charged: row.charged - refund,
        completed_at: at,
      });
      const credits = creditsIn(trx);
      if (settled && refund > 0) {
        await credits.refund({ accountId: row.account_id, amount: refund, chargedAt: row.created_at, keyId: row.key_id, purchase: { kind: 'generation', id: row.id }, reason: rest.error, at });
      }
      if (settled && rest.status === 'completed') await inbox(trx).draftWritten(row.id, at);
      return { settled, balance: await credits.spendableBalance(row.account_id) };
    });
  }

  /** The model's part, after the charge committed: the draft, or a refund and an error with the generation's id. */
  async function complete(llm: LlmClient, draft: PreparedDraft) {
    const { row, body, reply, voice } = draft;
    const instructions = body.instructions?.trim();
    const prompt = buildPrompt({ type: body.type, subreddit: row.subreddit, reply, instructions, voice, tone: body.tone, maxLength: body.max_length });
    let completion;
    try {
      completion = await llm.complete(prompt);
    } catch (error) {
      const message = error instanceof LlmUnavailableError ? error.message : 'the generation failed unexpectedly';
      await settle(row, { status: 'failed', error: message, refund: refundOf(row) });
      if (error instanceof LlmUnavailableError) throw generateErrors.llmUnavailable(row.id, error.message, error.timedOut);
      throw error;
    }
    const text = toDraft(body.type, completion.text, body.max_length);
    // An answer publish would refuse is no draft: failed and refunded, not completed and charged.
    const missing = completion.noText ?? missingPart(body.type, text);
    if (missing) {
      await settle(row, { status: 'failed', model: completion.model, usage: JSON.stringify(completion.usage), error: `the language model answered with ${missing}`, refund: refundOf(row) });
      throw generateErrors.emptyDraft(row.id, missing);
    }
    const { settled, balance } = await settle(row, { status: 'completed', title: text.title, body: text.body, model: completion.model, usage: JSON.stringify(completion.usage), refund: 0 });
    // Recovery presumed this process dead and refunded the generation; the late draft is not delivered.
    if (!settled) throw generateErrors.llmUnavailable(row.id, 'the answer came after the generation was given up and refunded', true);
    return toGenerationView((await generations.findForAccount(row.account_id, row.id))!, balance);
  }

  /** A running generation's row: charged its price, leased for as long as the model may take. */
  function newRow(llm: LlmClient, payer: Payer, body: GenerateBody, reply: ReplyContext | null): GenerationRow {
    const now = clock();
    const id = newId('gen', now, random);
    const price = chargeFor(prices, { kind: 'generation', id });
    const subreddit = reply ? reply.subreddit : checkedSubreddit((body as { subreddit: string }).subreddit);
    return {
      id,
      account_id: payer.accountId,
      key_id: payer.keyId,
      status: 'running',
      type: body.type,
      request: JSON.stringify(body),
      post_id: reply?.thread ?? null,
      reply_to: reply?.replyTo ?? null,
      thread_id: reply?.thread ?? null,
      match_id: reply?.matchId ?? null,
      subreddit,
      title: null,
      body: null,
      model: null,
      usage: null,
      price,
      charged: price,
      error: null,
      // Past this the model call, its retries and their waits have surely ended (the client enforces its budget): the process died.
      lease_expires_at: new Date(now.getTime() + leaseFor(llm.budgetMs())).toISOString(),
      created_at: now.toISOString(),
      completed_at: null,
      via: payer.via,
      edited_at: null,
    };
  }

  /** Charges and records a generation in the caller's transaction, and ties it to its match. */
  async function openIn(trx: Kysely<Tables>, row: GenerationRow) {
    await creditsIn(trx).charge({ accountId: row.account_id, price: row.price, keyId: row.key_id, purchase: { kind: 'generation', id: row.id }, at: row.created_at });
    await createGenerationsRepository(trx).insert(row);
    if (row.match_id) await inbox(trx).draftAttached(row.match_id, row.id);
  }

  /** What a reply answers: reply_to, or post_id (its older name), exactly one of them. */
  function replyTarget(body: GenerateBody): string | null {
    if (body.type !== 'reply') return null;
    if (body.reply_to && body.post_id) throw generateErrors.replyTarget('both');
    const ref = body.reply_to ?? body.post_id;
    if (!ref) throw generateErrors.replyTarget('neither');
    return ref;
  }

  /**
   * The answer for a generation as it stands, for a retry with its Idempotency-Key whose first answer was
   * lost or not stored yet: the draft, "still running" (409), or its failure, refunded (502).
   */
  async function outcome(accountId: string, id: string) {
    const row = await generations.findForAccount(accountId, id);
    if (!row) throw generateErrors.notFound();
    if (row.status === 'running') throw generateErrors.inProgress(row.id);
    if (row.status === 'failed') throw generateErrors.llmUnavailable(row.id, row.error ?? 'the generation failed', false);
    return toGenerationView(row, await creditsIn(db).spendableBalance(accountId));
  }

  return {
    async generate(caller: Payer, body: GenerateBody, idempotency: IdempotencyClaim | null = null) {
      // The schema has checked the shape; a reply names what it answers once, a post its subreddit.
      const ref = replyTarget(body);
      if (!llm) throw generateErrors.notConfigured();
      const reply = ref ? await contexts.resolve(caller.accountId, ref) : null;
      const draft: PreparedDraft = { row: newRow(llm, caller, body, reply), body, reply, voice: await voiceOf(db, caller.accountId) };
      const committing = committingGeneration(draft.row.id, draft.row.price);
      // Charged before the model is called (see creditsIn), with its record and its Idempotency-Key in one
      // transaction: a crash leaves a leased row for recovery to refund, never a charge without a generation.
      await commitOf(committing, () =>
        transaction(db, async (trx) => {
          await idempotencyIn(trx).bind(idempotency, draft.row.id, draft.row.created_at);
          await openIn(trx, draft.row);
        }),
      );
      return afterCommitOf(committing, () => complete(llm, draft));
    },

    /**
     * A reply draft for a match the poller is storing, charged and recorded in the poller's transaction
     * (so the match's webhook names it); null when no model is configured. Throws 402 when the account
     * cannot pay: a guarded statement that changed nothing, so the caller's transaction can go on without it.
     */
    async prepareForMatch(trx: Kysely<Tables>, payer: Payer, match: StoredItem & { match_id: string }, instructions: string | null): Promise<PreparedDraft | null> {
      if (!llm) return null;
      const body: GenerateBody = { type: 'reply', reply_to: match.match_id, ...(instructions ? { instructions } : {}) };
      const reply = contexts.contextOf(match);
      const draft: PreparedDraft = { row: newRow(llm, payer, body, reply), body, reply, voice: await voiceOf(trx, payer.accountId) };
      await openIn(trx, draft.row);
      return draft;
    },

    /**
     * Writes a prepared draft once its transaction committed; a failure is settled (refunded) on the generation, not
     * thrown. Its lease starts again now: it may have waited for others to be written, and recovery must not take a
     * draft that is only queued for a dead process.
     */
    async write(draft: PreparedDraft): Promise<void> {
      const until = new Date(clock().getTime() + leaseFor(llm!.budgetMs())).toISOString();
      if (!(await generations.renewLease(draft.row.id, until))) return;
      await complete(llm!, draft).catch(() => undefined);
    },

    outcome,

    async get(accountId: string, id: string) {
      const row = await generations.findForAccount(accountId, id);
      if (!row) throw generateErrors.notFound();
      return toGenerationView(row);
    },

    /** A person's edit of a completed draft before it is published: what publish will post. Free. */
    async edit(accountId: string, id: string, change: GenerationEdit) {
      const row = await generations.findForAccount(accountId, id);
      if (!row) throw generateErrors.notFound();
      const title = row.type === 'post' ? (change.title?.trim() ?? row.title) : null;
      if (row.status !== 'completed' || !(await generations.edit(row.id, { title, body: change.body, edited_at: clock().toISOString() }))) {
        throw generateErrors.notEditable(row.status);
      }
      return toGenerationView((await generations.findForAccount(accountId, id))!);
    },

    /** The account's drafts, newest first (the dashboard's Drafts page). */
    async list(accountId: string, options: { limit: number; cursor?: string }) {
      const rows = await generations.page(accountId, options.limit, decodeCursor(options.cursor, /^gen_[0-9a-f]{28}$/));
      const page = toPage(rows, options.limit, (row) => row.id);
      return { ...page, data: page.data.map((row) => toGenerationView(row)) };
    },

    /** One draft with the instructions it was written from (the dashboard's draft page; the API does not echo them). */
    async show(accountId: string, id: string) {
      const row = await generations.findForAccount(accountId, id);
      if (!row) throw generateErrors.notFound();
      const request = JSON.parse(row.request) as GenerateBody;
      return { ...toGenerationView(row), instructions: request.instructions ?? null, tone: request.tone ?? null };
    },

    /** Where a fullname is, from what the account holds (publish's rails); null when not held. */
    locate: contexts.locate,

    /** Refunds generations whose process died mid-call (lease expired). Returns how many were settled. */
    async recoverAbandoned(): Promise<number> {
      let count = 0;
      for (const row of await generations.findAbandoned(clock().toISOString())) {
        const error = 'the service stopped before the generation finished; the charge was refunded';
        if ((await settle(row, { status: 'failed', error, refund: refundOf(row) })).settled) count += 1;
      }
      return count;
    },
  };
}

export type GenerateUsecases = ReturnType<typeof createGenerateUsecases>;
