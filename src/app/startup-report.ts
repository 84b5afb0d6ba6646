import type { Config } from '../shared/config/config.ts';
import { localOrigin } from '../shared/config/reddit.ts';
import { streamPerMinute, streamRuns } from '../shared/config/stream.ts';

export interface StartupLine {
  level: 'info' | 'warn';
  msg: string;
}

const SECRET_KEY_HINT = 'SECRET_KEY (try: openssl rand -hex 32)';

/** What Connect Reddit (and so publish) still needs, each with how to set it. */
function connectionsNeed(config: Config): string[] {
  return [
    ...(config.reddit || config.redditSource === 'demo' ? [] : ['REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET (an approved Reddit app of type "web app")']),
    ...(config.redditRedirectUri ? [] : ['PUBLIC_URL (or REDDIT_REDIRECT_URI)']),
    ...(config.secretKey ? [] : [SECRET_KEY_HINT]),
  ];
}

/** Whether credits are on sale, and where Stripe must send its events. Not a warning: a self-hoster who sells nothing grants credits with the CLI on purpose. */
function sellingLine({ billing }: Config, origin: string): StartupLine {
  return {
    level: 'info',
    msg: billing.stripe
      ? `Selling credits with Stripe: packs of ${billing.packs.map((pack) => pack.credits).join(', ')} credits (${billing.currency}); Stripe's events go to ${origin}/webhooks/stripe.`
      : `Credits are not sold here (no STRIPE_SECRET_KEY): grant them with \`subpilot credits grant\`; a 402 tells the caller to ask ${billing.contact ?? 'the operator'}.`,
  };
}

/** On the demo source: that its data is not Reddit's, what it costs, and where real Reddit access starts. */
function demoLine({ demo, llm }: Config): StartupLine {
  const model = llm ? '' : '; drafts and relevance verdicts come from the demo model (set LLM_BASE_URL and LLM_MODEL for a language model)';
  const cost = demo.billed ? 'charged at the PRICE_* as Reddit data would be (DEMO_BILLED=true)' : 'free (DEMO_BILLED=false)';
  return {
    level: 'warn',
    msg:
      `Reddit source: demo. Scrapes, monitors and publishing use recorded answers and a sample post or comment every ${demo.trickleSeconds} s, ` +
      `labelled "demo", never Reddit's; publishing is simulated and reaches no one; they are ${cost}${model}. Real Reddit data needs REDDIT_CLIENT_ID and ` +
      'REDDIT_CLIENT_SECRET of an app Reddit has approved (docs/operations.md: Reddit credentials).',
  };
}

/** With an approved app and a share set: that the stream reads all of Reddit, at how many of the minute's requests. */
function streamLine({ stream, redditRequestsPerMinute }: Config): StartupLine {
  return {
    level: 'info',
    msg:
      `All of Reddit: the site-wide stream reads every new post and comment with ${streamPerMinute(stream, redditRequestsPerMinute)} of the ` +
      `${redditRequestsPerMinute} Reddit requests a minute (REDDIT_STREAM_SHARE=${stream.share}); past ${stream.maxLagSeconds} s behind it skips ahead ` +
      'and records the ids it skipped (docs/api/monitors-stream.md).',
  };
}

/**
 * What `serve` says once it listens: where the dashboard is and whether credits are on sale, then one line per capability that is off,
 * naming what to set, so that an operator learns it at start-up rather than from a user's 503.
 */
export function startupReport(config: Config, listening: { host: string; port: number }): StartupLine[] {
  const origin = config.publicUrl ?? localOrigin(listening.host, listening.port);
  const lines: StartupLine[] = [{ level: 'info', msg: `Dashboard: ${origin}/dashboard` }, sellingLine(config, origin)];
  const off = (msg: string) => lines.push({ level: 'warn', msg });
  if (config.redditSource === 'demo') lines.push(demoLine(config));
  else if (streamRuns(config)) lines.push(streamLine(config));
  else if (!config.reddit) {
    off(
      'Scrape is off (POST /api/v1/scrape answers 503): set REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET ' +
        'to the credentials of a Reddit app approved for API access (docs/operations.md: Reddit credentials), or REDDIT_SOURCE=demo to try it on sample data.',
    );
  }
  if (!config.llm && config.redditSource !== 'demo') {
    off("Generate and relevance judging are off (POST /api/v1/generate answers 503, a monitor's intent is refused): set LLM_BASE_URL and LLM_MODEL to an OpenAI-compatible endpoint and model.");
  }
  const need = connectionsNeed(config);
  if (need.length > 0) {
    off(`Connect Reddit and publish are off (POST /api/v1/publish answers 503): set ${need.join('; ')}.`);
  }
  if (!config.secretKey) {
    off(`Webhooks are off (a scrape with webhook_url answers 503): set ${SECRET_KEY_HINT}.`);
  }
  const mailNeeds = [...(config.channels.mail ? [] : ['SMTP_URL and MAIL_FROM']), ...(config.publicUrl ? [] : ['PUBLIC_URL (the links in each mail)']), ...(config.secretKey ? [] : [SECRET_KEY_HINT])];
  if (mailNeeds.length > 0) off(`Email alerts are off (an email destination answers 503): set ${mailNeeds.join('; ')}.`);
  const accountMailNeeds = [...(config.channels.mail ? [] : ['SMTP_URL and MAIL_FROM']), ...(config.publicUrl ? [] : ['PUBLIC_URL (the links in each mail)'])];
  if (config.allowSignup && accountMailNeeds.length > 0) {
    off(
      'Sign-up confirmation and password reset by mail are off (sign-up signs in at once without checking the address, and tells whoever tries ' +
        `that an address has an account; passwords are set with \`subpilot accounts set-password\`): set ${accountMailNeeds.join('; ')}, or ALLOW_SIGNUP=false.`,
    );
  }
  const telegramNeeds = [...(config.channels.telegram ? [] : ["TELEGRAM_BOT_TOKEN (a bot from Telegram's @BotFather)"]), ...(config.secretKey ? [] : [SECRET_KEY_HINT])];
  if (telegramNeeds.length > 0) off(`Telegram alerts are off (a telegram destination answers 503): set ${telegramNeeds.join('; ')}.`);
  return lines;
}
