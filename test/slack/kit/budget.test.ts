import type { ActionsBlock, Button, KnownBlock, SectionBlock } from '@slack/types';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  blocksTextLength,
  clampBlock,
  LIMITS,
  privateMetadata,
  renderBudgeted,
  splitLongText,
  viewButton,
  viewTitle,
} from '../../../src/slack/kit/budget.js';
import { slackDate } from '../../../src/slack/kit/dates.js';
import { escapeMrkdwn, truncate } from '../../../src/slack/kit/text.js';
import { checkBlockKitLimits } from './support/block-kit-limits.js';

const section = (text: string, block_id?: string): SectionBlock => ({
  type: 'section',
  text: { type: 'mrkdwn', text },
  ...(block_id !== undefined && { block_id }),
});
const button = (text: string, action_id: string, value = 'ref'): Button => ({
  type: 'button',
  text: { type: 'plain_text', text },
  action_id,
  value,
});
const group = (i: number, size = 100): KnownBlock[] => [
  section(`event ${i} ${'x'.repeat(size)}`, `event:${i}:body`),
  { type: 'actions', block_id: `event:${i}`, elements: [button('Ignore', `event_ignore:${i}`)] },
];

describe('clampBlock', () => {
  it('leaves blocks within limits untouched', () => {
    const blocks: KnownBlock[] = [section('hello'), { type: 'divider' }, ...group(0)];
    expect(blocks.map(clampBlock)).toEqual(blocks);
  });

  it('cuts every element to its limit with a marker, never throwing', () => {
    const huge = 'word '.repeat(2000);
    const clamped = [
      clampBlock({ type: 'header', text: { type: 'plain_text', text: huge } }),
      clampBlock({
        type: 'section',
        text: { type: 'mrkdwn', text: huge },
        fields: Array.from({ length: 12 }, () => ({ type: 'mrkdwn' as const, text: huge })),
        accessory: button(huge, 'a'.repeat(300), 'v'.repeat(2500)),
      }),
      clampBlock({
        type: 'context',
        elements: Array.from({ length: 12 }, () => ({ type: 'mrkdwn' as const, text: huge })),
      }),
      clampBlock({
        type: 'actions',
        block_id: 'b'.repeat(300),
        elements: Array.from({ length: 30 }, (_, i) => ({
          ...button(huge, `a${i}`),
          confirm: {
            title: { type: 'plain_text' as const, text: huge },
            text: { type: 'plain_text' as const, text: huge },
            confirm: { type: 'plain_text' as const, text: huge },
            deny: { type: 'plain_text' as const, text: huge },
          },
        })),
      }),
    ];
    const [header, sec, ctx, actions] = clamped as [
      { text: { text: string } },
      SectionBlock,
      { elements: unknown[] },
      ActionsBlock,
    ];
    expect(header.text.text).toHaveLength(150);
    expect(header.text.text.endsWith('…')).toBe(true);
    expect(sec.text?.text.length).toBeLessThanOrEqual(3000);
    expect(sec.fields).toHaveLength(10);
    expect(sec.fields?.every((f) => f.text.length <= 2000)).toBe(true);
    const accessory = sec.accessory as Button;
    expect(accessory.text.text.length).toBeLessThanOrEqual(75);
    expect(accessory.value).toHaveLength(2000);
    expect(accessory.action_id).toHaveLength(255);
    expect(ctx.elements).toHaveLength(10);
    expect(actions.elements).toHaveLength(25);
    expect(actions.block_id).toHaveLength(255);
    const first = actions.elements[0] as Button;
    expect(first.confirm?.title?.text.length).toBeLessThanOrEqual(100);
    expect(first.confirm?.text.text.length).toBeLessThanOrEqual(300);
    expect(first.confirm?.confirm?.text.length).toBeLessThanOrEqual(30);
    expect(first.confirm?.deny?.text.length).toBeLessThanOrEqual(30);
  });

  it('keeps entities, date tokens and bold pairs whole when cutting section text', () => {
    const date = slackDate('2026-11-21T09:00:00Z');
    const text = `${'a'.repeat(2990)} ${date} *bold*`;
    const clamped = clampBlock(section(text)) as SectionBlock;
    expect(clamped.text?.text).toBe(`${'a'.repeat(2990)}…`);
  });

  it('drops a button URL it would have to cut, rather than pointing somewhere else', () => {
    const clamped = clampBlock({
      type: 'actions',
      elements: [{ ...button('Open', 'open'), url: `https://app.flare.io/${'a'.repeat(3000)}` }],
    }) as ActionsBlock;
    expect((clamped.elements[0] as Button).url).toBeUndefined();
  });
});

describe('renderBudgeted', () => {
  it('requires a meaningful top-level text and caps it', () => {
    expect(() => renderBudgeted({ text: '   ', groups: [] })).toThrow(/top-level text/);
    const long = escapeMrkdwn('a & b '.repeat(1000));
    const { text } = renderBudgeted({ text: long });
    expect(text.length).toBeLessThanOrEqual(LIMITS.topLevelText);
    expect(text).toMatch(/&amp;…$|a…$|b…$/);
  });

  it('includes every group when they fit, head first and tail last', () => {
    const r = renderBudgeted({
      text: 'results',
      head: [section('summary', 'head')],
      groups: [group(0), group(1)],
      tail: [{ type: 'actions', block_id: 'tail', elements: [button('Next page', 'events_next_page')] }],
    });
    expect(r.includedGroups).toBe(2);
    expect(r.omittedGroups).toBe(0);
    expect(r.blocks.map((b) => b.block_id)).toEqual([
      'head',
      'event:0:body',
      'event:0',
      'event:1:body',
      'event:1',
      'tail',
    ]);
  });

  it('stops at the first group that would exceed 50 blocks, keeping groups whole', () => {
    const groups = Array.from({ length: 30 }, (_, i) => group(i, 10));
    const r = renderBudgeted({
      text: 't',
      head: [section('h', 'head')],
      groups,
      tail: [section('t', 'tail')],
    });
    expect(r.blocks).toHaveLength(50);
    expect(r.includedGroups).toBe(24);
    expect(r.omittedGroups).toBe(6);
    expect(r.blocks.at(-1)?.block_id).toBe('tail');
    expect(checkBlockKitLimits(r, 'message')).toEqual([]);
  });

  it('allows 100 blocks in modals and Home', () => {
    const groups = Array.from({ length: 60 }, (_, i) => group(i, 10));
    const r = renderBudgeted({ text: 't', groups, surface: 'home' });
    expect(r.blocks).toHaveLength(100);
    expect(r.includedGroups).toBe(50);
  });

  it('stops at the text budget and reserves room for the "more not shown" notice', () => {
    const groups = Array.from({ length: 10 }, (_, i) => group(i, 2900));
    const r = renderBudgeted({
      text: 't',
      head: [section('summary', 'head')],
      groups,
      omittedNotice: (n) => ({
        type: 'context',
        block_id: 'more',
        elements: [{ type: 'mrkdwn', text: `${n} more` }],
      }),
    });
    // As many whole groups as the budget holds after the head and the notice.
    const per = blocksTextLength(groups[0] ?? []);
    const fits = Math.floor((LIMITS.blocksText - 'head'.length - '9 more'.length) / per);
    expect(fits).toBeGreaterThan(1);
    expect(r.includedGroups).toBe(fits);
    expect(r.omittedGroups).toBe(10 - fits);
    expect(r.blocks.at(-1)).toEqual({
      type: 'context',
      block_id: 'more',
      elements: [{ type: 'mrkdwn', text: `${10 - fits} more` }],
    });
    expect(blocksTextLength(r.blocks)).toBeLessThanOrEqual(LIMITS.blocksText);
    expect(checkBlockKitLimits(r, 'message')).toEqual([]);
  });

  it('adds no notice when everything fits', () => {
    const r = renderBudgeted({
      text: 't',
      groups: [group(0)],
      omittedNotice: () => section('never', 'more'),
    });
    expect(r.blocks.some((b) => b.block_id === 'more')).toBe(false);
  });

  it('still shows a first group too big for any message, shortened, so paging moves on', () => {
    const giant: KnownBlock[] = Array.from({ length: 60 }, (_, i) => section('y'.repeat(3000), `g${i}`));
    const r = renderBudgeted({ text: 't', groups: [giant, group(1)] });
    expect(r.includedGroups).toBe(1);
    expect(r.omittedGroups).toBe(1);
    expect(checkBlockKitLimits(r, 'message')).toEqual([]);
  });

  it('shrinks an oversized head and tail rather than failing', () => {
    const head = Array.from({ length: 8 }, (_, i) => section('z'.repeat(3000), `h${i}`));
    const r = renderBudgeted({ text: 't', head, groups: [group(0)], tail: [section('tail', 'tail')] });
    expect(checkBlockKitLimits(r, 'message')).toEqual([]);
    expect(r.blocks.at(-1)?.block_id).toBe('tail');
  });

  it('honours a lower text budget and never a higher one', () => {
    const groups = Array.from({ length: 5 }, (_, i) => group(i, 1000));
    expect(renderBudgeted({ text: 't', groups, maxTextChars: 2500 }).includedGroups).toBe(2);
    expect(renderBudgeted({ text: 't', groups: [group(0, 20_000)], maxTextChars: 50_000 }).blocks).toSatisfy(
      (b: KnownBlock[]) => blocksTextLength(b) <= LIMITS.blocksText,
    );
  });

  it('admits at most maxGroups groups and counts the rest in the same notice', () => {
    const groups = Array.from({ length: 30 }, (_, i) => group(i));
    const notice = (n: number): KnownBlock => section(`${n} more not listed`, 'notice');
    const r = renderBudgeted({ text: 't', groups, maxGroups: 20, omittedNotice: notice });
    expect(r.includedGroups).toBe(20);
    expect(r.omittedGroups).toBe(10);
    expect(r.blocks.filter((b) => b.block_id === 'notice')).toEqual([
      section('10 more not listed', 'notice'),
    ]);
  });

  it('keeps reserveForGroups characters for the groups, shortening a long head first', () => {
    const head = Array.from({ length: 5 }, (_, i) => section('summary '.repeat(370), `h${i}`));
    const groups = Array.from({ length: 20 }, (_, i) => group(i));
    const notice = (n: number): KnownBlock => section(`${n} more not listed`, 'notice');
    const starved = renderBudgeted({ text: 't', head, groups, omittedNotice: notice });
    expect(starved.includedGroups).toBeLessThan(3);
    const r = renderBudgeted({ text: 't', head, groups, omittedNotice: notice, reserveForGroups: 3000 });
    expect(checkBlockKitLimits(r, 'message')).toEqual([]);
    expect(r.includedGroups).toBeGreaterThanOrEqual(20);
    expect(r.blocks.slice(0, 5).map((b) => b.block_id)).toEqual(['h0', 'h1', 'h2', 'h3', 'h4']);
  });

  it('keeps every limit for arbitrary heads, groups and tails', () => {
    const text = fc.string({ maxLength: 4000 });
    const block = fc.oneof(
      text.map((t) => section(t || 'x')),
      fc.record({ n: fc.integer({ min: 1, max: 40 }), t: fc.string({ maxLength: 100 }) }).map(
        ({ n, t }): KnownBlock => ({
          type: 'actions',
          elements: Array.from({ length: n }, (_, i) => button(t || 'b', `a${i}`)),
        }),
      ),
      fc.constant<KnownBlock>({ type: 'divider' }),
    );
    const blocks = fc.array(block, { maxLength: 8 });
    fc.assert(
      fc.property(blocks, fc.array(blocks, { maxLength: 40 }), blocks, (head, groups, tail) => {
        const r = renderBudgeted({ text: 'summary', head, groups, tail });
        expect(checkBlockKitLimits(r, 'message')).toEqual([]);
        expect(r.includedGroups + r.omittedGroups).toBe(groups.length);
      }),
      { numRuns: 60 },
    );
  });
});

describe('splitLongText', () => {
  it('returns short text as one chunk and nothing for blank text', () => {
    expect(splitLongText('hello')).toEqual(['hello']);
    expect(splitLongText('  \n ')).toEqual([]);
  });

  it('splits at paragraphs first', () => {
    const a = 'a'.repeat(60);
    const b = 'b'.repeat(60);
    expect(splitLongText(`${a}\n\n${b}`, 100)).toEqual([a, b]);
  });

  it('then at sentences, then at words', () => {
    const sentence = `${'word '.repeat(12).trim()}.`;
    expect(splitLongText(`${sentence} ${sentence} ${sentence}`, 130)).toEqual([
      `${sentence} ${sentence}`,
      sentence,
    ]);
    expect(splitLongText('aaaa bbbb cccc dddd', 10)).toEqual(['aaaa bbbb', 'cccc dddd']);
  });

  it('never cuts inside an entity, a date token or a bold pair', () => {
    expect(splitLongText('aaaaaa&amp;bbbbbb', 8)).toEqual(['aaaaaa', '&amp;bbb', 'bbb']);
    const date = slackDate('2026-11-21T09:00:00Z');
    const chunks = splitLongText(`${'x'.repeat(50)}${date}${'y'.repeat(50)}`, 80);
    expect(chunks.some((c) => c.includes(date))).toBe(true);
    expect(splitLongText('aa *bold text here* bb', 12)).toEqual(['aa', '*bold text*', '*here* bb']);
  });

  it('never cuts inside code, and a * inside code is no bold marker', () => {
    expect(truncate('*a* `x*y` and more', 8)).toBe('*a*…');
    expect(truncate('see `a*b` then *bold words*', 24)).toBe('see `a*b` then…');
    expect(splitLongText('aa `code with * star` bb', 12)).toEqual(['aa', '`code with`', '`* star` bb']);
  });

  it('keeps code spans and bold closed in every chunk and cut, whatever the text', () => {
    const piece = fc.oneof(
      fc.constantFrom('word', 'two words', 'x.y'),
      fc.stringMatching(/^[a-z *]{1,30}$/).map((w) => `\`${w.trim() || 'c'}\``),
      fc.stringMatching(/^[a-z ]{1,30}$/).map((w) => `*${w.trim() || 'b'}*`),
    );
    const text = fc.array(piece, { maxLength: 40 }).map((p) => p.join(' '));
    const closed = (chunk: string) => {
      expect((chunk.match(/`/g) ?? []).length % 2).toBe(0);
      expect((chunk.replace(/`[^`]*`/g, '').match(/\*/g) ?? []).length % 2).toBe(0);
    };
    fc.assert(
      fc.property(text, fc.integer({ min: 8, max: 120 }), (t, max) => {
        for (const chunk of splitLongText(t, max)) {
          expect(chunk.length).toBeLessThanOrEqual(max);
          closed(chunk);
        }
        const cut = truncate(t, max);
        expect(cut.length).toBeLessThanOrEqual(max);
        closed(cut);
      }),
      { numRuns: 300 },
    );
  });

  it('ends the last chunk with … when maxSections leaves text out', () => {
    const text = Array.from({ length: 5 }, (_, i) => `${i}`.repeat(50)).join('\n\n');
    const chunks = splitLongText(text, 60, 2);
    expect(chunks).toEqual(['0'.repeat(50), `${'1'.repeat(50)} …`]);
  });

  it('keeps all the text, in order, in chunks within the limit', () => {
    const piece = fc.constantFrom(
      'word',
      ' ',
      '\n',
      '\n\n',
      '. ',
      '&amp;',
      '😀',
      slackDate(0),
      'x'.repeat(30),
      '*b*',
      '*long bold span*',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 300 }), fc.integer({ min: 80, max: 400 }), (pieces, max) => {
        const text = pieces.join('');
        const chunks = splitLongText(text, max);
        for (const c of chunks) {
          expect(c.length).toBeLessThanOrEqual(max);
          expect(c).not.toMatch(/^\s|\s$/);
          expect(c.split('*').length % 2).toBe(1);
        }
        const squeeze = (t: string) => t.replace(/[\s*]+/g, '');
        expect(squeeze(chunks.join(''))).toBe(squeeze(text));
      }),
      { numRuns: 200 },
    );
  });
});

describe('view helpers', () => {
  it('caps modal titles and buttons at 24 characters', () => {
    expect(viewTitle('Search leaked credentials by password')).toEqual({
      type: 'plain_text',
      text: 'Search leaked credentia…',
    });
    expect(viewButton('Submit').text).toBe('Submit');
  });

  it('refuses private_metadata over 3000 characters instead of corrupting it', () => {
    expect(privateMetadata('ctx:abc')).toBe('ctx:abc');
    expect(() => privateMetadata('x'.repeat(3001))).toThrow(RangeError);
  });
});
