import { describe, expect, it } from 'vitest';
import { sourceOf } from '../../../shared/demo.ts';
import { DEMO_TRICKLE } from './demo.data.ts';
import { TRICKLE_WINDOW, aboutThing, demoThings, listingPage, searchPosts } from './demo.content.ts';

const at = (iso: string) => Date.parse(iso) / 1000;
const names = (things: ReturnType<typeof demoThings>) => things.map((thing) => String(thing.data.name));

describe('the demo source at a given time', () => {
  it('lists the trickle newest first, one sample a slot, then the fixed posts dated before it', () => {
    const now = at('2026-11-23T12:00:05Z');
    const posts = demoThings('t3', now, 10);
    const trickled = posts.filter((post) => String(post.data.author).startsWith('demo_sample_'));
    expect(trickled.length).toBe(DEMO_TRICKLE.filter((sample) => sample.kind === 'post').length);
    expect(posts.map((post) => post.created)).toEqual([...posts.map((post) => post.created)].sort((a, b) => b - a));
    expect(trickled[0]!.created).toBeLessThanOrEqual(now);
    expect(trickled.at(-1)!.created).toBeGreaterThan(now - TRICKLE_WINDOW * 10);
    // The fixed posts dated after the 23rd at noon are not out yet.
    expect(posts.filter((post) => !trickled.includes(post)).every((post) => post.created <= now)).toBe(true);
    expect(posts.some((post) => post.data.title === 'kysely vs drizzle for a team new to SQL?')).toBe(false);
    expect(demoThings('t3', at('2026-11-24T00:00:00Z'), 10).some((post) => post.data.title === 'kysely vs drizzle for a team new to SQL?')).toBe(true);
  });

  it('gives each item the same id and time in every process: they follow from the clock alone', () => {
    const now = at('2026-11-23T12:00:05Z');
    expect(names(demoThings('t1', now, 10))).toEqual(names(demoThings('t1', now, 10)));
    // Ten seconds later one slot more is listed on top; what was listed keeps its id.
    const later = names(demoThings('t3', now + 60, 10));
    expect(later).toEqual(expect.arrayContaining(names(demoThings('t3', now, 10)).slice(0, 2)));
  });

  it('labels every post and comment demo by its id, and every author is a demo_ name', () => {
    const things = [...demoThings('t3', at('2026-12-01T00:00:00Z'), 30), ...demoThings('t1', at('2026-12-01T00:00:00Z'), 30)];
    expect(things.map((thing) => sourceOf(String(thing.data.name)))).toEqual(things.map(() => 'demo'));
    expect(things.every((thing) => /^demo_/.test(String(thing.data.author)))).toBe(true);
    expect(sourceOf('t3_1h2k9xq')).toBe('reddit');
  });

  it('pages a listing with limit and after, as Reddit does', () => {
    const things = demoThings('t3', at('2026-12-01T00:00:00Z'), 30);
    const first = listingPage(things, new URLSearchParams({ limit: '3' })).data as { after: string; children: { data: { name: string } }[] };
    expect(first.children.map((child) => child.data.name)).toEqual(names(things).slice(0, 3));
    const second = listingPage(things, new URLSearchParams({ limit: '3', after: first.after })).data as { children: { data: { name: string } }[] };
    expect(second.children.map((child) => child.data.name)).toEqual(names(things).slice(3, 6));
  });

  it("searches titles and self text of the named subreddits for any of the query's terms", () => {
    const posts = demoThings('t3', at('2026-12-01T00:00:00Z'), 30);
    const found = searchPosts(posts, new Set(['typescript', 'node']), new URLSearchParams({ q: 'kysely OR "typed SQL"', sort: 'new' }));
    expect(found.length).toBeGreaterThan(3);
    expect(found.every((post) => ['typescript', 'node'].includes(post.subreddit))).toBe(true);
    expect(found.every((post) => /kysely|typed sql/i.test(`${post.data.title} ${post.data.selftext}`))).toBe(true);
    expect(searchPosts(posts, new Set(['node']), new URLSearchParams({ q: '"no such phrase"' }))).toEqual([]);
  });

  it('answers every subreddit name as public, with Reddit\'s spelling where it has content', () => {
    expect(aboutThing('saas').data).toMatchObject({ display_name: 'SaaS', subreddit_type: 'public', over18: false });
    expect(aboutThing('anything_else').data).toMatchObject({ display_name: 'anything_else', subscribers: 0 });
  });
});
