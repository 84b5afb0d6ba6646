import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Payer } from '../../shared/via.ts';
import type { Session, SessionsUsecases, StartedSession } from '../sessions/sessions.usecases.ts';
import { sessionsErrors } from '../sessions/sessions.errors.ts';
import { assertSameToken } from '../sessions/sessions.usecases.ts';
import type { Viewer } from './views/layout.ts';

declare module 'fastify' {
  interface FastifyRequest {
    dashboardSession: Session | null;
    /** The signed-in account's banners (low balance, a failed auto top-up), read with the session so every page can show them. */
    dashboardBanners: Banners | null;
  }
}

/** What every page of a signed-in account warns about. */
export type Banners = Pick<Viewer, 'lowBalance' | 'topupFailure' | 'demo'>;
export type BannersOf = (accountId: string) => Promise<Banners>;

const FORM_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface CookiePolicy {
  secure: boolean;
}

const baseCookie = (policy: CookiePolicy) =>
  ({ httpOnly: true, sameSite: 'lax', path: '/', secure: policy.secure }) as const;

/**
 * Over https our cookies are `__Host-`: browsers keep such a cookie only host-only, Secure and Path=/,
 * so a sibling subdomain cannot plant one for the parent domain (plain http has no such guarantee).
 */
const cookieName = (policy: CookiePolicy, name: string) => (policy.secure ? `__Host-${name}` : name);

/** The double-submit cookie of the sign-up and log-in forms, which are posted before a session exists. */
const formCookie = (policy: CookiePolicy) => cookieName(policy, 'subpilot_form');

/**
 * A session cookie a sibling subdomain plants with the attacker's own session would sign the visitor
 * in as the attacker without any form; over https only the `__Host-` name is read, set and cleared.
 */
const sessionCookie = (policy: CookiePolicy) => cookieName(policy, 'subpilot_session');

/** The session id the browser sent, if any. */
export const sessionIdOf = (request: FastifyRequest, policy: CookiePolicy) => request.cookies[sessionCookie(policy)];

/**
 * A form posted by another page, a sibling subdomain included: browsers say so in Sec-Fetch-Site,
 * which no page can set ("none" is the person's own doing: a bookmark, a reload). Origin cannot tell:
 * under our no-referrer policy our own form posts `Origin: null`, and an attacker's page can too.
 * A client that sends no Sec-Fetch-Site is left to the token.
 */
function postedFromElsewhere(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  return site !== undefined && site !== 'same-origin' && site !== 'none';
}

const csrfOf = (request: FastifyRequest) => (request.body as { csrf?: unknown } | undefined)?.csrf;

/** onRequest for every dashboard route: who is signed in, if anyone. A dead cookie is cleared. */
export const loadSession = (sessions: SessionsUsecases, policy: CookiePolicy, bannersOf: BannersOf) =>
  async function (request: FastifyRequest, reply: FastifyReply) {
    const raw = sessionIdOf(request, policy);
    request.dashboardSession = await sessions.resolve(raw);
    if (raw !== undefined && !request.dashboardSession) reply.clearCookie(sessionCookie(policy), baseCookie(policy));
    if (request.dashboardSession) request.dashboardBanners = await bannersOf(request.dashboardSession.accountId);
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

/**
 * preValidation for the pre-session forms: posted from the dashboard's own page, with a token equal to
 * the form cookie. The token alone would not do: a cookie planted on the origin (by a sibling
 * subdomain, say) comes with a token the attacker knows, and a signature would not help, since the
 * attacker can fetch a valid pair of their own.
 */
export const checkFormCsrf = (policy: CookiePolicy) =>
  async function (request: FastifyRequest) {
    if (request.method !== 'POST') return;
    if (postedFromElsewhere(request)) throw sessionsErrors.csrfInvalid();
    const csrf = csrfOf(request);
    assertSameToken(request.cookies[formCookie(policy)], typeof csrf === 'string' ? csrf : undefined);
  };

/** The form token to embed: the browser's current one, or a new one set as a cookie. */
export function formToken(request: FastifyRequest, reply: FastifyReply, sessions: SessionsUsecases, policy: CookiePolicy) {
  const current = request.cookies[formCookie(policy)];
  if (current && FORM_TOKEN_PATTERN.test(current)) return current;
  const token = sessions.newFormToken();
  reply.setCookie(formCookie(policy), token, baseCookie(policy));
  return token;
}

export function setSessionCookie(reply: FastifyReply, started: StartedSession, policy: CookiePolicy) {
  reply.clearCookie(formCookie(policy), baseCookie(policy));
  reply.setCookie(sessionCookie(policy), started.id, { ...baseCookie(policy), maxAge: started.maxAgeSeconds });
}

export const clearSessionCookie = (reply: FastifyReply, policy: CookiePolicy) =>
  reply.clearCookie(sessionCookie(policy), baseCookie(policy));

export function sessionOf(request: FastifyRequest): Session {
  if (!request.dashboardSession) throw new Error('route registered without requireSession');
  return request.dashboardSession;
}

/** Who pays for what a person does on the dashboard: the session's account, no key, via 'dashboard'. */
export const dashboardCaller = (request: FastifyRequest): Payer => ({ accountId: sessionOf(request).accountId, keyId: null, via: 'dashboard' });

export const viewerOf = (request: FastifyRequest): Viewer | null =>
  request.dashboardSession && {
    email: request.dashboardSession.email,
    csrfToken: request.dashboardSession.csrfToken,
    ...request.dashboardBanners,
  };
