import { open, seal } from '../../shared/crypto/seal.ts';
import type { Database } from '../../shared/db/database.ts';
import { RedditUnavailableError } from '../../integrations/reddit/reddit.errors.ts';
import { RedditGrantError, type RedditUserClient, type UserTokens } from '../../integrations/reddit/reddit.user.ts';
import type { RandomBytes } from '../../shared/crypto/random.ts';
import { connectionsErrors } from './connections.errors.ts';
import { createConnectionsRepository } from './connections.repository.ts';
import { sha256 } from '../../shared/crypto/sha256.ts';

const STATE_TTL_MS = 10 * 60_000;
/** A cached access token is renewed this long before Reddit says it expires. */
const TOKEN_MARGIN_MS = 5 * 60_000;


type Unauthorized = { ok: false; kind: 'unauthorized' };
const isUnauthorized = (value: unknown): value is Unauthorized =>
  typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'unauthorized';

export function createConnectionsUsecases(deps: {
  db: Database;
  /** Null when REDDIT_CLIENT_ID, REDDIT_REDIRECT_URI or SECRET_KEY is missing (`missing` names them). */
  redditUser: RedditUserClient | null;
  secretKey: Buffer | null;
  missing: string[];
  clock: () => Date;
  random: RandomBytes;
}) {
  const { db, redditUser, secretKey, missing, clock, random } = deps;
  const connections = createConnectionsRepository(db);
  // Per process; a restart costs one refresh per account, which Reddit allows freely.
  const accessTokens = new Map<string, { value: string; expiresAt: number }>();
  const refreshing = new Map<string, Promise<string>>();

  function configured(): { user: RedditUserClient; key: Buffer } {
    if (!redditUser || !secretKey) throw connectionsErrors.notConfigured(missing);
    return { user: redditUser, key: secretKey };
  }

  function remember(accountId: string, tokens: UserTokens): string {
    accessTokens.set(accountId, { value: tokens.accessToken, expiresAt: clock().getTime() + tokens.expiresIn * 1000 - TOKEN_MARGIN_MS });
    return tokens.accessToken;
  }

  async function reddit<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof RedditUnavailableError) throw connectionsErrors.redditUnavailable(error);
      throw error;
    }
  }

  /** Trades the stored refresh token for an access token; saves a rotated refresh token, sealed. */
  async function refresh(accountId: string): Promise<string> {
    const { user, key } = configured();
    const row = await connections.find(accountId);
    if (!row) throw connectionsErrors.notConnected();
    let tokens: UserTokens;
    try {
      tokens = await reddit(() => user.refresh(open(key, row.refresh_token_sealed, accountId)));
    } catch (error) {
      if (!(error instanceof RedditGrantError)) throw error;
      await connections.delete(accountId);
      throw connectionsErrors.revoked();
    }
    if (tokens.refreshToken) {
      await connections.saveRefreshToken(accountId, seal(key, tokens.refreshToken, accountId), clock().toISOString());
    }
    return remember(accountId, tokens);
  }

  /** One refresh at a time per account: with rotation, a second one would present a spent token. */
  function freshToken(accountId: string): Promise<string> {
    let pending = refreshing.get(accountId);
    if (!pending) {
      pending = refresh(accountId).finally(() => refreshing.delete(accountId));
      refreshing.set(accountId, pending);
    }
    return pending;
  }

  return {
    status: () => ({ configured: Boolean(redditUser && secretKey), missing }),

    /** Where start() sends the person: a page that starts the flow must be allowed to lead there (CSP form-action). */
    authorizeOrigin: (): string | null => (redditUser ? new URL(redditUser.authorizeUrl('')).origin : null),

    async get(accountId: string) {
      const row = await connections.find(accountId);
      return row ? { username: row.username, scope: row.scope, connected_at: row.created_at, updated_at: row.updated_at } : null;
    },

    /** The Reddit URL to send the person to; the state is bound to their dashboard session. */
    async start(accountId: string, sessionHash: string): Promise<string> {
      const { user } = configured();
      const state = random(32).toString('base64url');
      const now = clock();
      await connections.insertState(
        { state_hash: sha256(state), account_id: accountId, session_hash: sessionHash, expires_at: new Date(now.getTime() + STATE_TTL_MS).toISOString() },
        now.toISOString(),
      );
      return user.authorizeUrl(state);
    },

    async complete(accountId: string, sessionHash: string, input: { state?: string; code?: string; error?: string }) {
      const { user, key } = configured();
      const pending = input.state ? await connections.takeState(sha256(input.state)) : undefined;
      if (!pending || pending.account_id !== accountId || pending.session_hash !== sessionHash || pending.expires_at <= clock().toISOString()) {
        throw connectionsErrors.stateInvalid();
      }
      if (input.error || !input.code) throw connectionsErrors.denied();
      const code = input.code;
      let tokens: UserTokens;
      try {
        tokens = await reddit(() => user.exchangeCode(code));
      } catch (error) {
        if (error instanceof RedditGrantError) throw connectionsErrors.stateInvalid();
        throw error;
      }
      if (!tokens.refreshToken) throw connectionsErrors.redditUnavailable(new Error('Reddit issued no refresh token'));
      const me = await reddit(() => user.me(tokens.accessToken));
      if (!me.ok) throw connectionsErrors.redditUnavailable(new Error('Reddit refused the new access token'));
      const at = clock().toISOString();
      await connections.upsert({
        account_id: accountId,
        username: me.name,
        refresh_token_sealed: seal(key, tokens.refreshToken, accountId),
        scope: tokens.scope,
        created_at: at,
        updated_at: at,
      });
      remember(accountId, tokens);
      return { username: me.name };
    },

    /** Forgets the identity here; the person can also revoke the app in Reddit's preferences. */
    async disconnect(accountId: string): Promise<void> {
      accessTokens.delete(accountId);
      await connections.delete(accountId);
    },

    /** Throws 409 when the account has no connection; used before any credit is reserved. */
    async assertConnected(accountId: string): Promise<void> {
      configured();
      if (!(await connections.find(accountId))) throw connectionsErrors.notConnected();
    },

    /**
     * Runs `use` with a valid user access token. A 401 from Reddit (token expired or revoked early)
     * gets one transparent refresh and one more try.
     */
    async withAccessToken<R>(accountId: string, use: (token: string) => Promise<R>): Promise<Exclude<R, Unauthorized>> {
      const cached = accessTokens.get(accountId);
      let token = cached && clock().getTime() < cached.expiresAt ? cached.value : await freshToken(accountId);
      for (let renewed = false; ; renewed = true) {
        const result = await use(token);
        if (!isUnauthorized(result)) return result as Exclude<R, Unauthorized>;
        if (accessTokens.get(accountId)?.value === token) accessTokens.delete(accountId);
        if (renewed) throw connectionsErrors.redditUnavailable(new Error('Reddit refused a freshly issued access token'));
        token = await freshToken(accountId);
      }
    },
  };
}

export type ConnectionsUsecases = ReturnType<typeof createConnectionsUsecases>;
