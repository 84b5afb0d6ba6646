import { dayOf } from '../../../shared/calendar.ts';
import { SCOPES, type Scope } from '../../keys/keys.scopes.ts';
import { html, type Html } from './html.ts';
import { keyState, scopesText, spentText, tokenBlock, works, type KeyRow } from './key-parts.ts';
import { csrfField, errorBox, noticeBox, page, when, type Viewer } from './layout.ts';

/** What the create form shows: as typed, after a refusal; empty (every scope) otherwise. */
export interface KeyForm {
  name: string;
  scopes: readonly Scope[];
  limit: string;
  expires: string;
}

export interface KeysPage {
  viewer: Viewer;
  keys: KeyRow[];
  /** Each key's spend this UTC month, holds included (absent: nothing spent). */
  spent: Map<string, number>;
  now: Date;
  apiBase: string;
  /** Present only in the reply to the create POST: the one time the token is ever shown. */
  created?: { name: string; token: string };
  error?: string;
  form?: KeyForm;
  notice?: string;
}

const SCOPE_HINTS: Record<Scope, string> = {
  read: 'balance, usage, own results',
  scrape: 'search Reddit',
  monitors: 'keyword monitors',
  generate: 'write drafts',
  publish: 'post to Reddit',
  billing: 'buy credits (opens checkout pages)',
};

function createForm(viewer: Viewer, form: KeyForm, today: string): Html {
  return html`<form method="post" action="/dashboard/keys" class="key-form">
    ${csrfField(viewer.csrfToken)}
    <label class="key-name">Name <span class="muted">(the tool that will use it, e.g. n8n)</span>
      <input type="text" name="name" value="${form.name}" maxlength="64" required></label>
    <fieldset class="scopes">
      <legend>Scopes <span class="muted">(what the key may do)</span></legend>
      <input type="hidden" name="scopes" value="">
      ${SCOPES.map(
        (scope) => html`<label class="check"><input type="checkbox" name="scopes" value="${scope}"${form.scopes.includes(scope) ? html` checked` : null}>
        ${scope} <span class="muted">${SCOPE_HINTS[scope]}</span></label>`,
      )}
    </fieldset>
    <label>Monthly credit limit <span class="muted">(optional)</span>
      <input type="number" name="monthly_limit" value="${form.limit}" min="1" max="1000000000" step="1" inputmode="numeric">
      <small class="muted">Whole credits per UTC calendar month; calls past it are refused.</small></label>
    <label>Expires <span class="muted">(optional)</span>
      <input type="date" name="expires" value="${form.expires}" min="${today}">
      <small class="muted">The key works through this day and stops at 00:00 UTC the next.</small></label>
    <button type="submit">Create key</button>
  </form>`;
}

function keysTable(keys: KeyRow[], spent: Map<string, number>, now: Date): Html {
  if (keys.length === 0) return html`<p class="muted">No keys yet. Create one above for each tool that calls the API.</p>`;
  // On a phone each key is a card (the cells' data-label name their values): seven columns do not fit 390 px.
  return html`<div class="table-scroll table-cards"><table class="keys">
  <thead><tr><th>Name and key</th><th>Scopes</th><th class="num">Spent this month</th><th>Expires</th><th>Last used</th><th>State</th><th>Actions</th></tr></thead>
  <tbody>
  ${keys.map(
    (key) => html`<tr class="${works(key, now) ? '' : 'revoked'}">
    <td class="key-name" data-label="Name and key"><a href="/dashboard/keys/${key.id}">${key.name}</a> <code>${key.prefix}…</code></td>
    <td data-label="Scopes">${scopesText(key)}</td>
    <td class="num" data-label="Spent this month">${spentText(key, spent.get(key.id) ?? 0)}</td>
    <td data-label="Expires">${when(key.expires_at, '—')}</td>
    <td data-label="Last used">${when(key.last_used_at)}</td>
    <td data-label="State">${keyState(key, now)}</td>
    <td data-label="Actions">${key.revoked_at ? html`<span class="muted">—</span>` : html`<a class="danger" href="/dashboard/keys/${key.id}/revoke">Revoke</a>`}</td>
  </tr>`,
  )}
  </tbody>
</table></div>`;
}

function gettingStarted(apiBase: string): Html {
  return html`<section class="card" aria-labelledby="getting-started">
  <h2 id="getting-started">Getting started</h2>
  <p>Put the key in an environment variable, then send it in the <code>Authorization</code> header:</p>
  <pre><code># your key, never committed
export SUBPILOT_API_KEY="ak_live_…"

curl -X POST ${apiBase}/api/v1/scrape \\
  -H "Authorization: Bearer $SUBPILOT_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"subreddits": ["r/typescript"], "keywords": ["node"]}'</code></pre>
  <h3>Keep your keys safe</h3>
  <ul>
    <li>A key is equivalent to a means of payment: whoever holds it spends your credits.</li>
    <li>Keep it out of client-side code, mobile apps and public repositories.</li>
    <li>Keep it in an environment variable or a credential store.</li>
    <li>Use one key per tool, so you can revoke one without stopping the others.</li>
    <li>Give each key only the scopes its tool needs, and a monthly limit: a leaked key then costs at most that.</li>
    <li>Revoke a key as soon as you doubt it is still secret, or roll it to replace it without an outage.</li>
  </ul>
</section>`;
}

export function keysPage(view: KeysPage): Html {
  const form = view.form ?? { name: '', scopes: SCOPES, limit: '', expires: '' };
  return page({
    title: 'API keys',
    viewer: view.viewer,
    section: 'keys',
    body: html`${noticeBox(view.notice)}${view.created ? tokenBlock(view.created.name, view.created.token) : null}
<section class="card" aria-labelledby="create-key">
  <h2 id="create-key">Create a key</h2>
  ${errorBox(view.error)}
  ${createForm(view.viewer, form, dayOf(view.now))}
</section>
<section aria-labelledby="your-keys">
  <h2 id="your-keys">Your keys</h2>
  ${keysTable(view.keys, view.spent, view.now)}
</section>
${gettingStarted(view.apiBase)}`,
  });
}

export function revokeConfirmPage(viewer: Viewer, key: KeyRow): Html {
  return page({
    title: 'Revoke API key',
    viewer,
    section: 'keys',
    body: html`<section class="card narrow">
  <p>Revoke the key <strong>${key.name}</strong> (<code>${key.prefix}…</code>)?</p>
  <p>Every request made with it is refused from this moment on. This cannot be undone; the key stays listed as revoked.</p>
  <form method="post" action="/dashboard/keys/${key.id}/revoke" class="actions">
    ${csrfField(viewer.csrfToken)}
    <button type="submit" class="danger">Revoke key</button>
    <a href="/dashboard/keys">Cancel</a>
  </form>
</section>`,
  });
}
