/**
 * The one code span (text.ts), in both its faces: hostile values stay inside the span, shown as typed, with
 * `&<>` escaped and nothing that could close the span, link, mention, or hide part of the value.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeSpan, listCodeSpan } from '../../../src/slack/kit/text.js';

const LOOK_ALIKE = '\u02CB';
/** One span, whole: opens and closes once, and nothing between could close it or start a new line. */
const ONE_SPAN = /^`[^`\n\r]+`$/;
/** Every `&` starts one of Slack's three escapes; no raw `<` or `>`. */
const ESCAPED = /^(?:[^&<>]|&amp;|&lt;|&gt;)*$/;
const HIDDEN = /[\p{Cc}\u061C\u200B-\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/u;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe.each([
  ['codeSpan', codeSpan, LOOK_ALIKE, ''],
  ['listCodeSpan', listCodeSpan, ' ', '—'],
] as const)('%s', (_name, span, backtick, empty) => {
  it.each([
    ['<!channel> <!here|here> <!everyone>', '`&lt;!channel&gt; &lt;!here|here&gt; &lt;!everyone&gt;`'],
    ['<@U0ADMIN01>', '`&lt;@U0ADMIN01&gt;`'],
    ['<https://evil.example|click>', '`&lt;https://evil.example|click&gt;`'],
    ['<!date^1^{date}|x>', '`&lt;!date^1^{date}|x&gt;`'],
    // Entities are text: shown as typed, never decoded into a control character.
    ['&lt;!here&gt; &amp; &#60;', '`&amp;lt;!here&amp;gt; &amp;amp; &amp;#60;`'],
    ['a & b', '`a &amp; b`'],
  ])('escapes Slack control characters: %j', (value, expected) => {
    expect(span(value)).toBe(expected);
  });

  it('never lets a backtick close the span', () => {
    expect(span('a`b')).toBe(`\`a${backtick}b\``);
    expect(span('x```y')).toMatch(ONE_SPAN);
    expect(span('`<!here>`')).toMatch(ONE_SPAN);
    expect(span('`<!here>`')).toContain('&lt;!here&gt;');
  });

  it('keeps the value on one line, without control, bidi or invisible characters', () => {
    expect(span('a\nb\r\nc\td')).toBe('`a b c d`');
    expect(span('a\u2028b\u2029c')).toBe('`a b c`');
    expect(span('ad\u0000min\u0007')).toBe('`admin`');
    expect(span('evil\u202Egnp.exe')).toBe('`evilgnp.exe`');
    expect(span('ac\u200Bme\uFEFF.example\u2060')).toBe('`acme.example`');
    expect(span('x\uD800y')).toBe('`x\uFFFDy`');
  });

  it('shows an empty value as the placeholder, never as an empty span', () => {
    for (const v of ['', '   ', '\n\t', '\u200B', '\u0000']) expect(span(v)).toBe(empty);
    if (backtick === ' ') expect(span('```')).toBe(empty);
  });

  it('takes numbers', () => {
    expect(span(3001)).toBe('`3001`');
  });

  it('cuts after escaping, never inside an entity, within the limit', () => {
    expect(span(`${'a'.repeat(8)}<&>`, 13)).toBe('`aaaaaaaa&lt;…`');
    expect(span(`${'a'.repeat(8)}<&>`, 12)).toBe('`aaaaaaaa…`');
    expect(span('&'.repeat(100), 20)).toBe(`\`${'&amp;'.repeat(3)}…\``);
  });

  it('whatever the value: one escaped span (or the placeholder), nothing hidden, within the limit', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.oneof(
            fc.constantFrom('<', '>', '&', '`', '|', '!', '@', '#', '^', ';', 'a', ' ', '\n', '\r', '\t'),
            fc.constantFrom('\u0000', '\u0085', '\u200B', '\u200D', '\u202E', '\u2066', '\uFEFF', '\u061C'),
            fc.constantFrom('\uD83D', '\uDE00', '\u{1F600}', 'amp;', 'lt;', 'gt;', '#60;'),
          ),
        }),
        fc.integer({ min: 3, max: 80 }),
        (value, max) => {
          const out = span(value, max);
          if (out === empty) return;
          expect(out).toMatch(ONE_SPAN);
          expect(out.length).toBeLessThanOrEqual(max + 2);
          const inner = out.slice(1, -1);
          expect(inner).toMatch(ESCAPED);
          expect(inner).not.toMatch(HIDDEN);
          expect(inner).not.toMatch(LONE_SURROGATE);
          expect(inner).toBe(inner.trim());
        },
      ),
      { numRuns: 2000 },
    );
  });
});
