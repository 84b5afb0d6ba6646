import { describe, expect, it } from 'vitest';
import { locateComment, resolveTarget } from './publish.target.ts';

const draft = { id: 'gen_1', type: 'reply' as const, status: 'completed', post_id: 't3_post', subreddit: 'r/node', title: null, body: 'Try Kysely.' };
const reader = (found: object) => async () => ({ ...draft, ...found });
const noDraft = async () => {
  throw new Error('no draft');
};

describe('where a publication goes, for the rails', () => {
  it('a post is in its subreddit and starts no thread; a comment under a t3_ post is in that thread, its subreddit unknown', async () => {
    expect(await resolveTarget('acc', { type: 'post', subreddit: 'r/Node', title: ' Tips ', body: 'b' }, noDraft)).toMatchObject({ subreddit: 'r/Node', thread: null, title: 'Tips' });
    expect(await resolveTarget('acc', { type: 'comment', parent: 't3_abc', body: 'b' }, noDraft)).toMatchObject({ target: 't3_abc', subreddit: null, thread: 't3_abc' });
    expect(await resolveTarget('acc', { type: 'comment', parent: 't1_def', body: 'b' }, noDraft)).toMatchObject({ target: 't1_def', subreddit: null, thread: null });
  });

  it('a reply draft goes under what it answers, in its thread and subreddit; an older draft without them answers its post', async () => {
    const reply = await resolveTarget('acc', { generation_id: 'gen_1' }, reader({ reply_to: 't1_c', thread_id: 't3_t' }));
    expect(reply).toMatchObject({ kind: 'comment', target: 't1_c', thread: 't3_t', subreddit: 'r/node', generationId: 'gen_1' });
    expect(await resolveTarget('acc', { generation_id: 'gen_1' }, reader({}))).toMatchObject({ target: 't3_post', thread: 't3_post', subreddit: 'r/node' });
    const post = await resolveTarget('acc', { generation_id: 'gen_1' }, reader({ type: 'post', post_id: null, title: 'T' }));
    expect(post).toMatchObject({ kind: 'post', target: 'r/node', subreddit: 'r/node', thread: null });
  });

  it('locate places a comment sent as text; it is not asked for drafts or posts, and when it cannot tell the parent\'s id stands', async () => {
    const asked: string[] = [];
    const locate = async (_account: string, fullname: string) => (asked.push(fullname), fullname === 't1_known' ? { subreddit: 'r/node', thread: 't3_p' } : null);
    const known = await resolveTarget('acc', { type: 'comment', parent: 't1_known', body: 'b' }, noDraft);
    expect(await locateComment('acc', known, locate)).toMatchObject({ subreddit: 'r/node', thread: 't3_p' });
    const unknown = await resolveTarget('acc', { type: 'comment', parent: 't3_new', body: 'b' }, noDraft);
    expect(await locateComment('acc', unknown, locate)).toMatchObject({ subreddit: null, thread: 't3_new' });
    expect(await locateComment('acc', unknown, undefined)).toBe(unknown);
    await locateComment('acc', await resolveTarget('acc', { generation_id: 'gen_1' }, reader({})), locate);
    expect(asked).toEqual(['t1_known', 't3_new']);
  });
});
