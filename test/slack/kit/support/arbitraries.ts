/** fast-check arbitraries for hostile upstream data: strings built to break Slack formatting, and events. */
import fc from 'fast-check';
import type { Event } from '../../../../src/api/index.js';
import { EVENT_TYPES, SEVERITIES } from '../../../../src/api/index.js';

/**
 * Every text inside a generated `<mark>` starts with this character and no other generated text contains
 * it, so a test can tell bold that comes from a mark from bold that would come from upstream.
 */
export const MARK = 'ⓜ';

const HOSTILE_ATOMS = [
  '<!channel>',
  '<!here>',
  '<!everyone>',
  '<@U1>',
  '<@W2|bob>',
  '<#C1|general>',
  '<!subteam^S1|@team>',
  '<!date^1^{date}|x>',
  '<http://x|y>',
  '<https://evil.com|click>',
  'https://evil.com/a.php?x=1&y=2',
  'HTTP://EVIL.COM',
  'ftp://files.evil.net',
  'user@evil.com',
  'j.doe@evil.co',
  'evil.com',
  'www.evil.co.uk',
  'пример.рф',
  '10.0.0.1',
  '*',
  '**',
  '_',
  '__',
  '~',
  '`',
  '```',
  '>',
  '\n>',
  '\n  > ',
  '＊',
  '＿',
  '＞',
  '｀',
  '&gt;',
  '&amp;',
  '&lt;',
  '&#60;!channel&#62;',
  '&#x3C;@U1&#x3E;',
  '&lt;mark&gt;',
  '&lt;/mark&gt;',
  '&ast;',
  '&#0;',
  '&',
  '|',
  '^',
  '@here',
  '@channel',
  ':smile:',
  '<',
  '<!--',
  '-->',
  '<b>',
  '</b>',
  '<a href="https://evil.com">',
  '\u202E',
  '\u2028',
  '\u0000',
  '\r\n',
  '\t',
  '\uD800',
  '\uDC00',
  '\u200B',
  '\u2060',
  '\u00AD',
  '\uE000',
  '\uE001',
  '😀',
  ' ',
  '\n',
  '.',
  'word',
];

const atom = fc.oneof(
  { arbitrary: fc.constantFrom(...HOSTILE_ATOMS), weight: 4 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 12 }), weight: 1 },
);

/** Short hostile text. */
export const hostileText: fc.Arbitrary<string> = fc
  .array(atom, { maxLength: 12 })
  .map((parts) => parts.join('').replaceAll(MARK, ''));

/** The same, repeated to 1k–30k characters. */
export const hugeText: fc.Arbitrary<string> = fc
  .tuple(hostileText, fc.integer({ min: 1000, max: 30_000 }))
  .map(([s, n]) => (s || 'x').repeat(Math.ceil(n / Math.max(1, s.length))).slice(0, n));

const markedWord = fc
  .constantFrom('acme', 'Acme Corp', 'admin@acme.com', 'p4ssw0rd', 'acme.com', 'ACME_ID')
  .map((w) => `${MARK}${w}`);

/** A highlight fragment: hostile text with marks around known words (nested, adjacent or unclosed). */
export function fragment(text: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const piece = fc.oneof(
    text,
    markedWord.map((w) => `<mark>${w}</mark>`),
    fc.tuple(markedWord, markedWord).map(([a, b]) => `<MARK>${a}<mark>${b}</mark></MARK>`),
    fc.tuple(markedWord, markedWord).map(([a, b]) => `<mark>${a}</mark><mark>${b}</mark>`),
  );
  return fc
    .tuple(fc.array(piece, { maxLength: 6 }), fc.option(markedWord, { nil: undefined }))
    .map(([pieces, unclosed]) => pieces.join('') + (unclosed === undefined ? '' : `<mark>${unclosed}`));
}

const isoDate = fc
  .date({ min: new Date(0), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString());

function dateOr(text: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof({ arbitrary: isoDate, weight: 4 }, { arbitrary: text, weight: 1 });
}

function flareUrl(text: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    text.map((p) => `https://app.flare.io/#/activity/${p}`),
    text.map((p) => `https://app.eu.flare.io/x?q=${p}`),
    text.map((p) => `https://evil.com/${p}`),
    text.map((p) => `http://app.flare.io/${p}`),
    text,
  );
}

export interface EventArbOptions {
  /** Arbitrary for every free-text field. */
  text: fc.Arbitrary<string>;
  /** Most fragments per highlight field. */
  maxFragments: number;
  /** Most identifiers and tags. */
  maxList: number;
}

/** Events as the API could send them, every string field hostile. */
export function eventArb({ text, maxFragments, maxList }: EventArbOptions): fc.Arbitrary<Event> {
  const nullableDate = fc.option(dateOr(text), { nil: null });
  const severity = fc.oneof(fc.constantFrom(...SEVERITIES), text);
  const highlightKey = fc.oneof(
    { arbitrary: fc.constantFrom('title', 'description', 'subject', 'content'), weight: 4 },
    { arbitrary: hostileText.map((k) => k.slice(0, 20)), weight: 1 },
  );
  const fragments = fc.oneof(
    fc.array(fragment(text), { maxLength: maxFragments }),
    // A huge array of the same fragment: cheap to build, still "huge" to the renderer.
    fc
      .tuple(fragment(text), fc.integer({ min: 100, max: 5000 }))
      .map(([f, n]) => Array.from({ length: n }, () => f)),
  );
  return fc.record({
    metadata: fc.record(
      {
        uid: text.map((s) => s || 'u'),
        type: fc.oneof(fc.constantFrom(...EVENT_TYPES), text),
        severity,
        estimated_created_at: dateOr(text),
        matched_at: fc.option(dateOr(text), { nil: null }),
        flare_url: flareUrl(text),
      },
      { requiredKeys: ['uid', 'type', 'severity', 'estimated_created_at'] },
    ),
    tenant_metadata: fc.option(
      fc.record(
        {
          severity: fc.option(
            fc.record({
              original: fc.option(severity, { nil: null }),
              override: fc.option(severity, { nil: null }),
            }),
            { nil: null },
          ),
          tags: fc.array(text, { maxLength: maxList }),
          notes: fc.option(text, { nil: null }),
          ignored_at: nullableDate,
          remediated_at: nullableDate,
        },
        { requiredKeys: [] },
      ),
      { nil: null },
    ),
    identifiers: fc.array(fc.record({ id: fc.nat(), name: text }), { maxLength: maxList }),
    highlights: fc.dictionary(highlightKey, fragments, { maxKeys: 4 }),
  });
}

/** Slack user ids that pass validation, and hostile ones that must never become mentions. */
export const actorId = fc.oneof(
  fc.stringMatching(/^[UW][A-Z0-9]{6,11}$/),
  hostileText,
  fc.constantFrom('U1> <!channel', 'C0123ABC', 'u0123abc', '<@U1>'),
);
