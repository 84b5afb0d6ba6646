import { AppError } from '../../../shared/errors.ts';

export const inboxErrors = {
  notFound: (matchId: string) =>
    new AppError({ code: 'matches.not_found', status: 404, message: `No match ${matchId} in your account (GET /api/v1/inbox lists them).` }),
  published: (matchId: string) =>
    new AppError({
      code: 'matches.published',
      status: 409,
      message: `The match ${matchId} was answered on Reddit; its status stays published (delete the reply on Reddit if it should not be there).`,
    }),
};
