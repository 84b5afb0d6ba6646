/**
 * What marks a post, comment or publication as the demo source's (REDDIT_SOURCE=demo) rather than
 * Reddit's: its id. The demo issues base-36 ids of 13 characters that begin with "demo" (t3_demo000000001);
 * Reddit numbers its things in one sequence per kind and had reached 7 characters by 2026, so 13 lie
 * some 10^9 times further on than it has counted. The label therefore stays true of stored rows
 * whatever the instance's source is later, and needs no column of its own.
 */
export type DataSource = 'reddit' | 'demo';

const DEMO_ID = /^(t[0-9]_)?demo[0-9a-z]{9}$/;

/** The demo's id number `n` (0 ≤ n < 36^9), without a kind prefix. */
export const demoId = (n: number): string => `demo${n.toString(36).padStart(9, '0')}`;

/** Where a thing with this id (a fullname such as "t3_…", or a bare base-36 id) comes from. */
export const sourceOf = (id: string): DataSource => (DEMO_ID.test(id) ? 'demo' : 'reddit');
