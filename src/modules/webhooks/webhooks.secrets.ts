import { open, seal } from '../../shared/crypto/seal.ts';
import type { Database } from '../../shared/db/database.ts';
import type { RandomBytes } from '../../shared/crypto/random.ts';
import { webhooksErrors } from './webhooks.errors.ts';
import { createWebhooksRepository } from './webhooks.repository.ts';
import { newWebhookSecret } from './webhooks.signing.ts';

/** Secrets stored before they were sealed start like this; sealed ones start with the seal's version. */
const CLEAR_PREFIX = 'whsec_';

/**
 * Each account's signing secret, kept sealed with SECRET_KEY (AES-256-GCM, the account id as
 * associated data) like Reddit refresh tokens. Without SECRET_KEY there is none to give.
 */
export function createWebhookSecrets(deps: { db: Database; key: Buffer | null; random: RandomBytes }) {
  const { key, random } = deps;
  const webhooks = createWebhooksRepository(deps.db);
  const stored = async (accountId: string) => (await webhooks.secretOf(accountId))?.webhook_secret ?? null;

  function requireKey(): Buffer {
    if (!key) throw webhooksErrors.notConfigured();
    return key;
  }

  return {
    configured: key !== null,
    requireKey,

    /** The account's secret, created on first use; two instances racing agree on the first one stored. */
    async secretFor(accountId: string): Promise<string> {
      const sealKey = requireKey();
      const current = await stored(accountId);
      if (current?.startsWith(CLEAR_PREFIX)) {
        await webhooks.replaceSecret(accountId, current, seal(sealKey, current, accountId));
        return current;
      }
      if (current !== null) {
        try {
          return open(sealKey, current, accountId);
        } catch {
          // Sealed with another SECRET_KEY: it cannot be recovered, so the account gets a new one.
        }
      }
      const fresh = seal(sealKey, newWebhookSecret(random), accountId);
      await (current === null ? webhooks.setSecretIfMissing(accountId, fresh) : webhooks.replaceSecret(accountId, current, fresh));
      return open(sealKey, (await stored(accountId))!, accountId);
    },

    /** Seals secrets stored in clear by earlier versions; run at start-up, a no-op without SECRET_KEY. */
    async sealClearSecrets(): Promise<number> {
      if (!key) return 0;
      const rows = await webhooks.findSecretsStartingWith(CLEAR_PREFIX);
      for (const row of rows) await webhooks.replaceSecret(row.id, row.webhook_secret!, seal(key, row.webhook_secret!, row.id));
      return rows.length;
    },
  };
}
