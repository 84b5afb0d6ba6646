/**
 * How long a charged generation or publication may stay `running` before recovery presumes its
 * process dead. Each lease is the longest its outside calls can take, every timeout, retry and wait
 * included (the clients enforce that bound, so it is a promise, not a guess), plus a margin for the
 * database work around them. Derived here, never hard-coded: `LLM_TIMEOUT_MS=5000` gives a lease
 * of 50 s, not 10 minutes.
 */

/** The database work before and after the outside calls (a few queries, a slow disk, a busy pool). */
export const LEASE_MARGIN_MS = 30_000;

/** A generation: one language-model call, its retries and their waits (`LlmClient.budgetMs()`). */
export const generationLeaseMs = (llm: { budgetMs(): number }) => llm.budgetMs() + LEASE_MARGIN_MS;

/** A publication: a token refresh and the post, twice when Reddit refuses the first token (`publishBudgetMs()`). */
export const publicationLeaseMs = (redditUser: { publishBudgetMs(): number }) => redditUser.publishBudgetMs() + LEASE_MARGIN_MS;
