import { describe, expect, it } from 'vitest';
import { RedditBlockedError, RedditBudgetExhaustedError, RedditUnavailableError } from '../../integrations/reddit/reddit.errors.ts';
import { changeMessage, changeOf, NEVER_TROUBLED, observedState, outcomeOf } from './monitors.reddit-app.ts';

const AT = '2026-11-23T12:04:00.000Z';

describe('what a cycle saw of Reddit', () => {
  it('is blocked when any request was refused as an app, even after others succeeded', () => {
    expect(observedState({ ok: 3, blocked: 1, failing: 2 })).toBe('blocked');
  });

  it('is ok when any request got an answer, though others failed', () => {
    expect(observedState({ ok: 1, blocked: 0, failing: 5 })).toBe('ok');
  });

  it('is failing only when requests were made and every one failed', () => {
    expect(observedState({ ok: 0, blocked: 0, failing: 2 })).toBe('failing');
  });

  it('is nothing when nothing was asked, so the stored state stays', () => {
    expect(observedState({ ok: 0, blocked: 0, failing: 0 })).toBeNull();
    expect(changeOf({ state: 'blocked', since: AT }, null, '2026-11-23T13:00:00.000Z')).toBeNull();
  });

  it('counts a spent budget of our own and our own bugs as no answer of Reddit’s', () => {
    expect(outcomeOf(new RedditBudgetExhaustedError('budget', 10))).toBeNull();
    expect(outcomeOf(new TypeError('bug'))).toBeNull();
    expect(outcomeOf(new RedditBlockedError('blocked', 403))).toBe('blocked');
    expect(outcomeOf(new RedditUnavailableError('5xx', undefined, 503))).toBe('failing');
    expect(outcomeOf(new RedditUnavailableError('429', 30, 429))).toBe('failing');
  });
});

describe('when a change of Reddit’s state is news', () => {
  it('a first trouble is news, dated by the cycle that saw it', () => {
    expect(changeOf(NEVER_TROUBLED, 'blocked', AT)).toEqual({ state: 'blocked', since: AT });
  });

  it('the same state seen again is not news, and keeps its first date', () => {
    expect(changeOf({ state: 'blocked', since: AT }, 'blocked', '2026-11-23T12:05:00.000Z')).toBeNull();
    expect(changeOf(NEVER_TROUBLED, 'ok', AT)).toBeNull();
  });

  it('a recovery and a move from failing to blocked are news', () => {
    expect(changeOf({ state: 'blocked', since: AT }, 'ok', '2026-11-23T13:00:00.000Z')).toEqual({ state: 'ok', since: '2026-11-23T13:00:00.000Z' });
    expect(changeOf({ state: 'failing', since: AT }, 'blocked', '2026-11-23T13:00:00.000Z')).toMatchObject({ state: 'blocked' });
  });

  it('the log line names the settings to check, never their values', () => {
    expect(changeMessage('blocked')).toMatch(/REDDIT_CLIENT_ID.*REDDIT_CLIENT_SECRET.*REDDIT_USER_AGENT/);
    expect(changeMessage('failing')).toMatch(/failed/);
    expect(changeMessage('ok')).toMatch(/again/);
  });
});
