import { isDatabaseUnavailable } from './db/database.errors.ts';
import { AppError, isAppError } from './errors.ts';

/**
 * What a billable request creates, in the words its answers use when something goes wrong around the
 * commit: a 5xx that hides a committed charge would send a client without an Idempotency-Key to pay
 * twice, so such an answer names the resource and what it cost.
 */
export interface Committing {
  /** "scrape", "generation", … as the answer's words name it. */
  noun: string;
  id: string;
  /** The extension member of the problem that carries the id: scrape_id, generation_id, … */
  idField: string;
  /** Where the resource can be read: GET this path. */
  location: string;
  /** What the commit does with credits, completing "it was created and …": "holds 3 credits until it ends". */
  money: string;
}

const retryRule = 'Retrying with the same Idempotency-Key is safe: it never runs or charges twice.';

/** The database became unreachable during the commit itself: whether it went through is not known. */
export const outcomeUnknown = (c: Committing) =>
  new AppError({
    code: 'outcome_unknown',
    status: 503,
    message:
      `The database became unreachable while the ${c.noun} ${c.id} was being saved, so it may or may not exist. ` +
      `GET ${c.location} says: 404 means it was not created and nothing was charged; otherwise it was created and ${c.money}. ${retryRule}`,
    extra: { [c.idField]: c.id },
    headers: { 'retry-after': '5' },
  });

/** It was created and paid for; only its answer failed. */
export const answerLost = (c: Committing, error: unknown) =>
  new AppError({
    code: 'answer_lost',
    status: isDatabaseUnavailable(error) ? 503 : 500,
    message:
      `The ${c.noun} ${c.id} was created and ${c.money}, but ${isDatabaseUnavailable(error) ? 'the database became unreachable' : 'something went wrong on our side'} ` +
      `before its answer was ready. GET ${c.location} for its state. ${retryRule} Do not send it again without one.`,
    extra: { [c.idField]: c.id },
    headers: { 'retry-after': '5' },
    cause: error,
  });

/**
 * The transaction that creates `c` and moves its credits. An error that carries its own answer (a 402, a
 * 409) rolled everything back and stands; a lost database is answered with the id, as it may have committed.
 */
export async function commitOf<T>(c: Committing, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!isAppError(error) && isDatabaseUnavailable(error)) throw outcomeUnknown(c);
    throw error;
  }
}

/**
 * The rest of a request after `c` committed. Its own answers (an AppError, which carries the id) stand;
 * anything else becomes `answer_lost`, never a "try again" that would create a second one.
 */
export async function afterCommitOf<T>(c: Committing, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isAppError(error)) throw error;
    throw answerLost(c, error);
  }
}

/** Every answer commitOf and afterCommitOf can give about `c`: what the API document lists for its route. */
export const outcomeSamples = (c: Committing): AppError[] => [
  outcomeUnknown(c),
  answerLost(c, Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })),
  answerLost(c, new Error('unexpected')),
];
