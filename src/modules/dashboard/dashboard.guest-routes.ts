import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { SessionsUsecases } from '../sessions/sessions.usecases.ts';
import { formProblem, sendPage } from './dashboard.reply.ts';
import { checkFormCsrf, formToken, sessionIdOf, setSessionCookie, type CookiePolicy } from './dashboard.session.ts';
import { loginPage, signupPage } from './views/auth.ts';

const credentialsBody = Type.Object({
  csrf: Type.Optional(Type.String()),
  email: Type.String({ maxLength: 320 }),
  // argon2 takes any length; the cap keeps one request from costing much.
  password: Type.String({ maxLength: 1024 }),
});

/** Sign-up and log-in: posted before a session exists, so CSRF is Sec-Fetch-Site and a double-submit cookie. */
export const guestRoutes: FastifyPluginAsyncTypebox<{
  sessions: SessionsUsecases;
  allowSignup: boolean;
  policy: CookiePolicy;
}> = async (app, { sessions, allowSignup, policy }) => {
  app.addHook('preValidation', checkFormCsrf(policy));
  const token = (request: FastifyRequest, reply: FastifyReply) => formToken(request, reply, sessions, policy);

  app.get('/signup', async (request, reply) => {
    if (request.dashboardSession) return reply.redirect('/dashboard/keys', 303);
    return sendPage(reply, signupPage({ csrfToken: token(request, reply), allowSignup }), allowSignup ? 200 : 403);
  });

  // A free email and a registered one get the same page: the log-in form with one notice (see signUp).
  app.post('/signup', { schema: { body: credentialsBody } }, async (request, reply) => {
    const { email, password } = request.body;
    try {
      await sessions.signUp({ email, password });
      return sendPage(reply, loginPage({ csrfToken: token(request, reply), allowSignup, email, signedUp: true }));
    } catch (error) {
      const problem = formProblem(error);
      const page = signupPage({ csrfToken: token(request, reply), allowSignup, email, error: problem.message });
      return sendPage(reply, page, problem.status);
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
