import { html, type Html } from './html.ts';

export interface Viewer {
  email: string;
  csrfToken: string;
  /** Set while the spendable balance is below the account's low-balance threshold: every page says so. */
  lowBalance?: { available: number; threshold: number } | null;
  /** Set while auto top-up's last attempt failed (and it is on, or switched itself off for it): every page says so. */
  topupFailure?: { reason: string } | null;
  /** The service runs on the demo source (REDDIT_SOURCE=demo): every page says its data is not Reddit's. */
  demo?: boolean;
}

type Section = 'keys' | 'credits' | 'scrapes' | 'monitors' | 'inbox' | 'drafts' | 'publications' | 'destinations' | 'webhooks' | 'connections';

const NAV: [Section, string, string][] = [
  ['keys', 'API keys', '/dashboard/keys'],
  ['credits', 'Credits', '/dashboard/credits'],
  ['scrapes', 'Scrapes', '/dashboard/scrapes'],
  ['monitors', 'Monitors', '/dashboard/monitors'],
  ['inbox', 'Inbox', '/dashboard/inbox'],
  ['drafts', 'Drafts', '/dashboard/drafts'],
  ['publications', 'Publications', '/dashboard/publications'],
  ['destinations', 'Destinations', '/dashboard/destinations'],
  ['webhooks', 'Webhooks', '/dashboard/webhooks'],
  ['connections', 'Connections', '/dashboard/connections'],
];

/** UTC and minute precision: the same reading for every viewer, with the exact instant in `datetime`. */
export const when = (iso: string | null, never = 'never') =>
  iso ? html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>` : html`<span class="muted">${never}</span>`;

export const csrfField = (token: string) => html`<input type="hidden" name="csrf" value="${token}">`;

/** A state (active, completed, failed…) as a coloured label. */
export const badge = (status: string) => html`<span class="badge badge-${status}">${status}</span>`;

/** Newest / older links of a cursor-paged list; `base` may carry a query of its own (a tab, say), which both keep. */
export const cursorPager = (base: string, firstPage: boolean, nextCursor: string | null, older: string) =>
  html`<nav class="pager" aria-label="Pages">
  ${firstPage ? null : html`<a href="${base}">Newest</a>`}
  ${nextCursor ? html`<a href="${base}${base.includes('?') ? '&' : '?'}cursor=${nextCursor}">${older}</a>` : null}
</nav>`;

export const errorBox = (message: string | undefined) =>
  message ? html`<p class="alert alert-error" role="alert">${message}</p>` : null;

export const noticeBox = (message: string | undefined) =>
  message ? html`<p class="alert alert-ok" role="status">${message}</p>` : null;

const credits = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;

const lowBalanceBanner = (low: Viewer['lowBalance']) =>
  low
    ? html`<p class="alert alert-warn low-balance" role="status">Low balance: ${credits(low.available)} left (alert below ${low.threshold}). <a href="/dashboard/credits">Credits</a></p>`
    : null;

const topupFailureBanner = (failure: Viewer['topupFailure']) =>
  failure
    ? html`<p class="alert alert-warn topup-failed" role="status">Auto top-up failed and switched itself off: ${failure.reason} <a href="/dashboard/credits#auto-topup">Credits</a></p>`
    : null;

/** On the demo source, above everything: the data is not Reddit's, and where real access starts. */
const demoBanner = (demo: Viewer['demo']) =>
  demo
    ? html`<p class="alert alert-warn demo-banner" role="note"><strong>Demo data — not real Reddit.</strong> Items marked “demo” are recorded posts
  and samples, and publishing is simulated: nothing reaches Reddit. Real Reddit data needs an app Reddit has approved (the operator sets
  REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET).</p>`
    : null;

/** A post, comment or publication of the demo source, marked where it is listed (shared/demo.ts decides). */
export const demoLabel = (item: { source: 'reddit' | 'demo' }, word = 'demo') =>
  item.source === 'demo' ? html`<span class="badge badge-demo" title="Demo data — not real Reddit">${word}</span> ` : null;

/** `refreshSeconds` reloads the page that often (a meta refresh: no script, so the CSP allows it). */
export function page(options: { title: string; viewer?: Viewer | null; section?: Section; body: Html; refreshSeconds?: number }): Html {
  const { title, viewer, section, body, refreshSeconds } = options;
  const nav = viewer
    ? html`<nav aria-label="Dashboard">
        ${NAV.map(([id, label, href]) =>
          html`<a href="${href}"${id === section ? html` aria-current="page"` : null}>${label}</a>`,
        )}
        <a href="/docs/guides">Guides</a>
        <a href="/docs">API docs</a>
      </nav>
      <form class="logout" method="post" action="/dashboard/logout">
        ${csrfField(viewer.csrfToken)}<span class="muted email" title="${viewer.email}">${viewer.email}</span> <button type="submit" class="link">Log out</button>
      </form>`
    : null;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
${refreshSeconds ? html`<meta http-equiv="refresh" content="${refreshSeconds}">\n` : null}<link rel="stylesheet" href="/dashboard/assets/dashboard.css">
<script src="/dashboard/assets/dashboard.js" defer></script>
</head>
<body>
<header class="top">
  <a class="brand" href="/dashboard/keys">subpilot</a>
  ${nav}
</header>
<main>
${demoBanner(viewer?.demo)}${lowBalanceBanner(viewer?.lowBalance)}${topupFailureBanner(viewer?.topupFailure)}
<h1>${title}</h1>
${body}
</main>
</body>
</html>
`;
}
