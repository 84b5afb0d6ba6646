import type { KeysUsecases } from '../../keys/keys.usecases.ts';
import { SCOPES, scopesOf } from '../../keys/keys.scopes.ts';
import { html, type Html } from './html.ts';
import { badge } from './layout.ts';

/** One of the account's keys, as the keys usecases list them. */
export type KeyRow = Awaited<ReturnType<KeysUsecases['listKeys']>>[number];

export const scopesText = (key: KeyRow) => {
  const scopes = scopesOf(key.scopes);
  return scopes.length === SCOPES.length ? 'All' : scopes.join(', ');
};

/** This month's spend, against the limit when there is one: "12 / 50" or "12". */
export const spentText = (key: KeyRow, spent: number) =>
  key.monthly_credit_limit === null ? String(spent) : `${spent} / ${key.monthly_credit_limit}`;

/** "45 min", "23 h", "6 d": how long a rolled key has left, rounded up so it never reads "0". */
export function remaining(ms: number): string {
  const minutes = Math.ceil(ms / 60_000);
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.ceil(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.ceil(hours / 24)} d`;
}

/** Whether the key still answers: active, or rolled and still inside its overlap. */
export const works = (key: KeyRow, now: Date) =>
  key.state === 'active' || (key.state === 'replaced' && key.expires_at !== null && Date.parse(key.expires_at) > now.getTime());

/**
 * The keys usecases' state; a key replaced by a roll says how long its overlap still runs, so the
 * owner sees which tools still have to switch.
 */
export function keyState(key: KeyRow, now: Date): Html {
  if (key.state === 'replaced' && works(key, now)) {
    return html`<span class="badge badge-expiring">expires in ${remaining(Date.parse(key.expires_at!) - now.getTime())}</span>`;
  }
  return badge(key.state);
}

/** The key's token, in the one reply that ever holds it (creation or roll). */
export function tokenBlock(name: string, token: string, more: Html | null = null): Html {
  return html`<section class="card created" aria-labelledby="new-key">
  <h2 id="new-key">Your new key “${name}”</h2>
  <p class="warning"><strong>Copy this key now: it will not be shown again.</strong>
    Only its fingerprint is stored, so it cannot be recovered; if you lose it, revoke it and create a new one.</p>
  <div class="token-row">
    <code id="new-token" class="token">${token}</code>
    <button type="button" class="copy" data-copy="new-token" hidden>Copy</button>
  </div>
  ${more}
</section>`;
}
