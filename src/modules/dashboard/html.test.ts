import { describe, expect, it } from 'vitest';
import { html, safeHref } from './views/html.ts';

describe('html template', () => {
  it('escapes interpolated text, including quotes for attributes', () => {
    const evil = `"><script>alert('x')</script>&`;
    expect(html`<a title="${evil}">${evil}</a>`.value).toBe(
      '<a title="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;">&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;</a>',
    );
  });

  it('nests templates and lists without double escaping, and drops null, undefined and false', () => {
    const items = ['<b>', 'c'].map((t) => html`<li>${t}</li>`);
    expect(html`<ul>${items}${null}${undefined}${false}</ul>`.value).toBe('<ul><li>&lt;b&gt;</li><li>c</li></ul>');
  });

  it('lets only http(s) URLs be links', () => {
    expect(safeHref('https://www.reddit.com/r/x')).toBe('https://www.reddit.com/r/x');
    expect(safeHref('javascript:alert(1)')).toBeNull();
  });
});
