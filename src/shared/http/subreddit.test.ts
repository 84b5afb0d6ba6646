import { describe, expect, it } from 'vitest';
import { ALL_OF_REDDIT_FORMS, acceptedForms, refusedForms } from '../../../test/support/subreddit-forms.ts';
import { SUBREDDIT_EXAMPLES, SUBREDDIT_MAX_LENGTH, SUBREDDIT_PATTERN, SUBREDDIT_RULE, subredditName, subredditProblem } from './subreddit.ts';

describe('the one rule for a subreddit typed anywhere', () => {
  it.each(acceptedForms)('reads $input as $stored', ({ input, stored }) => {
    expect(subredditName(input)).toBe(stored);
  });

  it.each(ALL_OF_REDDIT_FORMS)('reads $input as all of Reddit, $stored, and the schema pattern accepts it', ({ input, stored }) => {
    expect(subredditName(input)).toBe(stored);
    expect(new RegExp(SUBREDDIT_PATTERN, 'u').test(input)).toBe(true);
  });

  it.each(refusedForms)('refuses $input, saying what it received', ({ input, shown }) => {
    expect(subredditName(input)).toBeNull();
    expect(subredditProblem(input)).toBe(`${SUBREDDIT_RULE}${shown}`);
  });

  it('the schema pattern accepts exactly what the function reads, as JSON Schema checks it (with the u flag, no i flag)', () => {
    const pattern = new RegExp(SUBREDDIT_PATTERN, 'u');
    for (const { input } of acceptedForms) expect(pattern.test(input), input).toBe(true);
    for (const { input } of refusedForms) expect(pattern.test(input), input).toBe(false);
  });

  it('each documented example is accepted and means r/typescript', () => {
    expect(SUBREDDIT_EXAMPLES.map(subredditName)).toEqual(SUBREDDIT_EXAMPLES.map(() => 'r/typescript'));
  });

  it('refuses a link longer than the schema allows, and says it with an empty or blank text too', () => {
    expect(subredditName(`https://www.reddit.com/r/typescript/comments/${'x'.repeat(SUBREDDIT_MAX_LENGTH)}`)).toBeNull();
    expect(subredditProblem('')).toBe(`${SUBREDDIT_RULE} (got an empty text)`);
    expect(subredditProblem('   ')).toBe(`${SUBREDDIT_RULE} (got only spaces)`);
  });
});
