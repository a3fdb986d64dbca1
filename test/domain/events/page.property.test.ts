import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Event } from '../../../src/api/index.js';
import type { ActedState, RenderedMessage } from '../../../src/domain/events/page.js';
import {
  parseActionId,
  parseOverflowValue,
  renderEventGroup,
  renderEventResults,
  renderExplain,
} from '../../../src/domain/events/page.js';
import { escapeMrkdwn, highlightToMrkdwn, plainText, userMention } from '../../../src/slack/kit/text.js';
import { NOW } from '../../slack/kit/fixtures.js';
import { actorId, eventArb, fragment, hostileText, hugeText } from '../../slack/kit/support/arbitraries.js';
import { checkBlockKitLimits } from '../../slack/kit/support/block-kit-limits.js';
import { inertMarkdownProblems } from '../../slack/kit/support/markdown-safety.js';
import { linkable, unsafeText } from '../../slack/kit/support/message-safety.js';

const anyText = fc.oneof({ arbitrary: hostileText, weight: 9 }, { arbitrary: hugeText, weight: 1 });
const EVENT_ACTIONS = ['ignore', 'remediate', 'unignore', 'unremediate'] as const;
const actedState = fc.record({
  action: fc.constantFrom(...EVENT_ACTIONS),
  by: actorId,
  at: fc.integer({ min: 0, max: 4e12 }),
});

function actionIdsAndValues(blocks: unknown[]): { ids: string[]; values: string[] } {
  const ids: string[] = [];
  const values: string[] = [];
  const walk = (n: unknown): void => {
    if (Array.isArray(n)) n.forEach(walk);
    else if (typeof n === 'object' && n !== null) {
      const o = n as Record<string, unknown>;
      if (o.type === 'button') {
        ids.push(String(o.action_id));
        values.push(String(o.value));
      }
      // An overflow option stands for a button: its value carries that button's action id and value.
      if (o.type === 'overflow' && Array.isArray(o.options)) {
        ids.push(String(o.action_id));
        for (const opt of o.options as { value?: unknown }[]) {
          const parsed = parseOverflowValue(opt.value);
          expect(parsed).toBeDefined();
          if (parsed) {
            ids.push(parsed.actionId);
            values.push(parsed.value);
          }
        }
        return;
      }
      Object.values(o).forEach(walk);
    }
  };
  walk(blocks);
  return { ids, values };
}

/** Every property the brief asks of any rendered message. */
function expectSafeMessage(
  message: RenderedMessage,
  mentions: ReadonlySet<string>,
  refs: ReadonlySet<string>,
) {
  expect(checkBlockKitLimits(message, 'message')).toEqual([]);
  expect(message.text.trim()).not.toBe('');
  expect(unsafeText(message, mentions)).toEqual([]);
  const { ids, values } = actionIdsAndValues(message.blocks);
  expect(new Set(ids).size).toBe(ids.length);
  for (const v of values) expect(refs.has(v)).toBe(true);
}

describe('event results: any page of hostile events', () => {
  const pageProperty = (events: fc.Arbitrary<Event[]>) =>
    fc.property(
      events,
      fc.array(actedState, { maxLength: 5 }),
      fc.record({
        label: anyText,
        summary: fc.option(anyText, { nil: undefined }),
        page: fc.integer({ min: 1, max: 1000 }),
        next: fc.boolean(),
        canAct: fc.boolean(),
        emptyButMore: fc.boolean(),
      }),
      (evs, acted, o) => {
        const states = new Map<string, ActedState>();
        acted.forEach((s, i) => {
          const ev = evs[i];
          if (ev) states.set(ev.metadata.uid, s);
        });
        const refs = new Set(['ref:next', 'ref:ignore', 'ref:share', ...evs.map((_, i) => `ref:${i}`)]);
        const r = renderEventResults({
          events: evs,
          identifier: { id: o.page, name: o.label },
          ...(o.summary !== undefined && { querySummary: o.summary }),
          now: NOW,
          refs: (i) => `ref:${i}`,
          ...(o.next && { nextPageRef: 'ref:next' }),
          ignorePageRef: 'ref:ignore',
          shareRef: 'ref:share',
          states,
          pageNumber: o.page,
          emptyPageButMore: o.emptyButMore,
          canAct: o.canAct,
        });
        const mentions = new Set(
          [...states.values()].map((s) => s.by).filter((by) => userMention(by) !== undefined),
        );
        expectSafeMessage(r, mentions, refs);
        expect(r.includedEvents + r.omittedEvents).toBe(evs.length);
        if (evs.length > 0) expect(r.includedEvents).toBeGreaterThan(0);
        // Event i keeps its index in action ids, so a click maps back to the right event.
        for (const id of actionIdsAndValues(r.blocks).ids) {
          const { index } = parseActionId(id);
          if (index !== undefined) expect(index).toBeLessThan(r.includedEvents);
        }
      },
    );

  it('0–200 events with short hostile strings keep every limit and stay inert', () => {
    const events = fc.array(eventArb({ text: hostileText, maxFragments: 4, maxList: 6 }), {
      maxLength: 200,
      size: 'max',
    });
    fc.assert(pageProperty(events), { numRuns: 15 });
  });

  it('a few events with huge strings and huge highlight arrays keep every limit and stay inert', () => {
    const events = fc.array(eventArb({ text: anyText, maxFragments: 8, maxList: 30 }), { maxLength: 4 });
    fc.assert(pageProperty(events), { numRuns: 40 });
  });
});

describe('event group', () => {
  it('never mentions anyone but a validated acting user, whatever the state', () => {
    fc.assert(
      fc.property(
        eventArb({ text: hostileText, maxFragments: 3, maxList: 4 }),
        fc.option(actedState, { nil: undefined }),
        (event, state) => {
          const blocks = renderEventGroup(event, {
            now: NOW,
            actionRef: 'r',
            index: 3,
            ...(state !== undefined && { state }),
          });
          const mention = state !== undefined && userMention(state.by) !== undefined ? [state.by] : [];
          expectSafeMessage({ text: 'event', blocks }, new Set(mention), new Set(['r']));
          expect(blocks.every((b) => b.block_id?.startsWith('event:3'))).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('explain', () => {
  // AI text keeps its Markdown formatting and links (markdown.test.ts): inert here means no mention,
  // broadcast, or link but http(s) ones that show their host.
  it('keeps a link inert when AI italics open right before its leading dot (a case the property found)', () => {
    // `*.https://…*` becomes `_.hxxps://…_`: the italics' underscore makes `_.hxxps` a host-like run.
    const messages = renderExplain({ uid: 'u1', text: '*.https://evil.com/a.php?x=1&y=2*', now: NOW });
    for (const m of messages) expect(inertMarkdownProblems(m)).toEqual([]);
  });

  it('splits any AI text into safe messages within every limit', () => {
    const aiText = fc.oneof(
      anyText,
      fc
        .array(fc.oneof(hostileText, fc.constantFrom('\n\n', '## ', '- ', '**b**', '<p>', '</p>', '<li>')), {
          maxLength: 400,
        })
        .map((a) => a.join('')),
    );
    fc.assert(
      fc.property(hostileText, aiText, (uid, text) => {
        const messages = renderExplain({ uid, text, now: NOW });
        expect(messages.length).toBeGreaterThan(0);
        for (const m of messages) {
          expect(checkBlockKitLimits(m, 'message')).toEqual([]);
          expect(inertMarkdownProblems(m)).toEqual([]);
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('text primitives', () => {
  it('escapeMrkdwn leaves no control sequence, formatting marker or link', () => {
    fc.assert(
      fc.property(fc.oneof(hostileText, fc.string({ unit: 'binary' })), (s) => {
        const out = escapeMrkdwn(s);
        expect(out).not.toMatch(/[<>*~`＊＿｀]/);
        expect(linkable(out)).toEqual([]);
        expect(out).not.toMatch(/(^|\n)[^\S\n]*(&gt;|＞)/);
        for (let i = out.indexOf('_'); i !== -1; i = out.indexOf('_', i + 1)) {
          expect(`${out[i - 1]}${out[i + 1]}`).toMatch(/^[\p{L}\p{N}]{2}$/u);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('highlightToMrkdwn bolds marks only: balanced pairs, never more than the marks', () => {
    const anyFragment = fc.oneof(
      fragment(hostileText),
      fc
        .array(fc.oneof(hostileText, fc.constantFrom('<mark>', '</mark>', '<MARK >', '<mark', 'mark>')), {
          maxLength: 20,
        })
        .map((a) => a.join('')),
    );
    fc.assert(
      fc.property(anyFragment, (f) => {
        const out = highlightToMrkdwn(f);
        const stars = out.split('*').length - 1;
        expect(stars % 2).toBe(0);
        const marks = f.match(/<mark(?:\s[^<>]*)?>/gi)?.length ?? 0;
        expect(stars / 2).toBeLessThanOrEqual(marks);
        expect(out).not.toMatch(/[<>~`]/);
        // Adjacent marks merge into one bold span; the sentinels used on the way never leak.
        expect(out).not.toContain('**');
        expect(out).not.toMatch(/[\uE000\uE001]/);
      }),
      { numRuns: 500 },
    );
  });

  it('plainText never exceeds its limit nor lets < start a token', () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 1, max: 3000 }), (s, max) => {
        const out = plainText(s, max);
        expect(out.length).toBeLessThanOrEqual(max);
        expect(out).not.toMatch(/<(?!\u2060)|[\n\r\t]/);
      }),
      { numRuns: 200 },
    );
  });
});
