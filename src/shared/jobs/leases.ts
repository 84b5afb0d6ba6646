/**
 * How long charged work may stay `running` before recovery presumes its process dead: the longest its
 * outside calls can take, every timeout, retry and wait included (the clients enforce that bound, so
 * it is a promise, not a guess), plus a margin for the database work around them. Derived from the
 * client's budget, never hard-coded, so a shorter timeout gives a shorter lease.
 */

/** The database work before and after the outside calls (a few queries, a slow disk, a busy pool). */
const LEASE_MARGIN_MS = 30_000;

/** The lease of work whose outside calls end within `budgetMs`. */
export const leaseFor = (budgetMs: number) => budgetMs + LEASE_MARGIN_MS;
