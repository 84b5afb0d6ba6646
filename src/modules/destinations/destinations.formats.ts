/**
 * How each channel marks up a message. Text from Reddit is shown, never obeyed:
 * - Slack reads <…> as links and mentions and & as an entity (api.slack.com/reference/surfaces/formatting#escaping);
 * - Discord reads markdown, so its marks are escaped (mentions are switched off with `allowed_mentions`);
 * - Telegram's HTML parse mode takes only a few tags and needs <, > and & escaped
 *   (core.telegram.org/bots/api#html-style);
 * - an email has a plain-text part (nothing to escape) and an HTML part (escaped like any page).
 */
/** A mail's parts; the footer (why it came, how to stop it) is added when it is sent (destinations.mail.ts). */
export interface MailParts {
  subject: string;
  text: string;
  html: string;
}

export interface Format {
  escape(text: string): string;
  link(url: string, label: string): string;
  bold(text: string): string;
  quote(text: string): string;
  /** Lines of one block, and blocks of a message (a digest's matches). */
  lines(lines: string[]): string;
  blocks(blocks: string[]): string;
  /** The longest text the channel takes: Discord refuses over 2,000 characters (50035), Telegram over 4,096, Slack cuts at 40,000. */
  limit: number;
}

const plain = { quote: (text: string) => `> ${text}`, lines: (lines: string[]) => lines.join('\n'), blocks: (blocks: string[]) => blocks.join('\n\n') };
const html = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export const FORMATS = {
  slack: {
    escape: (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
    link: (url: string, label: string) => `<${url}|${label}>`,
    bold: (text: string) => `*${text}*`,
    ...plain,
    limit: 39_000,
  },
  discord: {
    escape: (text: string) => text.replace(/([\\*_~`|>[\]()#-])/g, '\\$1'),
    link: (url: string, label: string) => `[${label}](<${url}>)`,
    bold: (text: string) => `**${text}**`,
    ...plain,
    limit: 2000,
  },
  telegram: {
    escape: html,
    link: (url: string, label: string) => `<a href="${html(url)}">${label}</a>`,
    bold: (text: string) => `<b>${text}</b>`,
    ...plain,
    quote: (text: string) => `<blockquote>${text}</blockquote>`,
    limit: 4096,
  },
  text: { escape: (text: string) => text, link: (url: string, label: string) => `${label}: ${url}`, bold: (text: string) => text, ...plain, limit: 100_000 },
  html: {
    escape: html,
    link: (url: string, label: string) => `<a href="${html(url)}">${label}</a>`,
    bold: (text: string) => `<strong>${text}</strong>`,
    quote: (text: string) => `<blockquote>${text}</blockquote>`,
    lines: (lines: string[]) => lines.join('<br>\n'),
    blocks: (blocks: string[]) => blocks.map((block) => `<p>${block}</p>`).join('\n'),
    limit: 100_000,
  },
} satisfies Record<string, Format>;
