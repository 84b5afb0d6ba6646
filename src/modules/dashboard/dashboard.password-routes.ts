import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { isAppError } from '../../shared/errors.ts';
import { RESET_LINK_MINUTES } from '../sessions/sessions.links.usecases.ts';
import type { PasswordResetUsecases } from '../sessions/sessions.reset.usecases.ts';
import type { SessionsUsecases } from '../sessions/sessions.usecases.ts';
import { deadLink } from './dashboard.guest-routes.ts';
import { formProblem, sendPage } from './dashboard.reply.ts';
import { checkFormCsrf, formToken, sessionIdOf, setSessionCookie, type CookiePolicy } from './dashboard.session.ts';
import { newPasswordPage, resetRequestedPage, resetRequestPage } from './views/password.ts';

const requestBody = Type.Object({ csrf: Type.Optional(Type.String()), email: Type.String({ maxLength: 320 }) });
const linkParams = Type.Object({ token: Type.String({ maxLength: 100 }) });
const resetBody = Type.Object({
  csrf: Type.Optional(Type.String()),
  // The page's hidden username field, for password managers; the link says whose account it is.
  email: Type.Optional(Type.String({ maxLength: 320 })),
  password: Type.String({ maxLength: 1024 }),
});

/**
 * "Forgot password?" (docs/dashboard.md, "Password reset"): asking for a link, and the link's page.
 * Pre-session forms like log-in, with the same CSRF checks; the link's token is in the path.
 */
export const passwordRoutes: FastifyPluginAsyncTypebox<{ sessions: SessionsUsecases; passwordReset: PasswordResetUsecases; policy: CookiePolicy }> = async (
  app,
  { sessions, passwordReset, policy },
) => {
  app.addHook('preValidation', checkFormCsrf(policy));
  const askAgain = { href: '/dashboard/password-reset', label: 'Ask for a new link' };

  app.get('/password-reset', async (request, reply) =>
    sendPage(reply, resetRequestPage({ byMail: passwordReset.byMail, csrfToken: formToken(request, reply, sessions, policy) })),
  );

  app.post('/password-reset', { schema: { body: requestBody } }, async (request, reply) => {
    if (!passwordReset.byMail) return sendPage(reply, resetRequestPage({ byMail: false, csrfToken: '' }));
    await passwordReset.request(request.body.email);
    return sendPage(reply, resetRequestedPage(request.body.email.trim(), RESET_LINK_MINUTES));
  });

  app.get('/password-reset/:token', { schema: { params: linkParams } }, async (request, reply) => {
    try {
      const { email } = await passwordReset.inspect(request.params.token);
      return sendPage(reply, newPasswordPage({ email, csrfToken: formToken(request, reply, sessions, policy), action: request.url }));
    } catch (error) {
      return deadLink(reply, error, askAgain);
    }
  });

  app.post('/password-reset/:token', { schema: { params: linkParams, body: resetBody } }, async (request, reply) => {
    const link = request.params.token;
    try {
      const started = await passwordReset.reset({ token: link, password: request.body.password, previousId: sessionIdOf(request, policy) });
      setSessionCookie(reply, started, policy);
      return reply.redirect('/dashboard/keys?password=1', 303);
    } catch (error) {
      if (isAppError(error) && error.code === 'sessions.link_expired') return deadLink(reply, error, askAgain);
      const problem = formProblem(error);
      const { email } = await passwordReset.inspect(link);
      const page = newPasswordPage({ email, csrfToken: formToken(request, reply, sessions, policy), action: request.url, error: problem.message });
      return sendPage(reply, page, problem.status);
    }
  });
};
