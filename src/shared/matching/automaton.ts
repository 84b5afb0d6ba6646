/**
 * An Aho-Corasick automaton over UTF-16 code units that reports every occurrence of every pattern
 * with its position (word mode's boundary checks and the part of an item a hit is in need both).
 *
 * Written here rather than taken from npm because no package tried does both things a server with
 * 10,000 monitors needs (docs/api/monitors.md, "Library"): build in time linear in the patterns'
 * length (a monitor's change rebuilds the index; `@monyone/aho-corasick/fast` took 20 s for 100,000
 * terms, its free-slot search being quadratic) and scan at hundreds of thousands of items a second
 * (`modern-ahocorasick` segments graphemes and scans 16 times slower).
 *
 * Layout: a trie in typed arrays; a node's children as a sibling list (past the root a node has a
 * handful), the root's in a dense table (every scan step that falls back lands there).
 * `fail` is the longest proper suffix that is a trie node; `report` the nearest node on the fail chain
 * (itself included) where a pattern ends, so a scan walks only to hits, never along empty suffixes.
 */
export class Automaton {
  private readonly rootNext = new Int32Array(0x10000);
  private readonly label: Uint16Array;
  private readonly firstChild: Int32Array;
  private readonly nextSibling: Int32Array;
  private readonly fail: Int32Array;
  /** The pattern that ends at a node (patterns are distinct), or -1. */
  private readonly ends: Int32Array;
  private readonly report: Int32Array;
  private readonly lengths: Int32Array;

  /** `patterns` must be distinct and non-empty; a hit reports a pattern by its index here. */
  constructor(patterns: readonly string[]) {
    let units = 1;
    for (const pattern of patterns) units += pattern.length;
    this.label = new Uint16Array(units);
    this.firstChild = new Int32Array(units).fill(-1);
    this.nextSibling = new Int32Array(units).fill(-1);
    this.fail = new Int32Array(units);
    this.ends = new Int32Array(units).fill(-1);
    this.report = new Int32Array(units).fill(-1);
    this.lengths = Int32Array.from(patterns, (pattern) => pattern.length);
    this.rootNext.fill(-1);
    let nodes = 1;
    patterns.forEach((pattern, index) => {
      let node = 0;
      for (let i = 0; i < pattern.length; i++) {
        const unit = pattern.charCodeAt(i);
        let next = this.child(node, unit);
        if (next < 0) {
          next = nodes++;
          this.label[next] = unit;
          if (node === 0) this.rootNext[unit] = next;
          else (this.nextSibling[next] = this.firstChild[node]!), (this.firstChild[node] = next);
        }
        node = next;
      }
      this.ends[node] = index;
    });
    this.linkFailures(nodes);
  }

  private child(node: number, unit: number): number {
    if (node === 0) return this.rootNext[unit]!;
    for (let next = this.firstChild[node]!; next >= 0; next = this.nextSibling[next]!) if (this.label[next] === unit) return next;
    return -1;
  }

  /** The state after reading `unit` in `node`: the longest suffix of what was read that is a trie node. */
  private step(node: number, unit: number): number {
    for (;;) {
      const next = this.child(node, unit);
      if (next >= 0) return next;
      if (node === 0) return 0;
      node = this.fail[node]!;
    }
  }

  /**
   * Breadth first, so a node's fail target (shallower) has its own links before the node is reached.
   * A root child fails to the root (0, the arrays' default); a deeper child to what its unit reaches
   * from its parent's fail target.
   */
  private linkFailures(nodes: number): void {
    const queue = new Int32Array(nodes);
    let tail = 0;
    for (const next of this.rootNext) if (next >= 0) queue[tail++] = next;
    for (let head = 0; head < tail; head++) {
      const node = queue[head]!;
      this.report[node] = this.ends[node]! >= 0 ? node : this.report[this.fail[node]!]!;
      for (let next = this.firstChild[node]!; next >= 0; next = this.nextSibling[next]!) {
        this.fail[next] = this.step(this.fail[node]!, this.label[next]!);
        queue[tail++] = next;
      }
    }
  }

  /** Calls `hit` for every occurrence, in the order the occurrences end: pattern index, begin, end (exclusive). */
  forEachMatch(text: string, hit: (pattern: number, begin: number, end: number) => void): void {
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      node = this.step(node, text.charCodeAt(i));
      for (let at = this.report[node]!; at >= 0; at = this.report[this.fail[at]!]!) {
        const pattern = this.ends[at]!;
        hit(pattern, i + 1 - this.lengths[pattern]!, i + 1);
      }
    }
  }
}
