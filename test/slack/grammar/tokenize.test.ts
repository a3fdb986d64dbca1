import { describe, expect, it } from 'vitest';
import { parseRef, type Token, tokenize } from '../../../src/slack/grammar/tokenize.js';

function tokens(text: string): Token[] {
  const result = tokenize(text);
  if (!result.ok) throw new Error(`expected tokens, got ${result.error.message}`);
  return result.tokens;
}

/** The interesting part of each token, so tables stay readable. */
function brief(text: string): Array<{ key?: string; value: string; parts: string[] }> {
  return tokens(text).map((t) =>
    t.key === undefined ? { value: t.value, parts: t.parts } : { key: t.key, value: t.value, parts: t.parts },
  );
}

describe('tokenize', () => {
  it.each<[string, ReturnType<typeof brief>]>([
    ['', []],
    ['   \t ', []],
    [
      'events 12',
      [
        { value: 'events', parts: ['events'] },
        { value: '12', parts: ['12'] },
      ],
    ],
    [
      'a\u00a0b\u2003c',
      [
        { value: 'a', parts: ['a'] },
        { value: 'b', parts: ['b'] },
        { value: 'c', parts: ['c'] },
      ],
    ],
    ['severity:high,critical', [{ key: 'severity', value: 'high,critical', parts: ['high', 'critical'] }]],
    ['Severity:High', [{ key: 'severity', value: 'High', parts: ['High'] }]],
    ['keyword:"acme corp"', [{ key: 'keyword', value: 'acme corp', parts: ['acme corp'] }]],
    ["keyword:'acme corp'", [{ key: 'keyword', value: 'acme corp', parts: ['acme corp'] }]],
    ['keyword:“acme corp”', [{ key: 'keyword', value: 'acme corp', parts: ['acme corp'] }]],
    ['keyword:‘acme corp’', [{ key: 'keyword', value: 'acme corp', parts: ['acme corp'] }]],
    ['keyword:„acme corp“', [{ key: 'keyword', value: 'acme corp', parts: ['acme corp'] }]],
    ['"two words"', [{ value: 'two words', parts: ['two words'] }]],
    [
      'tag:vip,"needs review",x',
      [{ key: 'tag', value: 'vip,needs review,x', parts: ['vip', 'needs review', 'x'] }],
    ],
    ['keyword:"a, b"', [{ key: 'keyword', value: 'a, b', parts: ['a, b'] }]],
    ["brand:O'Brien", [{ key: 'brand', value: "O'Brien", parts: ["O'Brien"] }]],
    ['brand:O’Brien', [{ key: 'brand', value: "O'Brien", parts: ["O'Brien"] }]],
    [
      'name:"Ada \'the\' Lovelace"',
      [{ key: 'name', value: "Ada 'the' Lovelace", parts: ["Ada 'the' Lovelace"] }],
    ],
    ['since:2026-11-01T10:00Z', [{ key: 'since', value: '2026-11-01T10:00Z', parts: ['2026-11-01T10:00Z'] }]],
    ['at:09:00', [{ key: 'at', value: '09:00', parts: ['09:00'] }]],
    ['10:00', [{ value: '10:00', parts: ['10:00'] }]],
    ['leak/src/a:b', [{ value: 'leak/src/a:b', parts: ['leak/src/a:b'] }]],
    ['severity:', [{ key: 'severity', value: '', parts: [''] }]],
    ['tag:a,', [{ key: 'tag', value: 'a,', parts: ['a', ''] }]],
    ['"a:b"', [{ value: 'a:b', parts: ['a:b'] }]],
    ['keyword:""', [{ key: 'keyword', value: '', parts: [''] }]],
  ])('%j', (text, expected) => {
    expect(brief(text)).toEqual(expected);
  });

  describe('Slack escaping', () => {
    it.each<[string, string]>([
      ['keyword:AT&amp;T', 'AT&T'],
      ['keyword:&lt;script&gt;', '<script>'],
      ['keyword:&amp;lt;', '&lt;'],
      ['keyword:&quot;', '&quot;'],
      ['keyword:a&b', 'a&b'],
    ])('%j decodes to %j', (text, value) => {
      expect(tokens(text)[0]?.value).toBe(value);
    });

    it('keeps a channel reference with its id', () => {
      const [token] = tokens('<#C0123ABCD|soc-alerts>');
      expect(token).toMatchObject({
        value: '#soc-alerts',
        ref: { type: 'channel', id: 'C0123ABCD', name: 'soc-alerts' },
      });
    });

    it('keeps a channel reference without a name', () => {
      expect(tokens('<#C0123ABCD|>')[0]?.ref).toEqual({ type: 'channel', id: 'C0123ABCD' });
      expect(tokens('<#C0123ABCD>')[0]?.value).toBe('#C0123ABCD');
    });

    it('keeps user and user group references', () => {
      expect(tokens('<@U024BE7LH|bob>')[0]).toMatchObject({
        value: '@bob',
        ref: { type: 'user', id: 'U024BE7LH', name: 'bob' },
      });
      expect(tokens('group:<!subteam^S0123ABC|@security>')[0]).toMatchObject({
        key: 'group',
        value: '@security',
        ref: { type: 'usergroup', id: 'S0123ABC', name: '@security' },
      });
    });

    it('reads auto-linked values as typed', () => {
      expect(tokens('domain:<http://example.com|example.com>')[0]).toMatchObject({
        key: 'domain',
        value: 'example.com',
      });
      expect(tokens('email:<mailto:alice@example.com|alice@example.com>')[0]).toMatchObject({
        key: 'email',
        value: 'alice@example.com',
      });
      expect(tokens('<https://example.com/a?b=1&amp;c=2>')[0]?.value).toBe('https://example.com/a?b=1&c=2');
    });

    it('keeps a reference with spaces in its label as one token', () => {
      expect(brief('x:<https://a.example|two words> y')).toEqual([
        { key: 'x', value: 'two words', parts: ['two words'] },
        { value: 'y', parts: ['y'] },
      ]);
    });

    it('treats typed brackets (sent escaped) as text, never as a reference', () => {
      const [token] = tokens('&lt;#C0123ABCD|x&gt;');
      expect(token?.value).toBe('<#C0123ABCD|x>');
      expect(token?.ref).toBeUndefined();
    });

    it('treats a lone or unknown bracket as text', () => {
      expect(tokens('a<b')[0]?.value).toBe('a<b');
      expect(tokens('<foo>')[0]?.value).toBe('<foo>');
    });

    it('gives no ref when the value mixes a reference and text', () => {
      const [token] = tokens('<#C0123ABCD|soc>x');
      expect(token?.value).toBe('#socx');
      expect(token?.ref).toBeUndefined();
    });
  });

  describe('unclosed quotes', () => {
    it.each<[string, string, number]>([
      ['keyword:"acme corp', 'Unclosed quote at character 9: `keyword:"acme corp`.', 8],
      ['events 12 keyword:“acme', 'Unclosed quote at character 19: `keyword:"acme`.', 18],
      ["'x", "Unclosed quote at character 1: `'x`.", 0],
      ['tag:a,"b', 'Unclosed quote at character 7: `tag:a,"b`.', 6],
      ['keyword:"x\' y', 'Unclosed quote at character 9: `keyword:"x\' y`.', 8],
      ['keyword:"&lt;b&gt;', 'Unclosed quote at character 9: `keyword:"<b>`.', 8],
      ['keyword:"a`b', 'Unclosed quote at character 9: `keyword:"a b`.', 8],
    ])('%j', (text, message, position) => {
      expect(tokenize(text)).toEqual({ ok: false, error: { message, position } });
    });
  });

  it('records where each token starts', () => {
    expect(tokens('  a  bb:c').map((t) => t.start)).toEqual([2, 5]);
  });
});

describe('parseRef', () => {
  it.each<[string, ReturnType<typeof parseRef>]>([
    ['#C123|general', { type: 'channel', id: 'C123', name: 'general' }],
    ['#G123', { type: 'channel', id: 'G123' }],
    ['@W123|ann', { type: 'user', id: 'W123', name: 'ann' }],
    ['!subteam^S123', { type: 'usergroup', id: 'S123' }],
    ['!here', { type: 'special', name: 'here' }],
    ['!channel|channel', { type: 'special', name: 'channel' }],
    ['mailto:a@b.co|a@b.co', { type: 'link', url: 'mailto:a@b.co', label: 'a@b.co' }],
    ['https://x.example', { type: 'link', url: 'https://x.example' }],
    ['#c123', undefined],
    ['script', undefined],
    ['javascript:alert(1)', undefined],
  ])('%j', (inner, expected) => {
    expect(parseRef(inner)).toEqual(expected);
  });
});
