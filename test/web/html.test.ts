import { describe, expect, it } from 'vitest';
import { escapeHtml, Html, html, layout, PAGE_HEADERS } from '../../src/web/html.js';

describe('escapeHtml', () => {
  it('escapes the five characters that matter in text and attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
});

describe('html', () => {
  it('escapes interpolated values, including inside attributes', () => {
    const name = '"><script>alert(1)</script>';
    expect(html`<input value="${name}">`.value).toBe(
      '<input value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">',
    );
  });

  it('keeps Html values and arrays of them as they are, and drops empty values', () => {
    const items = ['a<b', 'c'].map((s) => html`<li>${s}</li>`);
    expect(html`<ul>${items}</ul>${undefined}${null}${false}${0}`.value).toBe(
      '<ul><li>a&lt;b</li><li>c</li></ul>0',
    );
    expect(html`${new Html('<br>')}`.value).toBe('<br>');
  });
});

describe('layout', () => {
  it('escapes the title and keeps the status', () => {
    const page = layout('<Vigil>', html`<p>x</p>`, 410);
    expect(page.status).toBe(410);
    expect(page.body.value).toContain('<title>&lt;Vigil&gt; · Vigil</title>');
    expect(page.body.value).toContain('<h1>&lt;Vigil&gt;</h1>');
    expect(page.body.value).toContain('<meta name="robots" content="noindex">');
    expect(page.body.value).not.toContain('<script');
  });
});

describe('PAGE_HEADERS', () => {
  it('forbid caching, framing, scripts and referrers', () => {
    expect(PAGE_HEADERS['cache-control']).toBe('no-store');
    expect(PAGE_HEADERS['x-frame-options']).toBe('DENY');
    expect(PAGE_HEADERS['referrer-policy']).toBe('no-referrer');
    expect(PAGE_HEADERS['content-security-policy']).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
  });
});
