import { describe, expect, it } from 'vitest';
import { slackDate } from '../../../src/slack/kit/dates.js';
import {
  decodeEntities,
  escapeMrkdwn,
  highlightToMrkdwn,
  plainText,
  portalLink,
  safePortalUrl,
  truncate,
  truncatePlain,
  userMention,
} from '../../../src/slack/kit/text.js';

const SHY = '\u00AD';
const WJ = '\u2060';
const ZWSP = '\u200B';

describe('escapeMrkdwn', () => {
  it.each([
    // Mentions and Slack control sequences
    ['<!channel> now', '&lt;!channel&gt; now'],
    ['<!here|here>', '&lt;!here|here&gt;'],
    ['<@U123ABC>', '&lt;@U123ABC&gt;'],
    ['<#C0123|general>', '&lt;#C0123|general&gt;'],
    ['<!subteam^S1|@oncall>', '&lt;!subteam^S1|@oncall&gt;'],
    ['<!date^1^{date}|x>', '&lt;!date^1^{date}|x&gt;'],
    ['@here and @channel, @everyone', `@${WJ}here and @${WJ}channel, @${WJ}everyone`],
    // Links: explicit, bare URLs, e-mails, domains, IPs
    ['<https://evil.com|click me>', '&lt;hxxps://evil[.]com|click me&gt;'],
    ['see https://evil.com/path', 'see hxxps://evil[.]com/path'],
    ['HTTP://Evil.COM/x?a=1&b=2', 'hxxp://Evil[.]COM/x?a=1&amp;b=2'],
    ['ftp://files.evil.net/a', 'ftp[:]//files[.]evil[.]net/a'],
    ['mail user@evil.com now', 'mail user@evil[.]com now'],
    // Even an e-mail's local part: a cut message could otherwise leave `portal.evil.com@…` linkable.
    ['j.doe@evil.com', 'j[.]doe@evil[.]com'],
    ['visit evil.com.', 'visit evil[.]com.'],
    ['www.sub.evil.co.uk', 'www[.]sub[.]evil[.]co[.]uk'],
    ['пример.рф', 'пример[.]рф'],
    ['c2 at 10.0.0.1', 'c2 at 10[.]0[.]0[.]1'],
    ['version 1.2.3, e.g. this', 'version 1.2.3, e.g. this'],
    // Judged on every prefix, since a cut message could end right after `evil.co` or `10.0.0.1`.
    ['evil.co10.0.0.1', 'evil[.]co10[.]0[.]0[.]1'],
    ['10.0.0.12345', '10[.]0[.]0[.]12345'],
    // Formatting markers
    ['*bold*', '\u2217bold\u2217'],
    ['_italic_', '\u02CDitalic\u02CD'],
    ['~strike~', '\u223Cstrike\u223C'],
    ['`code`', '\u02CBcode\u02CB'],
    ['```block```', '\u02CB\u02CB\u02CBblock\u02CB\u02CB\u02CB'],
    ['＊wide＊ ＿x＿', '\uFE61wide\uFE61 \u02CDx\u02CD'],
    ['snake_case_name', 'snake_case_name'],
    ['__init__ and a_', '\u02CD\u02CDinit\u02CD\u02CD and a\u02CD'],
    ['> quoted', `${SHY}&gt; quoted`],
    ['line\n  > quoted\n＞ wide', `line\n  ${SHY}&gt; quoted\n${SHY}＞ wide`],
    ['a > b', 'a &gt; b'],
    // Entities: decoded once, then escaped
    ['&amp; &lt;b&gt; &quot;', '&amp; &lt;b&gt; "'],
    ['&#39;&#x27;&#X41;', "''A"],
    ['&#60;!channel&#62;', '&lt;!channel&gt;'],
    ['&#x3C;@U1&#x3E;', '&lt;@U1&gt;'],
    ['&amp;lt;', '&amp;lt;'],
    ['&unknown; &#0; &#xD800; &#99999999;', '&amp;unknown; \uFFFD \uFFFD \uFFFD'],
    ['&ast;x&ast; &lowbar;', '\u2217x\u2217 \u02CD'],
    // Characters: controls, bidi overrides, lone surrogates
    ['a\u0000b\u0007c\td', 'abc d'],
    ['x\r\ny\u2028z', 'x\ny\nz'],
    ['\u202Egnp.exe', 'gnp[.]exe'],
    ['bad\uD800pair', 'bad\uFFFDpair'],
    ['😀 ok', '😀 ok'],
  ])('%j → %j', (input, expected) => {
    expect(escapeMrkdwn(input)).toBe(expected);
  });

  it('never leaves a raw < or > in its output', () => {
    const nasty = '<<!channel>> <<@U1>> <http://x|y> &lt;!here&gt; <!--x--> >>';
    expect(escapeMrkdwn(nasty)).not.toMatch(/[<>]/);
  });
});

describe('decodeEntities', () => {
  it('decodes named and numeric entities exactly once', () => {
    expect(decodeEntities('&amp;amp; &#38;lt; &hellip; &NBSP;')).toBe('&amp; &lt; … \u00A0');
  });
});

describe('highlightToMrkdwn', () => {
  it.each([
    ['foo <mark>bar</mark> baz', 'foo *bar* baz'],
    ['<mark>a<mark>b</mark>c</mark> d', '*abc* d'],
    ['<mark>one</mark><mark>two</mark>', '*onetwo*'],
    ['<mark>one</mark> <mark>two</mark>', '*one two*'],
    ['&lt;mark&gt;x&lt;/mark&gt;', '&lt;mark&gt;x&lt;/mark&gt;'],
    ['&amp;lt;mark&amp;gt;', '&amp;lt;mark&amp;gt;'],
    ['<MARK>Upper</MARK>', '*Upper*'],
    ['<mark class="hl">attr</mark>', '*attr*'],
    ['x<mark>evil</mark>.com', `x${ZWSP}*evil*[.]com`],
    ['pre<mark>mid</mark>post', `pre${ZWSP}*mid*${ZWSP}post`],
    ['<mark> spaced </mark>out', '*spaced* out'],
    ['<mark> </mark>&gt; not a quote', `${SHY}&gt; not a quote`],
    ['<mark>unclosed', '*unclosed*'],
    ['</mark>stray close', 'stray close'],
    ['<mark>*x* _y_</mark>', '*\u2217x\u2217 \u02CDy\u02CD*'],
    ['<mark><!channel></mark>', '*&lt;!channel&gt;*'],
    ['<b>bold</b> <script>alert(1)</script> <br/>end', 'bold alert(1) end'],
    ['a <!-- hidden --> b', 'a b'],
    ['a < b and c > d', 'a &lt; b and c &gt; d'],
    ['  many\n\n  spaces\t here ', 'many spaces here'],
    ['<mark>https://evil.com/a</mark>', '*hxxps://evil[.]com/a*'],
    ['', ''],
  ])('%j → %j', (input, expected) => {
    expect(highlightToMrkdwn(input)).toBe(expected);
  });
});

describe('plainText', () => {
  it('decodes, strips controls and line breaks, collapses whitespace and caps the length', () => {
    expect(plainText('  a\n\tb  &amp;  c\u0000 ', 75)).toBe('a b & c');
    expect(plainText('abcdefghij', 5)).toBe('abcd…');
    expect(plainText('😀😀😀', 4)).toBe('😀…');
  });

  it('keeps any < from reading as a Slack token', () => {
    expect(plainText('<!channel> <@U1>', 75)).toBe(`<${WJ}!channel> <${WJ}@U1>`);
  });

  it('leaves emoji shortcodes alone', () => {
    expect(plainText(':fire: hot', 75)).toBe(':fire: hot');
  });
});

describe('truncate', () => {
  it('returns short text unchanged and caps long text, marker included', () => {
    expect(truncate('short', 10)).toBe('short');
    expect(truncate('abcdefghij', 5)).toBe('abcd…');
    expect(truncate('abcdefghij', 5, ' [more]')).toBe('abcde');
    expect(truncate('abcdefghij', 0)).toBe('');
  });

  it('never cuts inside an entity', () => {
    expect(truncate('abc &amp; def', 8)).toBe('abc…');
    expect(truncate('abc &amp; def', 10)).toBe('abc &amp;…');
  });

  it('never cuts a surrogate pair', () => {
    const out = truncate('😀😀😀😀', 4);
    expect(out).toBe('😀…');
  });

  it('never cuts a <!date> token or a link', () => {
    const date = slackDate('2026-11-21T09:00:00Z');
    expect(truncate(`when ${date} ok`, 20)).toBe('when…');
    expect(truncate(`when ${date} ok`, date.length + 7)).toBe(`when ${date}…`);
    expect(truncate('x <https://app.flare.io/a|Open> y', 10)).toBe('x…');
  });

  it('never leaves an opening * without its closing one', () => {
    expect(truncate('see *bold words* here', 12)).toBe('see…');
    expect(truncate('see *bold* here and more', 12)).toBe('see *bold*…');
    expect(truncate(`pre${ZWSP}*mid* more text`, 8)).toBe('pre…');
  });

  it('cuts fullwidth and look-alike markers like any other character', () => {
    expect(truncate('\u2217\u2217\u2217\u2217', 3)).toBe('\u2217\u2217…');
  });
});

describe('truncatePlain', () => {
  it('never cuts a surrogate pair', () => {
    expect(truncatePlain('a😀b', 3)).toBe('a…');
    expect(truncatePlain('abc', 3)).toBe('abc');
  });
});

describe('slackDate', () => {
  it('renders a <!date> token with a UTC fallback', () => {
    expect(slackDate('2026-11-21T09:00:00Z')).toBe(
      '<!date^1795251600^{date_short_pretty} {time}|2026-11-21 09:00 UTC>',
    );
    expect(slackDate('2026-11-21T10:00:00+01:00', '{date}')).toBe(
      '<!date^1795251600^{date}|2026-11-21 09:00 UTC>',
    );
    expect(slackDate(Date.UTC(2026, 0, 2, 3, 4, 59), '{date_num}', 'Jan 2')).toBe(
      '<!date^1767323099^{date_num}|Jan 2>',
    );
  });

  it('keeps caller text from breaking out of the token', () => {
    expect(slackDate('2026-11-21T09:00:00Z', '{date}|<x>^y', 'a|b > c')).toBe(
      '<!date^1795251600^{date}xy|a b &gt; c>',
    );
  });

  it('returns escaped text for anything that is not a date', () => {
    expect(slackDate('not a date <!channel>')).toBe('not a date &lt;!channel&gt;');
    expect(slackDate('1')).toBe('1');
    expect(slackDate('2026-13-45T00:00:00Z')).toBe('2026-13-45T00:00:00Z');
    expect(slackDate(Number.NaN)).toBe('NaN');
    expect(slackDate(-1)).toBe('-1');
  });
});

describe('safePortalUrl', () => {
  it('accepts https URLs on allowed portal hosts, escaped for a <url|label> link', () => {
    expect(safePortalUrl('https://app.flare.io/#/activity/1')).toBe('https://app.flare.io/#/activity/1');
    expect(safePortalUrl('https://APP.EU.FLARE.IO/x')).toBe('https://app.eu.flare.io/x');
    expect(safePortalUrl('https://app.flare.io/x?a=1&b=|y#>')).toBe(
      'https://app.flare.io/x?a=1&amp;b=%7Cy#%3E',
    );
    expect(safePortalUrl('https://portal.example/x', ['portal.example'])).toBe('https://portal.example/x');
  });

  it.each([
    'http://app.flare.io/x',
    'https://evil.com/x',
    'https://app.flare.io.evil.com/x',
    'https://evil.com@app.flare.io.evil.com/',
    'https://user:pw@app.flare.io/x',
    'https://app.flare.io:8443/x',
    'javascript:alert(1)',
    'not a url',
    '',
  ])('rejects %j', (url) => {
    expect(safePortalUrl(url)).toBeUndefined();
  });

  it('builds a link only from an allowed URL', () => {
    expect(portalLink('https://app.flare.io/a', 'Open in Flare')).toBe(
      '<https://app.flare.io/a|Open in Flare>',
    );
    expect(portalLink('https://evil.com/a', 'Open')).toBeUndefined();
    expect(portalLink(undefined, 'Open')).toBeUndefined();
  });
});

describe('userMention', () => {
  it('mentions only ids shaped like Slack user ids', () => {
    expect(userMention('U0123ABC')).toBe('<@U0123ABC>');
    expect(userMention('W0123ABC')).toBe('<@W0123ABC>');
    expect(userMention('U1>|<!channel')).toBeUndefined();
    expect(userMention('u0123abc')).toBeUndefined();
    expect(userMention('C0123ABC')).toBeUndefined();
  });
});

describe('adversarial input sizes', () => {
  it('stays linear on 200k-character inputs built to make regexes backtrack', () => {
    const n = 200_000;
    const inputs = [
      'A'.repeat(n),
      `${'A'.repeat(n)}.`,
      'a.'.repeat(n / 2),
      `a${' '.repeat(n)}b`,
      '*'.repeat(n),
      '<a '.repeat(n / 3),
      '<!--'.repeat(n / 4),
      '&#'.repeat(n / 2),
      '<mark>'.repeat(n / 6),
      '\n  '.repeat(n / 3),
      'http://'.repeat(n / 7),
    ];
    const started = performance.now();
    for (const input of inputs) {
      expect(escapeMrkdwn(input).length).toBeGreaterThan(0);
      expect(highlightToMrkdwn(input).length).toBeLessThanOrEqual(input.length * 3);
      expect(truncate(escapeMrkdwn(input), 3000).length).toBeLessThanOrEqual(3000);
    }
    // Quadratic behaviour takes minutes here; linear takes well under a second.
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
