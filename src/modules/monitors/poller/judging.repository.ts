/** The judge's instructions, kept once per distinct text so each verdict can name the prompt it was judged with. */
import type { Kysely } from 'kysely';
import type { Tables } from '../../../shared/db/database.ts';
import { sha256 } from '../../../shared/crypto/sha256.ts';

export const createJudgingRepository = (db: Kysely<Tables>) => ({
  /** Stores the text unless it is there already; returns its id (its SHA-256). */
  async savePrompt(text: string, at: string): Promise<string> {
    const id = sha256(text);
    await db
      .insertInto('relevance_prompts')
      .values({ id, text, created_at: at })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    return id;
  },

  prompt: (id: string) => db.selectFrom('relevance_prompts').select('text').where('id', '=', id).executeTakeFirst(),
});
