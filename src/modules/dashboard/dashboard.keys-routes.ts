import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import Type, { type Static } from 'typebox';
import { plural } from '../../shared/text.ts';
import type { CreditsUsecases } from '../credits/credits.usecases.ts';
import { keysErrors } from '../keys/keys.errors.ts';
import { isScope, SCOPES } from '../keys/keys.scopes.ts';
import { ROLL_OVERLAPS, type KeyControls, type KeysUsecases } from '../keys/keys.usecases.ts';
import type { SessionsUsecases } from '../sessions/sessions.usecases.ts';
import { formProblem, sendPage } from './dashboard.reply.ts';
import { clearSessionCookie, sessionIdOf, sessionOf, viewerOf, type CookiePolicy } from './dashboard.session.ts';
import { keyPage } from './views/key.ts';
import { keysPage, revokeConfirmPage, type KeyForm, type KeysPage } from './views/keys.ts';

const csrfOnly = Type.Object({ csrf: Type.Optional(Type.String()) });
const createBody = Type.Object({
  csrf: Type.Optional(Type.String()),
  name: Type.String({ maxLength: 200 }),
  // The form always sends one empty `scopes` (a hidden field), so no box ticked reads as "none", not as "field absent".
  scopes: Type.Optional(Type.Union([Type.String({ maxLength: 20 }), Type.Array(Type.String({ maxLength: 20 }), { maxItems: 12 })])),
  monthly_limit: Type.Optional(Type.String({ maxLength: 20 })),
  expires: Type.Optional(Type.String({ pattern: '^(\\d{4}-\\d{2}-\\d{2})?$', 'x-rule': 'must be a date like 2025-01-31, or empty for none' })),
});
const rollBody = Type.Object({
  csrf: Type.Optional(Type.String()),
  overlap: Type.Union(Object.keys(ROLL_OVERLAPS).map((value) => Type.Literal(value as keyof typeof ROLL_OVERLAPS))),
});
const keyParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const listQuery = Type.Object({ revoked: Type.Optional(Type.String()), welcome: Type.Optional(Type.String()), password: Type.Optional(Type.String()) });

type ListExtras = Pick<KeysPage, 'created' | 'error' | 'form' | 'notice'>;
/** Days of the per-key spend chart. */
const CHART_DAYS = 30;

function controlsOf(form: KeyForm, scopesSent: boolean): KeyControls {
  return {
    // A client that sends no scopes field at all (an older form) gets every scope, as before scopes existed.
    ...(scopesSent ? { scopes: [...form.scopes] } : {}),
    monthlyCreditLimit: form.limit.trim() === '' ? null : Number(form.limit),
    // A date: the key works through that UTC day, as in the CLI (the keys usecases read and check it).
    expiresAt: form.expires === '' ? null : form.expires,
  };
}

/** The API keys pages (spec section 2 rule 4 and section 3), plus log-out. Runs behind requireSession. */
export const keysRoutes: FastifyPluginAsyncTypebox<{
  keys: KeysUsecases;
  credits: CreditsUsecases;
  sessions: SessionsUsecases;
  publicUrl: string | null;
  policy: CookiePolicy;
  clock: () => Date;
}> = async (app, { keys, credits, sessions, publicUrl, policy, clock }) => {
  const apiBase = (request: FastifyRequest) => publicUrl ?? `${request.protocol}://${request.host}`;
  const listPage = async (request: FastifyRequest, extras: ListExtras) => {
    const { accountId } = sessionOf(request);
    const [list, spent] = await Promise.all([keys.listKeys(accountId), credits.keySpend(accountId)]);
    return keysPage({ viewer: viewerOf(request)!, keys: list, spent, now: clock(), apiBase: apiBase(request), ...extras });
  };
  /** One of the signed-in account's keys; another account's key is as unknown as a made-up id. */
  const ownKey = async (request: FastifyRequest, id: string) => {
    const key = (await keys.listKeys(sessionOf(request).accountId)).find((k) => k.id === id);
    if (!key) throw keysErrors.notFound();
    return key;
  };
  const keyDetails = async (request: FastifyRequest, key: Awaited<ReturnType<typeof ownKey>>) => {
    const { accountId } = sessionOf(request);
    const [spent, days] = await Promise.all([credits.keySpend(accountId), credits.dailySpend(accountId, key.id, CHART_DAYS)]);
    return { viewer: viewerOf(request)!, key, spent: spent.get(key.id) ?? 0, days, now: clock() };
  };

  /** The word a redirect here asks for: a revoked key, a new account (with what it can spend), a new password. */
  const noticeFor = async (request: FastifyRequest, query: Static<typeof listQuery>) => {
    const { revoked, welcome, password } = query;
    if (revoked) return 'The key was revoked.';
    if (password) return 'Your new password is set, and every other browser signed in to this account was logged out.';
    if (!welcome) return undefined;
    const balance = await credits.spendableBalance(sessionOf(request).accountId);
    const start = balance > 0 ? ` It has ${plural(balance, 'credit')} to try the API: create a key, then run the example below.` : ' Create a key, then add credits on the Credits page.';
    return `Welcome: your account is ready.${start}`;
  };

  app.get('/keys', { schema: { querystring: listQuery } }, async (request, reply) =>
    sendPage(reply, await listPage(request, { notice: await noticeFor(request, request.query) })),
  );

  // The token is rendered into this response only: never a redirect, a cookie or a later page.
  app.post('/keys', { schema: { body: createBody } }, async (request, reply) => {
    const { body } = request;
    const form: KeyForm = { name: body.name, scopes: [body.scopes ?? SCOPES].flat().filter(isScope), limit: body.monthly_limit ?? '', expires: body.expires ?? '' };
    try {
      const { key, token } = await keys.createKey(sessionOf(request).accountId, body.name, controlsOf(form, body.scopes !== undefined));
      return sendPage(reply, await listPage(request, { created: { name: key.name, token } }), 201);
    } catch (error) {
      const problem = formProblem(error);
      return sendPage(reply, await listPage(request, { error: problem.message, form }), problem.status);
    }
  });

  app.get('/keys/:id', { schema: { params: keyParams } }, async (request, reply) =>
    sendPage(reply, keyPage(await keyDetails(request, await ownKey(request, request.params.id)))),
  );

  // Like creation, the new token is in this reply only; the page is the new key's.
  app.post('/keys/:id/roll', { schema: { params: keyParams, body: rollBody } }, async (request, reply) => {
    const { key, token, replaced } = await keys.rollKey(sessionOf(request).accountId, { id: request.params.id }, request.body.overlap);
    const details = await keyDetails(request, await ownKey(request, key.id));
    return sendPage(reply, keyPage({ ...details, rolled: { token, replaced } }), 201);
  });

  app.get('/keys/:id/revoke', { schema: { params: keyParams } }, async (request, reply) => {
    const key = await ownKey(request, request.params.id);
    if (key.revoked_at) throw keysErrors.notFound();
    return sendPage(reply, revokeConfirmPage(viewerOf(request)!, key));
  });

  app.post('/keys/:id/revoke', { schema: { params: keyParams, body: csrfOnly } }, async (request, reply) => {
    await keys.revokeKey(sessionOf(request).accountId, { id: request.params.id });
    return reply.redirect('/dashboard/keys?revoked=1', 303);
  });

  app.post('/logout', { schema: { body: csrfOnly } }, async (request, reply) => {
    await sessions.logOut(sessionIdOf(request, policy));
    clearSessionCookie(reply, policy);
    return reply.redirect('/dashboard/login', 303);
  });
};
