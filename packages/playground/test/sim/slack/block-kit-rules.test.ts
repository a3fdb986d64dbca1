/**
 * Every Block Kit rule the simulated Slack enforces, minimums included, each checked at its limit and one past
 * it, with the json-pointer Slack would name. The rules and their sources are in src/sim/slack/block-kit/.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  blockProblems,
  MESSAGE_MAX_BLOCK_TEXT,
  TEXT_WITH_BLOCKS_PROBLEM,
  viewProblems,
} from '../../../src/sim/slack/block-limits.js';
import { type FakeSlack, SEEDED_CHANNELS, startFakeSlack } from '../../../src/sim/slack/index.js';
import { callJson } from './helpers.js';

type Obj = Record<string, unknown>;
const plain = (text: string): Obj => ({ type: 'plain_text', text });
const mrkdwn = (text: string): Obj => ({ type: 'mrkdwn', text });
const option = (text: string, value = 'v', extra: Obj = {}): Obj => ({ text: plain(text), value, ...extra });
const options = (n: number): Obj[] => Array.from({ length: n }, (_, i) => option(`o${i}`, `v${i}`));
const button = (extra: Obj = {}): Obj => ({ type: 'button', text: plain('Go'), action_id: 'go', ...extra });
const actions = (...elements: Obj[]): Obj => ({ type: 'actions', elements });
const section = (text: string, extra: Obj = {}): Obj => ({ type: 'section', text: mrkdwn(text), ...extra });
const input = (element: Obj, extra: Obj = {}): Obj => ({
  type: 'input',
  label: plain('L'),
  element,
  ...extra,
});
const confirm = (extra: Obj = {}): Obj => ({
  title: plain('Sure?'),
  text: plain('Really.'),
  confirm: plain('Yes'),
  deny: plain('No'),
  ...extra,
});

/** The problems Slack would name for one block in a message. */
const inMessage = (...blocks: Obj[]) => blockProblems(blocks, 50, '/blocks');

describe('composition objects', () => {
  it('text objects hold 1–3000 characters and take emoji / verbatim only where they belong', () => {
    expect(inMessage(section('x'.repeat(3000)))).toEqual([]);
    expect(inMessage(section('x'.repeat(3001)))).toEqual([
      'must be less than 3001 characters [json-pointer:/blocks/0/text/text]',
    ]);
    expect(inMessage(section(''))).toEqual([
      'must be at least 1 characters [json-pointer:/blocks/0/text/text]',
    ]);
    expect(inMessage({ type: 'section', text: { type: 'plain_text', text: 'x', verbatim: true } })).toEqual([
      'unsupported field: verbatim [json-pointer:/blocks/0/text]',
    ]);
    expect(inMessage({ type: 'section', text: { type: 'markdown', text: 'x' } })).toEqual([
      'must be a valid enum value [json-pointer:/blocks/0/text/type]',
    ]);
  });

  it('a confirmation dialog needs title ≤ 100, text ≤ 300, confirm and deny ≤ 30', () => {
    expect(inMessage(actions(button({ confirm: confirm() })))).toEqual([]);
    const long = confirm({
      title: plain('t'.repeat(101)),
      text: plain('x'.repeat(301)),
      confirm: plain('c'.repeat(31)),
      deny: plain('d'.repeat(31)),
      style: 'loud',
    });
    expect(inMessage(actions(button({ confirm: long })))).toEqual([
      'must be less than 101 characters [json-pointer:/blocks/0/elements/0/confirm/title/text]',
      'must be less than 301 characters [json-pointer:/blocks/0/elements/0/confirm/text/text]',
      'must be less than 31 characters [json-pointer:/blocks/0/elements/0/confirm/confirm/text]',
      'must be less than 31 characters [json-pointer:/blocks/0/elements/0/confirm/deny/text]',
      'must be a valid enum value [json-pointer:/blocks/0/elements/0/confirm/style]',
    ]);
    const { deny: _deny, ...noDeny } = confirm();
    expect(inMessage(actions(button({ confirm: noDeny })))).toEqual([
      'missing required field: deny [json-pointer:/blocks/0/elements/0/confirm]',
    ]);
  });

  it('options: text ≤ 75 plain text, value ≤ 150, url only in overflow menus', () => {
    const menu = (opts: Obj[]) => actions({ type: 'overflow', action_id: 'm', options: opts });
    expect(inMessage(menu([option('t'.repeat(75), 'v'.repeat(150)), option('b')]))).toEqual([]);
    expect(
      inMessage(menu([option('t'.repeat(76), 'v'.repeat(151)), option('b', 'w', { url: 'https://x' })])),
    ).toEqual([
      'must be less than 76 characters [json-pointer:/blocks/0/elements/0/options/0/text/text]',
      'must be less than 151 characters [json-pointer:/blocks/0/elements/0/options/0/value]',
    ]);
    const select = (opts: Obj[]) => actions({ type: 'static_select', action_id: 's', options: opts });
    expect(inMessage(select([option('a', 'v', { url: 'https://x' })]))).toEqual([
      'unsupported field: url [json-pointer:/blocks/0/elements/0/options/0]',
    ]);
    expect(inMessage(select([{ text: mrkdwn('a'), value: 'v' }]))).toEqual([
      'must be a valid enum value [json-pointer:/blocks/0/elements/0/options/0/text/type]',
    ]);
  });
});

describe('block elements', () => {
  it('an overflow menu takes 2 to 5 options', () => {
    const menu = (n: number) => actions({ type: 'overflow', action_id: 'm', options: options(n) });
    expect(inMessage(menu(2))).toEqual([]);
    expect(inMessage(menu(5))).toEqual([]);
    expect(inMessage(menu(1))).toEqual([
      'must provide at least 2 items [json-pointer:/blocks/0/elements/0/options]',
    ]);
    expect(inMessage(menu(6))).toEqual([
      'no more than 5 items allowed [json-pointer:/blocks/0/elements/0/options]',
    ]);
  });

  it('a button: text ≤ 75 plain text, value ≤ 2000, url ≤ 3000, action_id 1–255, style primary or danger', () => {
    expect(
      inMessage(
        actions(
          button({
            text: plain('b'.repeat(75)),
            value: 'v'.repeat(2000),
            url: `https://${'u'.repeat(2992)}`,
          }),
        ),
      ),
    ).toEqual([]);
    expect(
      inMessage(
        actions(
          button({
            text: mrkdwn('b'.repeat(76)),
            value: 'v'.repeat(2001),
            url: `https://${'u'.repeat(2993)}`,
            action_id: 'a'.repeat(256),
            style: 'secondary',
          }),
        ),
      ),
    ).toEqual([
      'must be less than 256 characters [json-pointer:/blocks/0/elements/0/action_id]',
      'must be a valid enum value [json-pointer:/blocks/0/elements/0/text/type]',
      'must be less than 76 characters [json-pointer:/blocks/0/elements/0/text/text]',
      'must be less than 3001 characters [json-pointer:/blocks/0/elements/0/url]',
      'must be less than 2001 characters [json-pointer:/blocks/0/elements/0/value]',
      'must be a valid enum value [json-pointer:/blocks/0/elements/0/style]',
    ]);
    expect(inMessage(actions(button({ action_id: '' })))).toEqual([
      'must be at least 1 characters [json-pointer:/blocks/0/elements/0/action_id]',
    ]);
    expect(inMessage(actions({ type: 'button', action_id: 'x' }))).toEqual([
      'missing required field: text [json-pointer:/blocks/0/elements/0]',
    ]);
  });

  it('select menus: ≤ 100 options or ≤ 100 option groups (not both), placeholder ≤ 150', () => {
    const select = (extra: Obj) => actions({ type: 'static_select', action_id: 's', ...extra });
    expect(inMessage(select({ options: options(100), placeholder: plain('p'.repeat(150)) }))).toEqual([]);
    expect(inMessage(select({ options: options(101), placeholder: plain('p'.repeat(151)) }))).toEqual([
      'must be less than 151 characters [json-pointer:/blocks/0/elements/0/placeholder/text]',
      'no more than 100 items allowed [json-pointer:/blocks/0/elements/0/options]',
    ]);
    const group = (n: number) => ({ label: plain('g'), options: options(n) });
    expect(inMessage(select({ option_groups: [group(100), group(1)] }))).toEqual([]);
    expect(inMessage(select({ option_groups: [group(101)] }))).toEqual([
      'no more than 100 items allowed [json-pointer:/blocks/0/elements/0/option_groups/0/options]',
    ]);
    expect(inMessage(select({ option_groups: Array.from({ length: 101 }, () => group(1)) }))).toEqual([
      'no more than 100 items allowed [json-pointer:/blocks/0/elements/0/option_groups]',
    ]);
    expect(inMessage(select({ options: options(1), option_groups: [group(1)] }))).toEqual([
      'only one of options and option_groups may be given [json-pointer:/blocks/0/elements/0]',
    ]);
  });

  it('inputs: plain-text lengths 0–3000 / 1–3000, checkboxes ≤ 10, file input ≤ 10 files', () => {
    const text = (extra: Obj) => input({ type: 'plain_text_input', action_id: 'i', ...extra });
    expect(inMessage(text({ min_length: 0, max_length: 3000, placeholder: plain('p') }))).toEqual([]);
    expect(inMessage(text({ min_length: 3001, max_length: 0 }))).toEqual([
      'must be between 0 and 3000 [json-pointer:/blocks/0/element/min_length]',
      'must be between 1 and 3000 [json-pointer:/blocks/0/element/max_length]',
      'min_length must not exceed max_length [json-pointer:/blocks/0/element]',
    ]);
    expect(inMessage(text({ max_length: 3, initial_value: 'four' }))).toEqual([
      'must be less than 4 characters [json-pointer:/blocks/0/element/initial_value]',
    ]);
    expect(inMessage(input({ type: 'checkboxes', options: options(11) }))).toEqual([
      'no more than 10 items allowed [json-pointer:/blocks/0/element/options]',
    ]);
    expect(inMessage(input({ type: 'file_input', max_files: 11 }))).toEqual([
      'must be between 1 and 10 [json-pointer:/blocks/0/element/max_files]',
    ]);
  });

  it('an element must be one its block takes', () => {
    expect(inMessage(actions({ type: 'plain_text_input', action_id: 'i' }))).toEqual([
      'must be a valid enum value [json-pointer:/blocks/0/elements/0/type]',
    ]);
    expect(inMessage(input(button()))).toEqual([
      'must be a valid enum value [json-pointer:/blocks/0/element/type]',
    ]);
  });
});

describe('blocks', () => {
  it('a section needs text or 1–10 fields of ≤ 2000', () => {
    const fields = (n: number, len = 1) => Array.from({ length: n }, () => mrkdwn('f'.repeat(len)));
    expect(inMessage({ type: 'section', fields: fields(10, 2000) })).toEqual([]);
    expect(inMessage({ type: 'section', fields: [...fields(10), mrkdwn('f'.repeat(2001))] })).toEqual([
      'no more than 10 items allowed [json-pointer:/blocks/0/fields]',
      'must be less than 2001 characters [json-pointer:/blocks/0/fields/10/text]',
    ]);
    expect(inMessage({ type: 'section' })).toEqual([
      'must define either `text` or `fields` [json-pointer:/blocks/0]',
    ]);
    expect(inMessage({ type: 'section', fields: [] })).toEqual([
      'must provide at least 1 items [json-pointer:/blocks/0/fields]',
    ]);
  });

  it('a header is plain text ≤ 150', () => {
    expect(inMessage({ type: 'header', text: plain('h'.repeat(150)) })).toEqual([]);
    expect(inMessage({ type: 'header', text: mrkdwn('h'.repeat(151)) })).toEqual([
      'must be a valid enum value [json-pointer:/blocks/0/text/type]',
      'must be less than 151 characters [json-pointer:/blocks/0/text/text]',
    ]);
  });

  it('a context holds 1–10 elements; an actions block 1–25 with unique action_ids', () => {
    const texts = (n: number) => Array.from({ length: n }, () => mrkdwn('c'));
    expect(inMessage({ type: 'context', elements: texts(10) })).toEqual([]);
    expect(inMessage({ type: 'context', elements: texts(11) })).toEqual([
      'no more than 10 items allowed [json-pointer:/blocks/0/elements]',
    ]);
    expect(inMessage({ type: 'context', elements: [] })).toEqual([
      'must provide at least 1 items [json-pointer:/blocks/0/elements]',
    ]);
    const many = (n: number) => Array.from({ length: n }, (_, i) => button({ action_id: `a${i}` }));
    expect(inMessage(actions(...many(25)))).toEqual([]);
    expect(inMessage(actions(...many(26)))).toEqual([
      'no more than 25 items allowed [json-pointer:/blocks/0/elements]',
    ]);
    expect(inMessage(actions())).toEqual(['must provide at least 1 items [json-pointer:/blocks/0/elements]']);
    expect(inMessage(actions(button(), button()))).toEqual([
      'duplicate action_id [json-pointer:/blocks/0/elements/1/action_id]',
    ]);
  });

  it('block_id is 1–255 characters and unique in the message', () => {
    expect(inMessage(section('a', { block_id: 'b'.repeat(255) }))).toEqual([]);
    expect(inMessage(section('a', { block_id: 'b'.repeat(256) }), section('b', { block_id: '' }))).toEqual([
      'must be less than 256 characters [json-pointer:/blocks/0/block_id]',
      'must be at least 1 characters [json-pointer:/blocks/1/block_id]',
    ]);
    expect(inMessage(section('a', { block_id: 'x' }), section('b', { block_id: 'x' }))).toEqual([
      'duplicate block_id [json-pointer:/blocks/1/block_id]',
    ]);
  });

  it('images: alt_text ≤ 2000, image_url ≤ 3000; input label and hint ≤ 2000', () => {
    const img = (extra: Obj) => ({ type: 'image', image_url: 'https://i', alt_text: 'a', ...extra });
    expect(inMessage(img({ alt_text: 'a'.repeat(2001), image_url: `https://${'i'.repeat(2993)}` }))).toEqual([
      'must be less than 2001 characters [json-pointer:/blocks/0/alt_text]',
      'must be less than 3001 characters [json-pointer:/blocks/0/image_url]',
    ]);
    expect(inMessage({ type: 'context', elements: [{ type: 'image', image_url: 'https://i' }] })).toEqual([
      'missing required field: alt_text [json-pointer:/blocks/0/elements/0]',
    ]);
    const field = { type: 'plain_text_input', action_id: 'i' };
    expect(
      inMessage(input(field, { label: plain('l'.repeat(2001)), hint: plain('h'.repeat(2001)) })),
    ).toEqual([
      'must be less than 2001 characters [json-pointer:/blocks/0/label/text]',
      'must be less than 2001 characters [json-pointer:/blocks/0/hint/text]',
    ]);
  });

  it('refuses unknown block types and fields Slack does not know', () => {
    expect(inMessage({ type: 'banner', text: mrkdwn('x') })).toEqual([
      'failed to match all allowed schemas [json-pointer:/blocks/0]',
    ]);
    expect(inMessage(section('x', { color: 'red' }))).toEqual([
      'unsupported field: color [json-pointer:/blocks/0]',
    ]);
  });
});

describe('surfaces', () => {
  const modal = (extra: Obj = {}): Obj => ({ type: 'modal', title: plain('Title'), blocks: [], ...extra });

  it('a modal: title required, title / submit / close ≤ 24, submit required with an input', () => {
    expect(viewProblems(modal({ title: plain('t'.repeat(24)), close: plain('c'.repeat(24)) }))).toEqual([]);
    expect(viewProblems({ type: 'modal', blocks: [] })).toEqual([
      'missing required field: title [json-pointer:/view]',
    ]);
    expect(
      viewProblems(
        modal({ title: plain('t'.repeat(25)), submit: plain('s'.repeat(25)), close: plain('c'.repeat(25)) }),
      ),
    ).toEqual([
      'must be less than 25 characters [json-pointer:/view/title/text]',
      'must be less than 25 characters [json-pointer:/view/submit/text]',
      'must be less than 25 characters [json-pointer:/view/close/text]',
    ]);
    expect(viewProblems(modal({ blocks: [input({ type: 'plain_text_input', action_id: 'i' })] }))).toEqual([
      'submit is required when an input block is within the blocks [json-pointer:/view]',
    ]);
  });

  it('private_metadata ≤ 3000, callback_id and external_id ≤ 255, 100 blocks', () => {
    const divider = { type: 'divider' };
    expect(
      viewProblems(
        modal({
          private_metadata: 'm'.repeat(3000),
          callback_id: 'c'.repeat(255),
          external_id: 'e'.repeat(255),
          blocks: Array.from({ length: 100 }, () => divider),
        }),
      ),
    ).toEqual([]);
    expect(
      viewProblems(
        modal({
          private_metadata: 'm'.repeat(3001),
          callback_id: 'c'.repeat(256),
          external_id: 'e'.repeat(256),
          blocks: Array.from({ length: 101 }, () => divider),
        }),
      ),
    ).toEqual([
      'must be less than 3001 characters [json-pointer:/view/private_metadata]',
      'must be less than 256 characters [json-pointer:/view/callback_id]',
      'must be less than 256 characters [json-pointer:/view/external_id]',
      'no more than 100 items allowed [json-pointer:/view/blocks]',
    ]);
  });

  it('a Home view has no title', () => {
    expect(viewProblems({ type: 'home', blocks: [section('x')] })).toEqual([]);
    expect(viewProblems({ type: 'home', title: plain('x'), blocks: [] })).toEqual([
      'unsupported field: title [json-pointer:/view]',
    ]);
  });
});

describe('messages over HTTP', () => {
  let fake: FakeSlack;
  beforeAll(async () => {
    fake = await startFakeSlack();
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());
  const post = (args: Obj) =>
    callJson(fake, 'chat.postMessage', { channel: SEEDED_CHANNELS.general, ...args });
  const oneOption = actions({ type: 'overflow', action_id: 'm', options: options(1) });

  it('answers invalid_blocks with every offending pointer, and records the refusal', async () => {
    const { body } = await post({ text: 'x', blocks: [oneOption] });
    expect(body).toMatchObject({
      ok: false,
      error: 'invalid_blocks',
      errors: ['must provide at least 2 items [json-pointer:/blocks/0/elements/0/options]'],
    });
    expect(fake.takeRefusals()).toMatchObject([
      { where: 'chat.postMessage', error: 'invalid_blocks', body: { text: 'x', blocks: [oneOption] } },
    ]);
    expect(fake.takeRefusals()).toEqual([]);
  });

  it('refuses blocks without a top-level text as no_text, saying why', async () => {
    const { body } = await post({ blocks: [section('hello')] });
    expect(body).toMatchObject({ ok: false, error: 'no_text', errors: [TEXT_WITH_BLOCKS_PROBLEM] });
    expect((await post({ text: 'hello', blocks: [section('hello')] })).body.ok).toBe(true);
  });

  it('answers msg_blocks_too_long past the text threshold', async () => {
    const blocks = Array.from({ length: 5 }, () => section('x'.repeat(MESSAGE_MAX_BLOCK_TEXT / 5)));
    expect((await post({ text: 'x', blocks })).body.ok).toBe(true);
    const over = [...blocks, section('y')];
    expect((await post({ text: 'x', blocks: over })).body.error).toBe('msg_blocks_too_long');
  });

  it('answers a response_url post it refuses with 400 and the error, and records it', async () => {
    const url = fake.responseUrl();
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'x', blocks: [oneOption] }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ ok: false, error: 'invalid_blocks' });
    expect(fake.takeRefusals().map((r) => r.where)).toEqual(['response_url']);
  });

  it('does not count a failure it was told to inject as a refusal', async () => {
    fake.failNext('chat.postMessage', { error: 'invalid_blocks' });
    expect((await post({ text: 'fine' })).body.error).toBe('invalid_blocks');
    expect(fake.takeRefusals()).toEqual([]);
  });
});
