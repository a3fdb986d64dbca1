import { describe, expect, it } from 'vitest';
import { TEXT_WITH_BLOCKS_PROBLEM } from '../../../../packages/playground/src/sim/slack/block-limits.js';
import { checkBlockKitLimits } from './block-kit-limits.js';

const mrkdwn = (text: string) => ({ type: 'mrkdwn', text });
const plain = (text: string) => ({ type: 'plain_text', text });
const section = (text: string, id?: string) => ({ type: 'section', text: mrkdwn(text), block_id: id });
const button = (extra: Record<string, unknown> = {}) => ({
  type: 'button',
  text: plain('Go'),
  action_id: 'go',
  value: 'v',
  ...extra,
});

describe('checkBlockKitLimits', () => {
  it('accepts a message within every limit', () => {
    const message = {
      text: 'hello',
      blocks: [
        { type: 'header', text: plain('h'.repeat(150)) },
        section('s'.repeat(3000), 'a'),
        { type: 'section', fields: Array.from({ length: 10 }, () => mrkdwn('f'.repeat(200))) },
        { type: 'context', elements: Array.from({ length: 10 }, () => mrkdwn('c')) },
        {
          type: 'actions',
          elements: Array.from({ length: 25 }, (_, i) =>
            button({
              action_id: `a${i}`,
              text: plain('b'.repeat(75)),
              value: 'v'.repeat(2000),
              ...(i === 0 && {
                confirm: {
                  title: plain('t'.repeat(100)),
                  text: plain('x'.repeat(300)),
                  confirm: plain('y'.repeat(30)),
                  deny: plain('n'.repeat(30)),
                },
              }),
            }),
          ),
        },
        { type: 'divider' },
      ],
    };
    expect(checkBlockKitLimits(message, 'message')).toEqual([]);
  });

  it('reports a missing or blank top-level text and an over-long one', () => {
    expect(checkBlockKitLimits({ blocks: [] }, 'message')).toEqual([
      'text: missing top-level text',
      'slack: no_text',
    ]);
    expect(checkBlockKitLimits({ text: '  ', blocks: [] }, 'message')).toEqual([
      'text: missing top-level text',
      'slack: no_text',
    ]);
    expect(checkBlockKitLimits({ text: ' ', blocks: [{ type: 'divider' }] }, 'message')).toEqual([
      'text: missing top-level text',
      `slack: ${TEXT_WITH_BLOCKS_PROBLEM}`,
    ]);
    expect(checkBlockKitLimits({ text: 'x'.repeat(3001), blocks: [] }, 'message')).toEqual([
      'text: is 3001 > 3000',
    ]);
  });

  it('counts blocks per surface: 50 in messages, 100 in modals and Home', () => {
    const blocks = Array.from({ length: 51 }, () => ({ type: 'divider' }));
    expect(checkBlockKitLimits({ text: 't', blocks }, 'message')).toEqual([
      'blocks: 51 blocks > 50',
      'slack: no more than 50 items allowed [json-pointer:/blocks]',
    ]);
    expect(checkBlockKitLimits({ type: 'home', blocks }, 'home')).toEqual([]);
    const many = Array.from({ length: 101 }, () => ({ type: 'divider' }));
    expect(checkBlockKitLimits({ type: 'home', blocks: many }, 'home')).toEqual([
      'blocks: 101 blocks > 100',
      'slack: no more than 100 items allowed [json-pointer:/view/blocks]',
    ]);
  });

  it('reports every per-element limit', () => {
    const message = {
      text: 't',
      blocks: [
        { type: 'header', text: mrkdwn('h'.repeat(151)) },
        section('s'.repeat(3001)),
        { type: 'section', fields: Array.from({ length: 11 }, () => mrkdwn('f'.repeat(2001))).slice(0, 11) },
        { type: 'context', elements: Array.from({ length: 11 }, () => mrkdwn('')) },
        {
          type: 'actions',
          elements: [
            button({ text: plain('b'.repeat(76)), value: 'v'.repeat(2001), action_id: 'i'.repeat(256) }),
            button({
              confirm: {
                title: plain('t'.repeat(101)),
                text: plain('x'.repeat(301)),
                deny: plain('d'.repeat(31)),
              },
            }),
            button(),
            button(),
          ],
        },
      ],
    };
    const found = checkBlockKitLimits(message, 'message');
    expect(found).toContain('blocks[0].text: must be plain_text, is mrkdwn');
    expect(found).toContain('blocks[0].text: text is 151 > 150');
    expect(found).toContain('blocks[1].text: text is 3001 > 3000');
    expect(found).toContain('blocks[2].fields: 11 fields > 10');
    expect(found).toContain('blocks[2].fields[10]: text is 2001 > 2000');
    expect(found).toContain('blocks[3]: 11 elements > 10');
    expect(found).toContain('blocks[3].elements[0]: empty text');
    expect(found).toContain('blocks[4].elements[0].text: text is 76 > 75');
    expect(found).toContain('blocks[4].elements[0].value: is 2001 > 2000');
    expect(found).toContain('blocks[4].elements[0].action_id: is 256 > 255');
    expect(found).toContain('blocks[4].elements[1].confirm.title: text is 101 > 100');
    expect(found).toContain('blocks[4].elements[1].confirm.text: text is 301 > 300');
    expect(found).toContain('blocks[4].elements[1].confirm.deny: text is 31 > 30');
    expect(found).toContain('blocks[4].elements[3]: duplicate action_id go');
  });

  it('reports more than 25 actions, duplicate block ids and the total text budget', () => {
    const actions = {
      type: 'actions',
      elements: Array.from({ length: 26 }, (_, i) => button({ action_id: `a${i}` })),
    };
    const big = Array.from({ length: 5 }, (_, i) => section('x'.repeat(2500), `b${i}`));
    const found = checkBlockKitLimits(
      { text: 't', blocks: [actions, ...big, section('y', 'b0')] },
      'message',
    );
    expect(found).toEqual([
      'blocks[0]: 26 elements > 25',
      'blocks[6]: duplicate block_id b0',
      'blocks: 12553 characters of text > 12000',
      'slack: no more than 25 items allowed [json-pointer:/blocks/0/elements]',
      'slack: duplicate block_id [json-pointer:/blocks/6/block_id]',
    ]);
  });

  it('checks modal chrome: title 24, buttons 24, private_metadata 3000', () => {
    const view = {
      type: 'modal',
      title: plain('t'.repeat(25)),
      submit: plain('s'.repeat(25)),
      private_metadata: 'm'.repeat(3001),
      blocks: [section('ok')],
    };
    expect(checkBlockKitLimits(view, 'modal')).toEqual([
      'title: text is 25 > 24',
      'submit: text is 25 > 24',
      'private_metadata: is 3001 > 3000',
      'slack: must be less than 25 characters [json-pointer:/view/title/text]',
      'slack: must be less than 25 characters [json-pointer:/view/submit/text]',
      'slack: must be less than 3001 characters [json-pointer:/view/private_metadata]',
    ]);
  });

  it('rejects block kinds the renderers never produce and sections with nothing in them', () => {
    const found = checkBlockKitLimits(
      { text: 't', blocks: [{ type: 'video' }, { type: 'section' }] },
      'message',
    );
    expect(found).toEqual([
      'blocks[0]: unexpected block type video',
      'blocks[1]: section without text or fields',
      'slack: must define either `text` or `fields` [json-pointer:/blocks/1]',
    ]);
  });
});
