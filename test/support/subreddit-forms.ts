/**
 * One table of the ways a subreddit is typed, and what each becomes: the name stored and answered, or
 * a refusal repeating what was received. Every entry point runs it (the unit test of subreddit.ts, and
 * test/api/subreddit-forms.test.ts: the API, MCP, the dashboard's form and the CLI). No entry has a
 * space or a comma inside it, as the dashboard's form reads those as separators.
 */
export type SubredditForm =
  | { input: string; stored: string }
  /** `shown`: the end of the refusal, after the rule, saying what was received. */
  | { input: string; shown: string };

const KEY_LIKE = `ak_live_${'5e'.repeat(32)}`;

export const SUBREDDIT_FORMS: SubredditForm[] = [
  { input: 'r/typescript', stored: 'r/typescript' },
  { input: 'typescript', stored: 'r/typescript' },
  { input: '/r/typescript', stored: 'r/typescript' },
  { input: 'r/typescript/', stored: 'r/typescript' },
  // Reddit's names have no case; the spelling given is kept, and `R/` is `r/`.
  { input: 'R/TypeScript', stored: 'r/TypeScript' },
  { input: '  r/typescript\t', stored: 'r/typescript' },
  { input: 'https://www.reddit.com/r/typescript/', stored: 'r/typescript' },
  { input: 'https://www.reddit.com/r/typescript/comments/1h2k9xq/is_there_a_tool/?utm_source=share', stored: 'r/typescript' },
  { input: 'https://old.reddit.com/r/typescript', stored: 'r/typescript' },
  { input: 'reddit.com/r/typescript', stored: 'r/typescript' },
  { input: 'HTTPS://NP.REDDIT.COM/R/TypeScript#top', stored: 'r/TypeScript' },
  { input: 'r/t', shown: ' (got "r/t")' },
  { input: 'r/_typescript', shown: ' (got "r/_typescript")' },
  { input: 'r/type-script', shown: ' (got "r/type-script")' },
  { input: 'typescript_is_too_long', shown: ' (got "typescript_is_too_long")' },
  { input: 'u/spez', shown: ' (got "u/spez")' },
  // A link's query is left out of the refusal: it can carry what is nobody else's business.
  { input: 'https://www.reddit.com/user/spez?token=abc', shown: ' (got "https://www.reddit.com/user/spez")' },
  { input: 'https://twitter.com/r/typescript', shown: ' (got "https://twitter.com/r/typescript")' },
  // A key pasted into the wrong field is not repeated.
  { input: KEY_LIKE, shown: ' (got a text that is not repeated: it looks like a key or a token)' },
];

export const acceptedForms = SUBREDDIT_FORMS.filter((form): form is Extract<SubredditForm, { stored: string }> => 'stored' in form);
export const refusedForms = SUBREDDIT_FORMS.filter((form): form is Extract<SubredditForm, { shown: string }> => 'shown' in form);

/**
 * All of Reddit through the same rule: every form of r/all is stored as r/all (lower-case, whatever
 * was typed), which a monitor watches through the site-wide stream alone (test/api/subreddit-forms.test.ts
 * runs them on a server with the stream on; test/api/monitors-all.test.ts what they read).
 */
export const ALL_OF_REDDIT_FORMS: Extract<SubredditForm, { stored: string }>[] = [
  { input: 'all', stored: 'r/all' },
  { input: 'r/all', stored: 'r/all' },
  { input: '/r/all', stored: 'r/all' },
  { input: 'R/All', stored: 'r/all' },
  { input: 'https://www.reddit.com/r/all/', stored: 'r/all' },
  { input: 'https://old.reddit.com/r/all/new?sort=new', stored: 'r/all' },
];
