import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Session, SessionsUsecases, StartedSession } from '../sessions/sessions.usecases.ts';
import { assertSameToken } from '../sessions/sessions.usecases.ts';
import type { Viewer } from './views/layout.ts';

declare module 'fastify' {
  interface FastifyRequest {
    dashboardSession: Session | null;
    /** The signed-in account's low balance, read with the session so every page can show the banner. */
    dashboardLowBalance: Viewer['lowBalance'];
  }
}

/** The account's spendable balance and threshold while the first is below the second, else null. */
export type LowBalanceOf = (accountId: string) => Promise<Viewer['lowBalance']>;

export const SESSION_COOKIE = 'subpilot_session';
/** Double-submit token of the sign-up and log-in forms, which are posted before a session exists. */
export const FORM_COOKIE = 'subpilot_form';
const FORM_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface CookiePolicy {
  secure: boolean;
}

const baseCookie = (policy: CookiePolicy) =>
  ({ httpOnly: true, sameSite: 'lax', path: '/', secure: policy.secure }) as const;

const csrfOf = (request: FastifyRequest) => (request.body as { csrf?: unknown } | undefined)?.csrf;

/** onRequest for every dashboard route: who is signed in, if anyone. A dead cookie is cleared. */
export const loadSession = (sessions: SessionsUsecases, policy: CookiePolicy, lowBalanceOf: LowBalanceOf) =>
  async function (request: FastifyRequest, reply: FastifyReply) {
    const raw = request.cookies[SESSION_COOKIE];
    request.dashboardSession = await sessions.resolve(raw);
    if (raw !== undefined && !request.dashboardSession) reply.clearCookie(SESSION_COOKIE, baseCookie(policy));
    if (request.dashboardSession) request.dashboardLowBalance = await lowBalanceOf(request.dashboardSession.accountId);
  };

/** onRequest for pages behind log-in. */
export async function requireSession(request: FastifyRequest, reply: FastifyReply) {
  if (!request.dashboardSession) return reply.redirect('/dashboard/login', 303);
}

/** preValidation: a state-changing request must carry the session's CSRF token, checked before anything else. */
export async function checkSessionCsrf(request: FastifyRequest) {
  if (request.method !== 'POST') return;
  const csrf = csrfOf(request);
  assertSameToken(request.dashboardSession?.csrfToken, typeof csrf === 'string' ? csrf : undefined);
}

/** preValidation for the pre-session forms: the posted token must equal the form cookie. */
export async function checkFormCsrf(request: FastifyRequest) {
  if (request.method !== 'POST') return;
  const csrf = csrfOf(request);
  assertSameToken(request.cookies[FORM_COOKIE], typeof csrf === 'string' ? csrf : undefined);
}

/** The form token to embed: the browser's current one, or a new one set as a cookie. */
export function formToken(request: FastifyRequest, reply: FastifyReply, sessions: SessionsUsecases, policy: CookiePolicy) {
  const current = request.cookies[FORM_COOKIE];
  if (current && FORM_TOKEN_PATTERN.test(current)) return current;
  const token = sessions.newFormToken();
  reply.setCookie(FORM_COOKIE, token, baseCookie(policy));
  return token;
}

export function setSessionCookie(reply: FastifyReply, started: StartedSession, policy: CookiePolicy) {
  reply.clearCookie(FORM_COOKIE, baseCookie(policy));
  reply.setCookie(SESSION_COOKIE, started.id, { ...baseCookie(policy), maxAge: started.maxAgeSeconds });
}

export const clearSessionCookie = (reply: FastifyReply, policy: CookiePolicy) =>
  reply.clearCookie(SESSION_COOKIE, baseCookie(policy));

export function sessionOf(request: FastifyRequest): Session {
  if (!request.dashboardSession) throw new Error('route registered without requireSession');
  return request.dashboardSession;
}

export const viewerOf = (request: FastifyRequest): Viewer | null =>
  request.dashboardSession && {
    email: request.dashboardSession.email,
    csrfToken: request.dashboardSession.csrfToken,
    lowBalance: request.dashboardLowBalance,
  };
