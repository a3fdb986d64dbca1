/** What the page reports becomes Slack's shapes, with texts and values taken from the stored blocks. */
import { describe, expect, it } from 'vitest';
import { actionFor, stateValuesFor } from '../../src/playground/inputs.js';

const plain = (text: string) => ({ type: 'plain_text', text });
const options = [
  { text: plain('High'), value: 'high' },
  { text: plain('Low'), value: 'low' },
];

describe('actions', () => {
  const blocks = [
    {
      type: 'actions',
      block_id: 'act',
      elements: [
        { type: 'button', action_id: 'ignore', text: plain('Ignore'), value: 'ctx:7', style: 'primary' },
        { type: 'static_select', action_id: 'sev', options },
        { type: 'checkboxes', action_id: 'types', options },
        { type: 'users_select', action_id: 'who' },
        { type: 'datepicker', action_id: 'day' },
      ],
    },
    {
      type: 'section',
      block_id: 'sec',
      text: plain('x'),
      accessory: { type: 'overflow', action_id: 'more', options },
    },
  ];

  it("sends a button's own value and text, whatever the page says", () => {
    expect(actionFor(blocks, { blockId: 'act', actionId: 'ignore', values: ['forged'] })).toEqual({
      type: 'button',
      action_id: 'ignore',
      block_id: 'act',
      text: plain('Ignore'),
      value: 'ctx:7',
      style: 'primary',
    });
  });

  it('sends selections as Slack does, ignoring values the element does not offer', () => {
    expect(actionFor(blocks, { blockId: 'act', actionId: 'sev', values: ['low'] })).toMatchObject({
      selected_option: { text: plain('Low'), value: 'low' },
    });
    expect(actionFor(blocks, { blockId: 'act', actionId: 'sev', values: ['critical'] })).toMatchObject({
      selected_option: null,
    });
    expect(
      actionFor(blocks, { blockId: 'act', actionId: 'types', values: ['high', 'low', 'x'] }),
    ).toMatchObject({
      selected_options: options,
    });
    expect(actionFor(blocks, { blockId: 'act', actionId: 'who', values: ['U1'] })).toMatchObject({
      selected_user: 'U1',
    });
    expect(actionFor(blocks, { blockId: 'act', actionId: 'day', values: ['2026-11-23'] })).toMatchObject({
      selected_date: '2026-11-23',
    });
    expect(actionFor(blocks, { blockId: 'sec', actionId: 'more', values: ['high'] })).toMatchObject({
      type: 'overflow',
      selected_option: { value: 'high' },
    });
  });

  it('finds nothing for an element that is not in the blocks', () => {
    expect(actionFor(blocks, { blockId: 'act', actionId: 'delete_everything', values: [] })).toBeUndefined();
    expect(actionFor(blocks, { blockId: 'nope', actionId: 'ignore', values: [] })).toBeUndefined();
  });
});

describe('view state', () => {
  it('builds state.values from input blocks only, with null for an empty text input', () => {
    const blocks = [
      {
        type: 'input',
        block_id: 'q',
        label: plain('Q'),
        element: { type: 'plain_text_input', action_id: 'v' },
      },
      {
        type: 'input',
        block_id: 'n',
        label: plain('N'),
        optional: true,
        element: { type: 'plain_text_input', action_id: 'v' },
      },
      {
        type: 'input',
        block_id: 's',
        label: plain('S'),
        element: { type: 'radio_buttons', action_id: 'r', options },
      },
      { type: 'actions', block_id: 'a', elements: [{ type: 'static_select', action_id: 'x', options }] },
    ];
    expect(
      stateValuesFor(blocks, [
        { blockId: 'q', actionId: 'v', values: ['secret value'] },
        { blockId: 'n', actionId: 'v', values: [''] },
        { blockId: 's', actionId: 'r', values: ['high'] },
        { blockId: 'a', actionId: 'x', values: ['low'] },
      ]),
    ).toEqual({
      q: { v: { type: 'plain_text_input', value: 'secret value' } },
      n: { v: { type: 'plain_text_input', value: null } },
      s: { r: { type: 'radio_buttons', selected_option: { text: plain('High'), value: 'high' } } },
    });
  });
});
