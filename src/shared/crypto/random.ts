/** Where randomness comes from: Node's `randomBytes` in production; tests pass a seeded source to pin ids and tokens. */
export type RandomBytes = (size: number) => Buffer;
