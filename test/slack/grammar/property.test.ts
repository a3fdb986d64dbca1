import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ParseResult,
  toCredentialSearchInput,
  toEventSearchInput,
  tokenize,
} from '../../../src/slack/grammar/index.js';
import { parseCommand, SUBCOMMANDS } from '../../support/grammar.js';

/** What a bug in the parser looks like to the user: never what a command gets. */
const INTERNAL_ERROR_MESSAGE = 'Vigil could not read that command.';

const NOW = new Date(Date.UTC(2026, 10, 21, 9, 0, 0));

/** Total, and every failure is a usage error a person can act on; successes translate without throwing. */
function checkResult(text: string): void {
  let result: ParseResult | undefined;
  expect(() => {
    result = parseCommand(text);
  }).not.toThrow();
  if (!result) throw new Error('no result');
  if (result.ok) {
    const { command } = result;
    if (command.kind === 'events') {
      const input = toEventSearchInput(command, NOW);
      expect(input.size).toBeGreaterThanOrEqual(1);
      expect(input.size).toBeLessThanOrEqual(10);
    }
    if (command.kind === 'creds') {
      const input = toCredentialSearchInput(command, NOW);
      expect(input.size).toBeLessThanOrEqual(25);
    }
    return;
  }
  const { error } = result;
  expect(error.message.trim().length).toBeGreaterThan(0);
  expect(error.hint.trim().length).toBeGreaterThan(0);
  expect(error.usage.startsWith('/vigil ')).toBe(true);
  expect(error.example.startsWith('/vigil ')).toBe(true);
  expect(error.message).not.toBe(INTERNAL_ERROR_MESSAGE);
}

/** Pieces that reach deep into the grammar: subcommands, keys, values, quotes, Slack escapes. */
const piece = fc.oneof(
  fc.constantFrom(
    ...SUBCOMMANDS,
    'add',
    'list',
    'remove',
    'preview',
    'actors',
    'strict',
    'secret',
    'weekdays',
  ),
  fc.constantFrom(
    'severity:high',
    'severity:high,critical',
    'type:leak,paste',
    'status:open',
    'tag:"a b",c',
    'since:7d',
    'until:2026-11-01',
    'since:2026-11-01T10:00Z',
    'order:asc',
    'size:5',
    'limit:100',
    'include:urls',
    'domain:example.com',
    'email:a@example.com',
    'name:"Ada Lovelace"',
    'github:a/b',
    'bin:412345',
    'ip:::1',
    'identifiers:1,2',
    'at:09:00',
    'tz:Europe/Paris',
    'group:S0123ABC',
    '12345',
    '3f2b9c1e-8d4a-4c6b-9e2f-1a2b3c4d5e6f',
    'leak/src/id',
  ),
  fc.constantFrom(
    '"',
    "'",
    '“',
    '”',
    '‘',
    '’',
    ':',
    ',',
    '&amp;',
    '&lt;',
    '&gt;',
    '<',
    '>',
    '|',
    '\u00a0',
    '\n',
  ),
  fc.constantFrom(
    '<#C0123ABCD|soc>',
    '<@U0123|bob>',
    '<!subteam^S0123|@sec>',
    '<!here>',
    '<http://x.com|x.com>',
  ),
  fc
    .tuple(
      fc.constantFrom('severity', 'type', 'since', 'until', 'size', 'tz', 'at', 'keyword', 'query', 'name'),
      fc.string({ maxLength: 12 }),
    )
    .map(([k, v]) => `${k}:${v}`),
  fc.string({ maxLength: 12, unit: 'grapheme' }),
);

const structured = fc
  .array(fc.tuple(piece, fc.constantFrom(' ', '', '  ', '\t')), { maxLength: 14 })
  .map((parts) => parts.map(([p, sep]) => p + sep).join(''));

describe('parseCommand is total', () => {
  it('for arbitrary unicode strings', () => {
    fc.assert(fc.property(fc.string({ maxLength: 300, unit: 'grapheme' }), checkResult), { numRuns: 400 });
  });

  it('for arbitrary code units, lone surrogates included', () => {
    fc.assert(fc.property(fc.string({ maxLength: 300, unit: 'binary' }), checkResult), { numRuns: 80 });
  });

  it('for inputs built from the grammar', () => {
    fc.assert(fc.property(structured, checkResult), { numRuns: 1500 });
  });

  it('for grammar built after each subcommand', () => {
    const sub = fc.tuple(fc.constantFrom(...SUBCOMMANDS), structured).map(([s, rest]) => `${s} ${rest}`);
    fc.assert(fc.property(sub, checkResult), { numRuns: 1500 });
  });

  it('for huge inputs up to 4000 characters', () => {
    const huge = fc.oneof(
      fc.string({ minLength: 3000, maxLength: 4000, unit: 'grapheme-ascii' }),
      fc.string({ minLength: 1000, maxLength: 4000, unit: 'grapheme' }),
      fc.array(piece, { minLength: 200, maxLength: 600 }).map((ps) => ps.join(' ').slice(0, 4000)),
      fc
        .constantFrom('events 12 keyword:"', 'digest add tz:', 'events 12 ', 'creds keyword ')
        .chain((head) =>
          fc
            .string({ minLength: 3900, maxLength: 3990, unit: 'grapheme-ascii' })
            .map((tail) => head + tail.replace(/\s/g, 'x')),
        ),
    );
    fc.assert(fc.property(huge, checkResult), { numRuns: 120 });
  });

  it('for a single 4000-character word after each key', () => {
    for (const key of ['tz', 'keyword', 'domain', 'severity', 'since', 'name', 'github']) {
      const word = 'aZ9'.repeat(1334).slice(0, 4000 - key.length - 20);
      checkResult(`events 12 ${key}:${word}`);
      checkResult(`digest add ${key}:${word}`);
    }
  });
});

describe('valid events commands always parse, in any order', () => {
  const queries = [
    'domain:example.com',
    'email:alice@example.com',
    'keyword:"acme corp"',
    'query:"a OR b"',
    'username:jdoe',
    'github:acme/site',
    'brand:Acme',
    'name:"Ada Lovelace" strict',
    'bin:412345',
    'ip:203.0.113.7',
    'azure_tenant:72f988bf-86f1-41af-91ab-2d7cd011db47',
  ];
  const filters = [
    'severity:high,critical',
    'type:leak,paste',
    'status:open',
    'tag:vip,"needs review"',
    'since:7d',
    'until:2026-11-20',
    'order:asc',
  ];

  it('and translate to the input they describe', () => {
    const command = fc.record({
      id: fc.integer({ min: 1, max: 2 ** 40 }),
      query: fc.option(fc.constantFrom(...queries), { nil: undefined }),
      filters: fc.shuffledSubarray(filters),
      size: fc.option(fc.integer({ min: 1, max: 10 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(command, ({ id, query, filters: chosen, size }) => {
        const args = [...(query ? [query] : []), ...chosen, ...(size ? [`size:${size}`] : [])];
        const result = parseCommand(`events ${id} ${args.join(' ')}`);
        if (!result.ok) throw new Error(result.error.message);
        if (result.command.kind !== 'events') throw new Error(result.command.kind);
        const input = toEventSearchInput(result.command, NOW);
        expect(input.identifierId).toBe(id);
        expect(input.size).toBe(size ?? 10);
        expect(input.query !== undefined).toBe(query !== undefined);
        expect(input.order).toBe(chosen.includes('order:asc') ? 'asc' : undefined);
        const f = input.filters ?? {};
        expect(f.severity).toEqual(
          chosen.includes('severity:high,critical') ? ['high', 'critical'] : undefined,
        );
        expect(f.tags).toEqual(
          chosen.some((c) => c.startsWith('tag:')) ? ['vip', 'needs review'] : undefined,
        );
        expect(f.estimated_created_at?.gte !== undefined).toBe(chosen.includes('since:7d'));
        expect(f.estimated_created_at?.lt !== undefined).toBe(chosen.includes('until:2026-11-20'));
      }),
      { numRuns: 400 },
    );
  });
});

describe('tokenize', () => {
  it('round-trips any double-quoted value without double quotes, typographic single quotes made plain', () => {
    const value = fc.string({ maxLength: 40, unit: 'grapheme' }).filter((s) => !/["“”„‟<&]/.test(s));
    // Typographic quotes count as plain quotes: Slack clients turn ' into ‘ or ’ as people type.
    const plain = (s: string) => s.replace(/[‘’‚‛]/g, "'");
    fc.assert(
      fc.property(value, (v) => {
        const result = tokenize(`keyword:"${v}"`);
        expect(result.ok && result.tokens[0]?.value).toBe(plain(v));
      }),
      { numRuns: 300 },
    );
  });
});
