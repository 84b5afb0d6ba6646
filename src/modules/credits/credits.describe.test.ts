import { describe, expect, it } from 'vitest';
import { describeLedgerEntry, type LedgerFacts } from './credits.describe.ts';

const none: LedgerFacts = {
  kind: 'charge',
  reason: null,
  scrape_id: null,
  generation_id: null,
  publication_id: null,
  scrape_request: null,
  scrape_unavailable: null,
  scrape_results: null,
  scrape_comments: null,
  generation_type: null,
  generation_subreddit: null,
  generation_error: null,
  publication_kind: null,
  publication_target: null,
  publication_error: null,
  monitor_id: null,
  monitor_name: null,
  match_count: null,
};
const publication = { publication_id: 'pub_1', publication_kind: 'post' as const, publication_target: 'r/node' };

describe('a ledger entry described in one line', () => {
  it('a refund drops the note the refused caller was given, whichever words it used', () => {
    for (const reason of [
      'Reddit says this Reddit account is posting too fast (slow down); nothing was charged.',
      'Reddit could not be asked whether it went out (timeout), 3 times; the charge was refunded',
    ]) {
      const text = describeLedgerEntry({ ...none, ...publication, kind: 'refund', reason });
      expect(text).toMatch(/^Refund for the publication of a post to r\/node: (Reddit says|Reddit could not be asked)/);
      expect(text).not.toMatch(/charged|refunded|\.$/);
    }
  });

  it('a refund without a reason of its own takes the error of what it refunds', () => {
    const facts = { ...none, kind: 'refund' as const, generation_id: 'gen_1', generation_type: 'reply' as const, generation_subreddit: 'r/a' };
    expect(describeLedgerEntry({ ...facts, generation_error: 'the language model timed out' })).toBe(
      'Refund for the draft of a reply in r/a: the language model timed out',
    );
  });

  it('a grant names its reason, but not the CLI\'s default one twice; sign-up credits read as such', () => {
    expect(describeLedgerEntry({ ...none, kind: 'grant', reason: 'welcome' })).toBe('Operator grant: welcome');
    expect(describeLedgerEntry({ ...none, kind: 'grant', reason: 'operator grant' })).toBe('Operator grant');
    expect(describeLedgerEntry({ ...none, kind: 'grant', reason: 'sign-up credits' })).toBe('Sign-up credits');
  });

  it('a scrape charge counts its posts, from a count PostgreSQL may send as text', () => {
    const scrape = { ...none, scrape_id: 'scr_1', scrape_request: JSON.stringify({ subreddits: ['r/a'] }), scrape_unavailable: '[]' };
    expect(describeLedgerEntry({ ...scrape, scrape_results: '12', scrape_comments: '0' })).toBe('Scrape of r/a: 12 posts');
    expect(describeLedgerEntry({ ...scrape, scrape_results: 1, scrape_comments: 0 })).toBe('Scrape of r/a: 1 post');
  });

  it('a scrape that read comments counts posts and comments apart, in the singular or plural, naming only the kinds it read', () => {
    const request = JSON.stringify({ subreddits: ['r/a'], sources: ['posts', 'comments'] });
    const scrape = { ...none, scrape_id: 'scr_1', scrape_request: request, scrape_unavailable: '[]' };
    expect(describeLedgerEntry({ ...scrape, scrape_results: '5', scrape_comments: '3' })).toBe('Scrape of r/a: 2 posts and 3 comments');
    expect(describeLedgerEntry({ ...scrape, scrape_results: 2, scrape_comments: 1 })).toBe('Scrape of r/a: 1 post and 1 comment');
    expect(describeLedgerEntry({ ...scrape, scrape_results: 0, scrape_comments: 0 })).toBe('Scrape of r/a: 0 posts and 0 comments');
    const commentsOnly = JSON.stringify({ subreddits: ['r/a'], sources: ['comments'] });
    expect(describeLedgerEntry({ ...scrape, scrape_request: commentsOnly, scrape_results: 4, scrape_comments: 4 })).toBe('Scrape of r/a: 4 comments');
  });

  it('a monitor charge names the monitor and counts the matches of its poll, by id once the monitor is deleted', () => {
    const monitor = { ...none, monitor_id: 'mon_0192f0c1a2b3c4d5e6f7a8b9c0d1' };
    expect(describeLedgerEntry({ ...monitor, monitor_name: 'Launch watch', match_count: 3 })).toBe('Monitor “Launch watch”: 3 matches');
    expect(describeLedgerEntry({ ...monitor, monitor_name: 'Launch watch', match_count: '1' })).toBe('Monitor “Launch watch”: 1 match');
    expect(describeLedgerEntry({ ...monitor, match_count: 3 })).toBe('Monitor mon_0192f0c1a2b3c4d5e6f7a8b9c0d1: 3 matches');
    expect(describeLedgerEntry({ ...monitor, monitor_name: 'Launch watch', match_count: 2, judged_count: '9' })).toBe(
      'Monitor “Launch watch”: 2 matches, 9 judged for relevance',
    );
  });

  it('the rows of a payment say what was bought for how much, what was taken back and why, and what was owed', () => {
    const payment = { ...none, payment_id: 'pay_1', payment_amount: 1800, payment_currency: 'usd', payment_source: 'checkout' as const };
    expect(describeLedgerEntry({ ...payment, kind: 'purchase' })).toBe('Purchase for 18.00 USD');
    expect(describeLedgerEntry({ ...payment, kind: 'purchase', payment_source: 'topup' })).toBe('Auto top-up for 18.00 USD');
    expect(describeLedgerEntry({ ...payment, kind: 'clawback', reason: 'taken back: 9.00 USD of 18.00 USD refunded', owed_change: 300 })).toBe(
      'Taken back: 9.00 USD of 18.00 USD refunded; 300 of them already spent, now owed',
    );
    expect(describeLedgerEntry({ ...payment, kind: 'reinstatement' })).toBe('Dispute won: the credits taken back are given back');
    expect(describeLedgerEntry({ ...payment, kind: 'owed_settlement', owed_change: -300 })).toBe('Pays 300 credits owed after a refund or dispute');
    expect(describeLedgerEntry({ ...payment, kind: 'owed_settlement', owed_change: -1 })).toBe('Pays 1 credit owed after a refund or dispute');
  });
});
