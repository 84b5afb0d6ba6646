import { html, type Html } from './html.ts';

/** Pieces the Drafts and Publications pages share: text the model or a caller wrote. */

const SNIPPET = 80;

/** The first words of a text (isolated: it may hold bidirectional controls), or why there is none. */
export function snippet(text: string | null, error: string | null): Html {
  if (text === null) return html`<span class="muted">${error ? 'No text (failed)' : 'No text yet'}</span>`;
  const line = text.replace(/\s+/g, ' ').trim();
  return html`<bdi>${line.length > SNIPPET ? `${line.slice(0, SNIPPET - 1)}…` : line}</bdi>`;
}

/** Markdown as written, line breaks kept; shown as text, never rendered. */
export const textBlock = (text: string) => html`<div class="written-text"><bdi>${text}</bdi></div>`;
