import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { isAppError } from '../../shared/errors.ts';
import { SIGNUP_LINK_HOURS } from '../sessions/sessions.links.usecases.ts';
import type { SignupUsecases } from '../sessions/sessions.signup.usecases.ts';
import type { SessionsUsecases } from '../sessions/sessions.usecases.ts';
import { formProblem, sendPage } from './dashboard.reply.ts';
import { checkFormCsrf, formToken, sessionIdOf, setSessionCookie, type CookiePolicy } from './dashboard.session.ts';
import { loginPage, signupPage } from './views/auth.ts';
import { checkInboxPage, confirmSignupPage, deadLinkPage } from './views/signup.ts';

const credentialsBody = Type.Object({
  csrf: Type.Optional(Type.String()),
  email: Type.String({ maxLength: 320 }),
  // argon2 takes any length; the cap keeps one request from costing much.
  password: Type.String({ maxLength: 1024 }),
});
const linkParams = Type.Object({ token: Type.String({ maxLength: 100 }) });
const confirmBody = Type.Object({
  csrf: Type.Optional(Type.String()),
  // The page's hidden username field, for password managers; the link says whose account it is.
  email: Type.Optional(Type.String({ maxLength: 320 })),
  password: Type.Optional(Type.String({ maxLength: 1024 })),
});

/** Where a new session lands: the Keys page, with a word of welcome (and the credits it starts with). */
export const WELCOME = '/dashboard/keys?welcome=1';

/** A dead link's own page (410), with the way to a new one; any other refusal goes on. */
export function deadLink(reply: FastifyReply, error: unknown, again: { href: string; label: string }) {
  if (!isAppError(error) || error.code !== 'sessions.link_expired') throw error;
  return sendPage(reply, deadLinkPage(error.message, again), error.status);
}

/**
 * Sign-up, its mailed confirmation link, and log-in: posted before a session exists, so CSRF is
 * Sec-Fetch-Site and a double-submit cookie (the link's token is not the permission to post: a page
 * elsewhere must not confirm a sign-up in the visitor's browser).
 */
export const guestRoutes: FastifyPluginAsyncTypebox<{
  sessions: SessionsUsecases;
  signup: SignupUsecases;
  policy: CookiePolicy;
}> = async (app, { sessions, signup, policy }) => {
  app.addHook('preValidation', checkFormCsrf(policy));
  const token = (request: FastifyRequest, reply: FastifyReply) => formToken(request, reply, sessions, policy);
  const allowSignup = signup.allowed;
  const signupAgain = { href: '/dashboard/signup', label: 'Sign up again' };

  app.get('/signup', async (request, reply) => {
    if (request.dashboardSession) return reply.redirect('/dashboard/keys', 303);
    return sendPage(reply, signupPage({ csrfToken: token(request, reply), allowSignup, credits: signup.credits }), allowSignup ? 200 : 403);
  });

  // With mail, every address gets the same page (see signUp); without, a new account is signed in at once.
  app.post('/signup', { schema: { body: credentialsBody } }, async (request, reply) => {
    const { email, password, csrf } = request.body;
    try {
      const outcome = await signup.signUp({ email, password, formToken: csrf ?? '', previousId: sessionIdOf(request, policy) });
      if ('mailed' in outcome) return sendPage(reply, checkInboxPage(outcome.mailed, SIGNUP_LINK_HOURS));
      setSessionCookie(reply, outcome.started, policy);
      return reply.redirect(WELCOME, 303);
    } catch (error) {
      const problem = formProblem(error);
      const page = signupPage({ csrfToken: token(request, reply), allowSignup, credits: signup.credits, email, error: problem.message });
      return sendPage(reply, page, problem.status);
    }
  });

  app.get('/signup/confirm/:token', { schema: { params: linkParams } }, async (request, reply) => {
    const csrfToken = token(request, reply);
    try {
      const { email, asksPassword } = await signup.inspect(request.params.token, csrfToken);
      return sendPage(reply, confirmSignupPage({ email, asksPassword, csrfToken, action: request.url }));
    } catch (error) {
      return deadLink(reply, error, signupAgain);
    }
  });

  app.post('/signup/confirm/:token', { schema: { params: linkParams, body: confirmBody } }, async (request, reply) => {
    const { csrf, password } = request.body;
    const link = request.params.token;
    try {
      const started = await signup.confirm({ token: link, formToken: csrf, password, previousId: sessionIdOf(request, policy) });
      setSessionCookie(reply, started, policy);
      return reply.redirect(WELCOME, 303);
    } catch (error) {
      if (!isAppError(error) || error.code !== 'sessions.signup_password_wrong') return deadLink(reply, error, signupAgain);
      const { email } = await signup.inspect(link, csrf);
      return sendPage(reply, confirmSignupPage({ email, asksPassword: true, csrfToken: token(request, reply), action: request.url, error: error.message }), error.status);
    }
  });

  app.get('/login', async (request, reply) => {
    if (request.dashboardSession) return reply.redirect('/dashboard/keys', 303);
    return sendPage(reply, loginPage({ csrfToken: token(request, reply), allowSignup }));
  });

  app.post('/login', { schema: { body: credentialsBody } }, async (request, reply) => {
    const { email, password } = request.body;
    try {
      const started = await sessions.logIn({ email, password, ip: request.ip, previousId: sessionIdOf(request, policy) });
      setSessionCookie(reply, started, policy);
      return reply.redirect('/dashboard/keys', 303);
    } catch (error) {
      const problem = formProblem(error);
      const page = loginPage({ csrfToken: token(request, reply), allowSignup, email, error: problem.message });
      return sendPage(reply.headers(problem.headers), page, problem.status);
    }
  });
};
