import { argon2id, hash, verify } from 'argon2';

/** How dashboard passwords are hashed and checked; comes in as an argument, like the clock. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** False for a wrong password and for a stored hash that cannot be read. */
  verify(stored: string, password: string): Promise<boolean>;
}

export interface Argon2Cost {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/**
 * argon2id at the library's defaults (64 MiB, 3 passes, 4 lanes): above OWASP's minimum for argon2id
 * (19 MiB, 2 passes). The service always hashes with these: no variable lowers them, and only a
 * caller of createServices that passes its own hasher (the tests) can use another cost.
 */
export const PRODUCTION_ARGON2: Argon2Cost = { memoryCost: 65_536, timeCost: 3, parallelism: 4 };

/** argon2id at the given cost. A stored hash carries its own parameters, so verify uses those. */
export function createPasswordHasher(cost: Argon2Cost = PRODUCTION_ARGON2): PasswordHasher {
  return {
    hash: (password) => hash(password, { type: argon2id, ...cost }),
    verify: (stored, password) => verify(stored, password).catch(() => false),
  };
}
