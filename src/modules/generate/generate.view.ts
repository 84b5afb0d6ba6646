import { plural } from '../../shared/text.ts';
import type { Committing } from '../../shared/outcomes.ts';
import type { GenerationsTable as GenerationRow } from './generate.tables.ts';

/** A generation as the API, MCP and the dashboard show it; `balance` on answers to the request that paid for it. */
export function toGenerationView(row: GenerationRow, balance?: number) {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    post_id: row.post_id,
    reply_to: row.reply_to ?? row.post_id,
    match_id: row.match_id,
    subreddit: row.subreddit,
    title: row.title,
    body: row.body,
    model: row.model,
    usage: row.usage ? JSON.parse(row.usage) : null,
    credits: balance === undefined ? { charged: row.charged } : { charged: row.charged, balance },
    error: row.error,
    created_at: row.created_at,
    edited_at: row.edited_at,
  };
}

export type GenerationView = ReturnType<typeof toGenerationView>;

/** A generation being created, as its answers name it when the database fails around the commit. */
export const committingGeneration = (id: string, price: number): Committing => ({
  noun: 'generation',
  id,
  idField: 'generation_id',
  location: `/api/v1/generations/${id}`,
  money: `was charged ${plural(price, 'credit')} (refunded in full if it fails)`,
});
