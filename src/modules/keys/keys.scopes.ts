/**
 * What a key may do. A key without scopes (every key made before they existed) may do everything;
 * `read` covers the free reads of the account's own data (balance, usage, its scrapes, monitors, drafts);
 * `billing` opens checkout pages that spend the owner's money, so a key made for a tool need not have it.
 */
export const SCOPES = ['read', 'scrape', 'monitors', 'generate', 'publish', 'billing'] as const;
export type Scope = (typeof SCOPES)[number];

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);

/** The stored form: null for every scope, otherwise the names in SCOPES order, space-separated. */
export function formatScopes(scopes: readonly Scope[] | null): string | null {
  if (scopes === null) return null;
  const unique = SCOPES.filter((scope) => scopes.includes(scope));
  return unique.length === SCOPES.length ? null : unique.join(' ');
}

/** The scopes a stored value grants: every scope for null. */
export function scopesOf(stored: string | null): Scope[] {
  if (stored === null) return [...SCOPES];
  return stored.split(' ').filter(isScope);
}

/**
 * Parses scope names a person typed (CLI `--scopes read,scrape`, a form, the API): commas or spaces
 * between them. Says which name it refused, so the error can name it.
 */
export function parseScopes(input: string | readonly string[]): { ok: true; scopes: Scope[] } | { ok: false; reason: string } {
  const names = (typeof input === 'string' ? input.split(/[\s,]+/) : [...input]).map((name) => name.trim().toLowerCase()).filter(Boolean);
  if (names.length === 0) return { ok: false, reason: `give at least one scope of ${SCOPES.join(', ')}` };
  const unknown = names.find((name) => !isScope(name));
  if (unknown !== undefined) return { ok: false, reason: `"${unknown}" is not a scope; the scopes are ${SCOPES.join(', ')}` };
  return { ok: true, scopes: SCOPES.filter((scope) => names.includes(scope)) };
}
