/**
 * How the API takes a subreddit: `r/` and a name by Reddit's rule (2–21 of A–Z a–z 0–9 _, not
 * starting with _). Apart from the TypeBox schemas (schemas.ts) so that checks which must not load
 * typebox (the monitors' own, which the operator CLI loads) hold names to the same rule.
 */
export const SUBREDDIT_PATTERN = '^r/[A-Za-z0-9][A-Za-z0-9_]{1,20}$';

/** The pattern in words, as it completes "<field> …" (the schemas' `x-rule`, the monitors' own check). */
export const SUBREDDIT_RULE = 'must be r/name: 2–21 letters, digits or _, not starting with _';
