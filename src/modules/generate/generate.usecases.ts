import type { Prices } from '../../shared/config/config.ts';
import { transaction, type Database } from '../../shared/db/database.ts';
import { newId } from '../../shared/crypto/ids.ts';
import { decodeCursor, toPage } from '../../shared/http/pagination.ts';
import { leaseFor } from '../../shared/jobs/leases.ts';
import { LlmUnavailableError, type LlmClient } from '../../integrations/llm/llm.client.ts';
import type { RedditClient } from '../../integrations/reddit/reddit.client.ts';
import { RedditBlockedError, RedditUnavailableError } from '../../integrations/reddit/reddit.errors.ts';
import { chargeFor, refundOf } from '../credits/credits.prices.ts';
import { creditsIn } from '../credits/credits.usecases.ts';
import type { Caller } from '../keys/keys.usecases.ts';
import type { RandomBytes } from '../../shared/crypto/random.ts';
import { findScrapedPost } from '../scrape/scrape.usecases.ts';
import { generateErrors } from './generate.errors.ts';
import { buildPrompt, missingPart, toDraft } from './generate.prompt.ts';
import { createGenerationsRepository, type GenerationRow } from './generate.repository.ts';
import type { GenerateBody } from './generate.schemas.ts';
import { idempotencyIn, type IdempotencyClaim } from '../idempotency/idempotency.usecases.ts';
import { afterCommitOf, commitOf, type Committing } from '../../shared/outcomes.ts';

export function toGenerationView(row: GenerationRow, balance?: number) {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    post_id: row.post_id,
    subreddit: row.subreddit,
    title: row.title,
    body: row.body,
    model: row.model,
    usage: row.usage ? JSON.parse(row.usage) : null,
    credits: balance === undefined ? { charged: row.charged } : { charged: row.charged, balance },
    error: row.error,
    created_at: row.created_at,
  };
}

/** A generation being created, as its answers name it when the database fails around the commit. */
export const committingGeneration = (id: string, price: number): Committing => ({
  noun: 'generation',
  id,
  idField: 'generation_id',
  location: `/api/v1/generations/${id}`,
  money: `was charged ${price} credits (refunded in full if it fails)`,
});

export function createGenerateUsecases(deps: {
  db: Database;
  llm: LlmClient | null;
  reddit: RedditClient | null;
  clock: () => Date;
  random: RandomBytes;
  prices: Prices;
}) {
  const { db, llm, reddit, clock, random, prices } = deps;
  const generations = createGenerationsRepository(db);

  /** The post to reply to: from the account's own scrape results when there, else from Reddit. */
  async function findPost(accountId: string, postId: string): Promise<{ title: string; body: string; subreddit: string }> {
    const hit = await findScrapedPost(db, accountId, postId);
    if (hit) return { title: hit.title, body: hit.body, subreddit: hit.subreddit };
    if (!reddit) throw generateErrors.postNotFound(postId, 'not in your scrapes, and Reddit is not configured');
    try {
      const post = await reddit.getPost(postId, accountId);
      if (!post) throw generateErrors.postNotFound(postId, 'Reddit does not know it');
      return { title: post.title, body: post.body, subreddit: `r/${post.subreddit}` };
    } catch (error) {
      if (error instanceof RedditBlockedError) throw generateErrors.redditBlocked(error.message);
      if (error instanceof RedditUnavailableError) throw generateErrors.redditUnavailable(error.message);
      throw error;
    }
  }

  async function settle(row: GenerationRow, change: Partial<GenerationRow> & { refund: number }) {
    const { refund, ...rest } = change;
    return transaction(db, async (trx) => {
      const settled = await createGenerationsRepository(trx).settle(row.id, {
        status: rest.status ?? 'failed',
        title: rest.title ?? null,
        body: rest.body ?? null,
        model: rest.model ?? null,
        usage: rest.usage ?? null,
        error: rest.error ?? null,
        charged: row.charged - refund,
        completed_at: clock().toISOString(),
      });
      const credits = creditsIn(trx);
      if (settled && refund > 0) {
        const at = clock().toISOString();
        await credits.refund({ accountId: row.account_id, amount: refund, chargedAt: row.created_at, keyId: row.key_id, purchase: { kind: 'generation', id: row.id }, reason: rest.error, at });
      }
      return { settled, balance: await credits.spendableBalance(row.account_id) };
    });
  }

  /** The model's part, after the charge committed: the draft, or a refund and an error with the generation's id. */
  async function complete(llm: LlmClient, row: GenerationRow, body: GenerateBody, post: { title: string; body: string } | null) {
    const prompt = buildPrompt({ type: body.type, subreddit: row.subreddit, post, instructions: body.instructions.trim(), tone: body.tone, maxLength: body.max_length });
    let completion;
    try {
      completion = await llm.complete(prompt);
    } catch (error) {
      const message = error instanceof LlmUnavailableError ? error.message : 'the generation failed unexpectedly';
      await settle(row, { status: 'failed', error: message, refund: refundOf(row) });
      if (error instanceof LlmUnavailableError) throw generateErrors.llmUnavailable(row.id, error.message, error.timedOut);
      throw error;
    }
    const draft = toDraft(body.type, completion.text, body.max_length);
    // An answer publish would refuse is no draft: failed and refunded, not completed and charged.
    const missing = completion.noText ?? missingPart(body.type, draft);
    if (missing) {
      await settle(row, { status: 'failed', model: completion.model, usage: JSON.stringify(completion.usage), error: `the language model answered with ${missing}`, refund: refundOf(row) });
      throw generateErrors.emptyDraft(row.id, missing);
    }
    const { settled, balance } = await settle(row, {
      status: 'completed',
      title: draft.title,
      body: draft.body,
      model: completion.model,
      usage: JSON.stringify(completion.usage),
      refund: 0,
    });
    // Recovery presumed this process dead and refunded the generation; the late draft is not delivered.
    if (!settled) throw generateErrors.llmUnavailable(row.id, 'the answer came after the generation was given up and refunded', true);
    return toGenerationView((await generations.findForAccount(row.account_id, row.id))!, balance);
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
    async generate(caller: Caller, body: GenerateBody, idempotency: IdempotencyClaim | null = null) {
      // The schema has checked the shape: a reply names its post, a post its subreddit.
      if (!llm) throw generateErrors.notConfigured();
      const post = body.type === 'reply' ? await findPost(caller.accountId, body.post_id) : null;
      const subreddit = post ? post.subreddit : `r/${(body as { subreddit: string }).subreddit.slice(2)}`;
      const now = clock();
      const purchase = { kind: 'generation', id: newId('gen', now, random) } as const;
      const price = chargeFor(prices, purchase);
      const row: GenerationRow = {
        id: purchase.id,
        account_id: caller.accountId,
        key_id: caller.keyId,
        status: 'running',
        type: body.type,
        request: JSON.stringify(body),
        post_id: body.type === 'reply' ? body.post_id : null,
        subreddit,
        title: null,
        body: null,
        model: null,
        usage: null,
        price,
        charged: price,
        error: null,
        // Past this the model call, its retries and their waits have surely ended (the client enforces
        // its budget): the process died.
        lease_expires_at: new Date(now.getTime() + leaseFor(llm.budgetMs())).toISOString(),
        created_at: now.toISOString(),
        completed_at: null,
        via: caller.via,
      };
      const committing = committingGeneration(row.id, price);
      // Charged before the model is called (see creditsIn), with its record and its Idempotency-Key in one
      // transaction: a crash leaves a leased row for recovery to refund, never a charge without a generation.
      await commitOf(committing, () =>
        transaction(db, async (trx) => {
          await idempotencyIn(trx).bind(idempotency, row.id, row.created_at);
          await creditsIn(trx).charge({ accountId: caller.accountId, price, keyId: caller.keyId, purchase, at: row.created_at });
          await createGenerationsRepository(trx).insert(row);
        }),
      );
      return afterCommitOf(committing, () => complete(llm, row, body, post));
    },

    outcome,

    async get(accountId: string, id: string) {
      const row = await generations.findForAccount(accountId, id);
      if (!row) throw generateErrors.notFound();
      return toGenerationView(row);
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
      return { ...toGenerationView(row), instructions: request.instructions, tone: request.tone ?? null };
    },

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
