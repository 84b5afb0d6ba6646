/** What a call needs of its key, as stored. */
export interface KnownKeyRow {
  id: string;
  account_id: string;
  prefix: string;
  fingerprint: string;
  last_used_at: string | null;
  revoked_at: string | null;
  scopes: string | null;
  monthly_credit_limit: number | null;
  expires_at: string | null;
}

/** Where the index reads the keys (keys.repository.ts), passed in so this file holds the decisions alone. */
export interface KnownKeysSource {
  /** The number of the last key write (`key_generation`): one row, read by its primary key. */
  generation(): Promise<number>;
  /** Keys written after generation `after`, in every state; from 0, the usable ones only. */
  changedSince(after: number): Promise<KnownKeyRow[]>;
  /**
   * SQLite: a reading that moves whenever any connection may have written (shared/db/database.ts,
   * `sqliteChangeMarker`), so the counter is read only then. Null on PostgreSQL, where every call
   * reads the counter: no cheaper sign of another instance's commit is certain to arrive before the
   * next request (a NOTIFY is delivered after the commit, at some later point).
   */
  changeMarker: (() => string) | null;
}

/**
 * Every usable key of every account in memory, by fingerprint, kept exact: before each lookup the
 * index makes sure no key write committed since it last read (see `KnownKeysSource`), and reads the
 * rows written since when one did. So a key revoked, rolled over or created anywhere is seen by the
 * next request on every instance, and a key that is not here is not valid, which is known without a
 * query: a flood of bad keys costs no lookup, and the throttle on failures need not guess.
 */
export function createKnownKeys(source: KnownKeysSource) {
  const byFingerprint = new Map<string, KnownKeyRow>();
  /** The generation every key here reflects; -1 before the first read. */
  let held = -1;
  let seenMarker: string | null = null;
  /** Catch-ups run one after another, so a later read never lands before an earlier one. */
  let queue: Promise<void> = Promise.resolve();

  function catchUp(target: number): Promise<void> {
    const run = queue.then(async () => {
      if (held >= target) return;
      for (const row of await source.changedSince(Math.max(held, 0))) {
        if (row.revoked_at === null) byFingerprint.set(row.fingerprint, row);
        else byFingerprint.delete(row.fingerprint);
      }
      // Every write numbered up to `target` had committed when `target` was read, so the rows above are all of them.
      held = target;
    });
    queue = run.catch(() => undefined);
    return run;
  }

  async function ensureCurrent(): Promise<void> {
    if (source.changeMarker) {
      const marker = source.changeMarker();
      if (marker === seenMarker) return;
      await catchUp(await source.generation());
      // Only once caught up: a call that fails on the way leaves the next one to look again.
      seenMarker = marker;
      return;
    }
    const generation = await source.generation();
    if (generation > held) await catchUp(generation);
  }

  return {
    /** The key with this fingerprint if it was not revoked, as of every commit before this call; its expiry is the caller's to check. */
    async find(fingerprint: string): Promise<KnownKeyRow | undefined> {
      await ensureCurrent();
      return byFingerprint.get(fingerprint);
    },
  };
}

export type KnownKeys = ReturnType<typeof createKnownKeys>;
