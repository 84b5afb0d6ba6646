import { AppError } from '../../shared/errors.ts';

export const creditsErrors = {
  insufficient: (balance: number, required: number) =>
    new AppError({
      code: 'credits.insufficient',
      status: 402,
      message: `This request costs ${required} credits and the account balance is ${balance}. Add credits and try again.`,
      extra: { balance, required },
    }),
  invalidAmount: () =>
    new AppError({ code: 'credits.invalid_amount', status: 422, message: 'An amount is a whole number of credits above 0.' }),
};
