import type { RedditAppView } from '../../monitors/monitors.usecases.ts';
import { html, type Html } from './html.ts';
import { when } from './layout.ts';

/**
 * On the Monitors pages while Reddit refuses or fails the service's app: no match arrives then, and
 * an empty list must not read as "nothing was posted". What it says of charges and gaps is what the
 * poller does: nothing is stored meanwhile, and the next good read pages back to the marks.
 */
export function redditBanner(reddit: RedditAppView): Html | null {
  if (reddit.state === 'ok') return null;
  const since = reddit.since ? html` since ${when(reddit.since)}` : null;
  const what =
    reddit.state === 'blocked'
      ? html`Reddit is refusing this service's app${since}: monitors are not reading.`
      : html`Reddit has failed every read${since} (errors or rate limits): monitors are not reading.`;
  return html`<p class="alert alert-warn reddit-down" role="status"><strong>${what}</strong> Nothing is charged meanwhile. When Reddit
  answers again they read back to where they stopped; what can no longer be read is recorded as gaps.</p>`;
}
