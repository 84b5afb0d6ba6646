import type { KeysUsecases } from '../../keys/keys.usecases.ts';
import { html, type Html } from '../html.ts';
import { badge, csrfField, errorBox, noticeBox, page, when, type Viewer } from './layout.ts';

/** One of the account's keys, as the keys usecases list them. */
type KeyRow = Awaited<ReturnType<KeysUsecases['listKeys']>>[number];

export interface KeysPage {
  viewer: Viewer;
  keys: KeyRow[];
  apiBase: string;
  /** Present only in the reply to the create POST: the one time the token is ever shown. */
  created?: { name: string; token: string };
  error?: string;
  name?: string;
  notice?: string;
}

function createdBlock(created: { name: string; token: string }): Html {
  return html`<section class="card created" aria-labelledby="new-key">
  <h2 id="new-key">Your new key “${created.name}”</h2>
  <p class="warning"><strong>Copy this key now: it will not be shown again.</strong>
    Only its fingerprint is stored, so it cannot be recovered; if you lose it, revoke it and create a new one.</p>
  <div class="token-row">
    <code id="new-token" class="token">${created.token}</code>
    <button type="button" class="copy" data-copy="new-token" hidden>Copy</button>
  </div>
</section>`;
}

function keysTable(keys: KeyRow[]): Html {
  if (keys.length === 0) return html`<p class="muted">No keys yet. Create one above for each tool that calls the API.</p>`;
  return html`<div class="table-scroll"><table>
  <thead><tr><th>Name</th><th>Key</th><th>Created</th><th>Last used</th><th>State</th><th></th></tr></thead>
  <tbody>
  ${keys.map(
    (key) => html`<tr class="${key.revoked_at ? 'revoked' : ''}">
    <td>${key.name}</td>
    <td><code>${key.prefix}…</code></td>
    <td>${when(key.created_at)}</td>
    <td>${when(key.last_used_at)}</td>
    <td>${badge(key.revoked_at ? 'revoked' : 'active')}</td>
    <td>${key.revoked_at ? null : html`<a class="danger" href="/dashboard/keys/${key.id}/revoke">Revoke</a>`}</td>
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
    <li>Revoke a key as soon as you doubt it is still secret, and create a new one.</li>
  </ul>
</section>`;
}

export function keysPage(view: KeysPage): Html {
  return page({
    title: 'API keys',
    viewer: view.viewer,
    section: 'keys',
    body: html`${noticeBox(view.notice)}${view.created ? createdBlock(view.created) : null}
<section class="card" aria-labelledby="create-key">
  <h2 id="create-key">Create a key</h2>
  ${errorBox(view.error)}
  <form method="post" action="/dashboard/keys" class="inline">
    ${csrfField(view.viewer.csrfToken)}
    <label>Name <span class="muted">(the tool that will use it, e.g. n8n)</span>
      <input type="text" name="name" value="${view.name ?? ''}" maxlength="64" required></label>
    <button type="submit">Create key</button>
  </form>
</section>
<section aria-labelledby="your-keys">
  <h2 id="your-keys">Your keys</h2>
  ${keysTable(view.keys)}
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
