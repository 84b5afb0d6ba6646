import { html, type Html } from './html.ts';
import { page, type Viewer } from './layout.ts';

const TITLES: Record<number, string> = {
  403: 'Not allowed',
  404: 'Page not found',
  429: 'Too many attempts',
};

export function errorPage(status: number, message: string, viewer?: Viewer | null): Html {
  const title = TITLES[status] ?? (status >= 500 ? 'Something went wrong' : 'Request refused');
  return page({
    title,
    viewer,
    body: html`<p class="alert alert-error" role="alert">${message}</p>
<p><a href="/dashboard/keys">Back to the dashboard</a></p>`,
  });
}
