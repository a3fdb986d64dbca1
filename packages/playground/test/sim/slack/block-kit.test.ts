import { describe, expect, it } from 'vitest';
import {
  blocksOf,
  blockTypes,
  buttons,
  findButton,
  getButton,
  textOf,
} from '../../../../../test/harness/block-kit.js';

const blocks = [
  { type: 'header', text: { type: 'plain_text', text: 'Leak on example.com' } },
  {
    type: 'section',
    block_id: 'summary',
    text: { type: 'mrkdwn', text: '*High* · leak' },
    fields: [{ type: 'mrkdwn', text: '*Source*\npastebin' }],
    accessory: {
      type: 'button',
      action_id: 'open_portal',
      text: { type: 'plain_text', text: 'Open' },
      url: 'https://portal',
    },
  },
  {
    type: 'context',
    elements: [
      { type: 'mrkdwn', text: 'Ignored by <@U1>' },
      { type: 'image', image_url: 'x', alt_text: 'icon' },
    ],
  },
  {
    type: 'actions',
    block_id: 'event_actions',
    elements: [
      {
        type: 'button',
        action_id: 'event_ignore',
        value: 'c:1',
        text: { type: 'plain_text', text: 'Ignore' },
      },
      {
        type: 'button',
        action_id: 'event_remediate',
        value: 'c:2',
        style: 'primary',
        text: { type: 'plain_text', text: 'Remediate' },
        confirm: {
          title: { type: 'plain_text', text: 'Remediate?' },
          text: { type: 'mrkdwn', text: 'This marks the event remediated.' },
          confirm: { type: 'plain_text', text: 'Yes' },
          deny: { type: 'plain_text', text: 'No' },
        },
      },
    ],
  },
];

describe('Block Kit inspector', () => {
  it('reads the visible text in order, leaving confirm dialogs out', () => {
    expect(textOf(blocks)).toBe(
      [
        'Leak on example.com',
        '*High* · leak',
        '*Source*\npastebin',
        'Open',
        'Ignored by <@U1>',
        'icon',
        'Ignore',
        'Remediate',
      ].join('\n'),
    );
  });

  it('finds blocks in messages, views, call bodies and recorded calls', () => {
    expect(blocksOf({ blocks })).toBe(blocks);
    expect(blocksOf({ view: { blocks } })).toBe(blocks);
    expect(blocksOf({ body: { view: { blocks } } })).toBe(blocks);
    expect(blocksOf({ body: { text: 'no blocks' } })).toEqual([]);
    expect(blockTypes({ blocks })).toEqual(['header', 'section', 'context', 'actions']);
  });

  it('lists buttons with their block, value, style and confirm', () => {
    expect(buttons(blocks)).toEqual([
      {
        action_id: 'open_portal',
        value: undefined,
        text: 'Open',
        style: undefined,
        url: 'https://portal',
        block_id: 'summary',
      },
      {
        action_id: 'event_ignore',
        value: 'c:1',
        text: 'Ignore',
        style: undefined,
        url: undefined,
        block_id: 'event_actions',
      },
      {
        action_id: 'event_remediate',
        value: 'c:2',
        text: 'Remediate',
        style: 'primary',
        url: undefined,
        block_id: 'event_actions',
        confirm: {
          title: 'Remediate?',
          text: 'This marks the event remediated.',
          confirm: 'Yes',
          deny: 'No',
        },
      },
    ]);
  });

  it('finds a button by action_id, exact label or partial label', () => {
    expect(findButton(blocks, 'event_ignore')?.value).toBe('c:1');
    expect(findButton(blocks, 'Remediate')?.action_id).toBe('event_remediate');
    expect(findButton(blocks, 'remed')?.action_id).toBe('event_remediate');
    expect(findButton(blocks, 'Unignore')).toBeUndefined();
    expect(() => getButton(blocks, 'Unignore')).toThrow(
      /no button "Unignore"; buttons: Open \(open_portal\), Ignore/,
    );
  });
});
