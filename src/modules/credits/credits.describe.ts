import { formatMoney } from '../../shared/money.ts';
import { plural, postsAndComments } from '../../shared/text.ts';

/**
 * One line saying what a ledger row was for, composed when it is read from the row and the record it
 * references (a scrape, a draft, a publication, a monitor), so rows written before descriptions existed get one too.
 */
export interface LedgerFacts {
  kind: 'grant' | 'charge' | 'refund' | 'purchase' | 'clawback' | 'reinstatement' | 'owed_settlement';
  reason: string | null;
  scrape_id: string | null;
  generation_id: string | null;
  publication_id: string | null;
  scrape_request: string | null;
  scrape_unavailable: string | null;
  /** How many results (posts and comments) the scrape stored; null while it has none stored. */
  scrape_results: number | string | null;
  /** How many of them are comments. */
  scrape_comments: number | string | null;
  generation_type: 'reply' | 'post' | null;
  generation_subreddit: string | null;
  generation_error: string | null;
  publication_kind: 'comment' | 'post' | null;
  publication_target: string | null;
  publication_error: string | null;
  monitor_id: string | null;
  /** The monitor's name; null once the monitor is deleted (its charges stay). */
  monitor_name: string | null;
  match_count: number | string | null;
  /** How many matches of that poll the relevance judge scored; null or absent: none. */
  judged_count?: number | string | null;
  payment_id?: string | null;
  /** What the payment cost, in the currency's smallest unit, and how it was bought; null without a payment. */
  payment_amount?: number | string | null;
  payment_currency?: string | null;
  payment_source?: 'checkout' | 'topup' | null;
  /** How the row moved what the account owes. */
  owed_change?: number | string | null;
}

/** The reason of the grant that gives a new dashboard account SIGNUP_CREDITS; its entry reads "Sign-up credits". */
export const SIGNUP_GRANT_REASON = 'sign-up credits';

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The cause of a refund without the note meant for the API caller who was refused ("nothing was charged",
 * "the charge was refunded"): next to the charge it reverses, that note would contradict the ledger.
 */
const causeOf = (text: string) =>
  text
    .replace(/[;,]?\s*(nothing was charged|no credits were charged|the charge was refunded( in full)?)\b.*$/is, '')
    .replace(/\.$/, '')
    .trim();

type ScrapeRequestFacts = { subreddits?: string[]; sources?: string[] } | null;
const scrapeRequest = (facts: LedgerFacts): ScrapeRequestFacts => (facts.scrape_request ? JSON.parse(facts.scrape_request) : null);

function scrapeSubject(facts: LedgerFacts): string {
  const request = scrapeRequest(facts);
  return request?.subreddits?.length ? `scrape of ${request.subreddits.join(', ')}` : `scrape ${facts.scrape_id}`;
}

/** What the scrape found, by kind (see postsAndComments). */
function scrapeFound(facts: LedgerFacts): string | null {
  if (facts.scrape_results === null) return null;
  const comments = Number(facts.scrape_comments ?? 0);
  // Scrapes stored before comments could be read name no sources: they searched posts.
  return postsAndComments({ posts: Number(facts.scrape_results) - comments, comments }, scrapeRequest(facts)?.sources ?? ['posts']);
}

function scrapeCharge(facts: LedgerFacts): string {
  const found = scrapeFound(facts);
  const unavailable = facts.scrape_unavailable ? (JSON.parse(facts.scrape_unavailable) as { subreddit: string; reason: string }[]) : [];
  const skipped = unavailable.map((u) => `${u.subreddit} unavailable (${u.reason}), not charged`);
  return [capitalized(scrapeSubject(facts)) + (found === null ? '' : `: ${found}`), ...skipped].join('; ');
}

const monitorSubject = (facts: LedgerFacts) =>
  facts.monitor_name === null ? `monitor ${facts.monitor_id}` : `monitor “${facts.monitor_name}”`;

/** One poll's matches of one monitor, charged together: `Monitor “Launch”: 3 matches, 10 judged for relevance`. */
function monitorCharge(facts: LedgerFacts): string {
  const matches = facts.match_count === null ? null : Number(facts.match_count);
  const judged = Number(facts.judged_count ?? 0);
  const counts = [matches === null ? null : plural(matches, 'match', 'matches'), judged > 0 ? `${judged} judged for relevance` : null].filter(Boolean);
  return capitalized(monitorSubject(facts)) + (counts.length > 0 ? `: ${counts.join(', ')}` : '');
}

function subjectOf(facts: LedgerFacts): { subject: string; error: string | null } | null {
  if (facts.scrape_id) return { subject: scrapeSubject(facts), error: null };
  if (facts.monitor_id) return { subject: monitorSubject(facts), error: null };
  if (facts.generation_id) {
    const where = facts.generation_subreddit ?? 'a subreddit';
    const subject = facts.generation_type === 'post' ? `draft of a post for ${where}` : `draft of a reply in ${where}`;
    return { subject: facts.generation_type ? subject : `draft ${facts.generation_id}`, error: facts.generation_error };
  }
  if (facts.publication_id) {
    const target = facts.publication_target;
    const subject = !target
      ? `publication ${facts.publication_id}`
      : facts.publication_kind === 'post'
        ? `publication of a post to ${target}`
        : `publication of a comment on ${target}`;
    return { subject, error: facts.publication_error };
  }
  return null;
}

/** The rows of a payment: bought, taken back for a refund or dispute, given back, or paying what was owed. */
function paymentLine(facts: LedgerFacts): string {
  const owed = Number(facts.owed_change ?? 0);
  if (facts.kind === 'owed_settlement') return `Pays ${plural(-owed, 'credit')} owed after a refund or dispute`;
  if (facts.kind === 'reinstatement') return 'Dispute won: the credits taken back are given back';
  if (facts.kind === 'clawback') {
    const cause = facts.reason ? capitalized(facts.reason) : 'Taken back for a refund or dispute';
    return owed > 0 ? `${cause}; ${owed} of them already spent, now owed` : cause;
  }
  const paid = facts.payment_amount == null || !facts.payment_currency ? '' : ` for ${formatMoney(Number(facts.payment_amount), facts.payment_currency)}`;
  return `${facts.payment_source === 'topup' ? 'Auto top-up' : 'Purchase'}${paid}`;
}

export function describeLedgerEntry(facts: LedgerFacts): string {
  if (facts.kind !== 'grant' && facts.kind !== 'charge' && facts.kind !== 'refund') return paymentLine(facts);
  if (facts.kind === 'grant') {
    const reason = facts.reason?.trim();
    if (reason === SIGNUP_GRANT_REASON) return 'Sign-up credits';
    return reason && reason.toLowerCase() !== 'operator grant' ? `Operator grant: ${reason}` : 'Operator grant';
  }
  const about = subjectOf(facts);
  if (facts.kind === 'charge') {
    if (facts.scrape_id) return scrapeCharge(facts);
    if (facts.monitor_id) return monitorCharge(facts);
    return about ? capitalized(about.subject) : (facts.reason ?? 'Charge');
  }
  const cause = facts.reason ?? about?.error;
  const subject = about ? `Refund for the ${about.subject}` : 'Refund';
  return cause && causeOf(cause) ? `${subject}: ${causeOf(cause)}` : subject;
}
