import { describe, expect, it } from 'vitest';
import type { Caller } from '../keys/keys.usecases.ts';
import type { ToolDeps } from './mcp.tools-kit.ts';
import { monitorTools } from './mcp.tools-monitors.ts';

const PRICES = { scrapePair: 1, generate: 5, publish: 10, monitorMatch: 1, judge: 2 };
const caller: Caller = { accountId: 'acc_1', keyId: 'key_1', keyPrefix: 'ak_live_00000000', scopes: ['monitors'], monthlyCreditLimit: null, via: 'mcp' };
const view = { id: 'mon_1', name: 'Tools', status: 'active', paused_reason: null, subreddits: ['r/node'], keywords: ['orm'], query: null, min_relevance: 60 };

/** What create_monitor answers for a monitor with these settings, its usecase standing in. */
async function summaryFor(settings: { intent: string | null; draft_replies: boolean }) {
  const deps = { prices: PRICES, previewDailyLimit: 2000, monitors: { create: async () => ({ ...view, ...settings }) } } as unknown as ToolDeps;
  const create = monitorTools(deps).find((tool) => tool.name === 'create_monitor')!;
  return (await create.run(caller, { name: 'Tools', subreddits: ['node'], keywords: ['orm'] } as never)).summary;
}

describe('create_monitor states what each match will cost', () => {
  it('the match alone, for a monitor without an intent or drafts', async () => {
    expect(await summaryFor({ intent: null, draft_replies: false })).toContain('Each new match costs 1 credit. Read them');
  });

  it('the match and the judge, and what a filtered match costs, for a monitor with an intent', async () => {
    expect(await summaryFor({ intent: 'people choosing an ORM', draft_replies: false })).toContain(
      'Each new match costs 3 credits: 1 credit for the match and 2 credits for its relevance score. ' +
        'One scored below 60 is kept as filtered and costs only the score, 2 credits.',
    );
  });

  it('and the draft, for a monitor that drafts replies', async () => {
    expect(await summaryFor({ intent: null, draft_replies: true })).toContain("Each new match costs 1 credit. Each delivered match's reply draft costs 5 credits more.");
  });

  it('its description and update_monitor’s name the amounts, not the variables that set them', () => {
    const tools = monitorTools({ prices: PRICES, previewDailyLimit: 2000, monitors: {} } as unknown as ToolDeps);
    for (const name of ['create_monitor', 'update_monitor']) {
      const { description } = tools.find((tool) => tool.name === name)!;
      expect(description, name).toContain('2 credits');
      expect(description, name).toContain('5 credits');
      expect(description, name).not.toMatch(/PRICE_/);
      // The preview's limit as an amount, never the variable that sets it.
      expect(description, name).toContain('more than 2,000 matches a day');
      expect(description, name).not.toMatch(/MONITOR_PREVIEW|REDDIT_STREAM/);
    }
  });
});
