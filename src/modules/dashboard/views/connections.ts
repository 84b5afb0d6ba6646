import { html, type Html } from './html.ts';
import { csrfField, errorBox, noticeBox, page, when, type Viewer } from './layout.ts';

export interface ConnectionsPage {
  viewer: Viewer;
  configured: boolean;
  missing: string[];
  reddit: { username: string; scope: string; connected_at: string } | null;
  notice?: string;
  error?: string;
}

function redditCard(view: ConnectionsPage): Html {
  if (!view.configured) {
    return html`<p class="alert alert-error" role="alert">Reddit connections are not configured on this server:
      ${view.missing.join(', ')} ${view.missing.length === 1 ? 'is' : 'are'} not set. Ask the operator to set
      ${view.missing.length === 1 ? 'it' : 'them'}; until then <code>POST /api/v1/publish</code> cannot post.</p>`;
  }
  if (view.reddit) {
    return html`<dl class="facts">
    <dt>Reddit user</dt><dd><strong>u/<bdi>${view.reddit.username}</bdi></strong></dd>
    <dt>Permissions</dt><dd>${view.reddit.scope}</dd>
    <dt>Connected</dt><dd>${when(view.reddit.connected_at)}</dd>
  </dl>
  <form method="post" action="/dashboard/connections/reddit/disconnect" class="actions">
    ${csrfField(view.viewer.csrfToken)}
    <button type="submit" class="danger">Disconnect</button>
    <span class="muted">You can also remove the app under “apps” in your Reddit preferences.</span>
  </form>`;
  }
  return html`<p>Connect the Reddit account that your publications post as, from <code>POST /api/v1/publish</code> or a
    draft you approve in the Inbox. Reddit asks you to approve four permissions: <em>identity</em> (your username),
    <em>read</em>, <em>submit</em> (comments and posts) and <em>history</em> (your own recent posts and comments, read
    only to find out whether a post whose answer from Reddit was lost went out, so that it is never posted twice).</p>
  <form method="post" action="/dashboard/connections/reddit" class="actions">
    ${csrfField(view.viewer.csrfToken)}
    <button type="submit">Connect Reddit</button>
  </form>`;
}

export function connectionsPage(view: ConnectionsPage): Html {
  return page({
    title: 'Connections',
    viewer: view.viewer,
    section: 'connections',
    body: html`${noticeBox(view.notice)}${errorBox(view.error)}
<section class="card" aria-labelledby="reddit">
  <h2 id="reddit">Reddit</h2>
  ${redditCard(view)}
</section>
<p class="muted">The Reddit authorization is stored encrypted and used only when you publish: through one of your
  API keys or by approving a draft in the Inbox. Every publish costs credits only when Reddit accepts it.</p>`,
  });
}
