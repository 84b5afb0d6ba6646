import type { Selectable } from 'kysely';
import { FORMATS } from './destinations.formats.ts';
import type { DestinationKind, OutboxAttemptsTable, OutboxTable } from './destinations.tables.ts';

/** A message as answers show it, with its attempts: not its body (it may quote what the owner routed privately). */
export const delivery = (row: OutboxTable, attempts: Selectable<OutboxAttemptsTable>[]) => ({
  id: row.id,
  subject: row.subject,
  status: row.status,
  created_at: row.created_at,
  sent_at: row.sent_at,
  receipt: row.receipt,
  error: row.error,
  attempts: attempts.filter((a) => a.outbox_id === row.id).map(({ attempted_at, status_code, answer, error, duration_ms }) => ({ attempted_at, status_code, answer, error, duration_ms })),
});

/** The message a test sends, in each service's own shape, naming the test so that its record can be found. */
export const testMessage = (kind: DestinationKind, name: string, test: string, own?: string) => {
  const text = own ? `${own.trim()} (${test})` : `subpilot: a test alert to "${name}" (${test}). New matches of the monitors you route here will arrive like this.`;
  if (kind === 'slack' || kind === 'telegram') return { text };
  if (kind === 'discord') return { content: text, allowed_mentions: { parse: [] } };
  return { subject: `subpilot: a test alert to "${name}"`, text, html: `<p>${FORMATS.html.escape(text)}</p>` };
};
