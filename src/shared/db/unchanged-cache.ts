import type { Kysely } from 'kysely';
import { sqliteChangeMarker, type Database, type Tables } from './database.ts';

/** Entries kept at most; past it the cache starts afresh (a read costs one query, nothing more). */
const MAX_ENTRIES = 10_000;
const caches = new WeakMap<object, Map<string, { marker: string; value: unknown }>>();

/**
 * A read that is answered from memory while the database cannot have changed since it was made,
 * and made again otherwise: exact, not a cache that lags. "Cannot have changed" is SQLite's change
 * marker (database.sqlite.ts: no connection, this one included, committed), read before the
 * query so that a commit landing during it only makes the next call read again. Only on the
 * SQLite handle itself: inside a transaction a read must see that transaction's own writes, and
 * PostgreSQL has no such marker (there `load` always runs).
 */
export async function readUnlessChanged<T>(db: Kysely<Tables>, key: string, load: () => Promise<T>): Promise<T> {
  const marker = sqliteChangeMarker(db as Database)?.();
  if (marker === undefined) return load();
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const hit = cache.get(key);
  if (hit && hit.marker === marker) return hit.value as T;
  const value = await load();
  if (cache.size >= MAX_ENTRIES) cache.clear();
  cache.set(key, { marker, value });
  return value;
}
