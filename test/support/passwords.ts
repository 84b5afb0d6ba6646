import { createPasswordHasher } from '../../src/shared/crypto/passwords.ts';

/**
 * argon2id at the lowest cost the algorithm takes (8 KiB, one pass, one lane): hashing is not what
 * most suites test, and at production cost it took about half a second a log-in. The suite in
 * test/api/passwords.test.ts keeps the production cost and checks it.
 */
export const cheapPasswords = createPasswordHasher({ memoryCost: 8, timeCost: 1, parallelism: 1 });
