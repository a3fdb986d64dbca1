/**
 * The simulated Slack holds data_visualization and data_table blocks to their published shapes and limits
 * (src/sim/slack/block-kit/data-blocks.ts), each rule at its limit and one past it, and refuses an invalid one
 * over HTTP with invalid_blocks as Slack would.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { blockProblems } from '../../../src/sim/slack/block-limits.js';
import { type FakeSlack, SEEDED_CHANNELS, startFakeSlack } from '../../../src/sim/slack/index.js';
import { callJson } from './helpers.js';

type Obj = Record<string, unknown>;
const inMessage = (...blocks: Obj[]) => blockProblems(blocks, 50, '/blocks');
const labels = (n: number) => Array.from({ length: n }, (_, i) => `d${i}`);
const series = (name: string, n: number): Obj => ({
  name,
  data: labels(n).map((label, i) => ({ label, value: i })),
});
const chart = (extra: Obj = {}, chartExtra: Obj = {}): Obj => ({
  type: 'data_visualization',
  title: 'Events',
  chart: { type: 'line', series: [series('High', 3)], axis_config: { categories: labels(3) }, ...chartExtra },
  ...extra,
});
const raw = (text: string): Obj => ({ type: 'raw_text', text });
const number = (value: number): Obj => ({ type: 'raw_number', value, text: String(value) });
const table = (rows: Obj[][], extra: Obj = {}): Obj => ({
  type: 'data_table',
  caption: 'Top',
  rows,
  ...extra,
});
const header = [raw('Identifier'), raw('Events')];

describe('data_visualization', () => {
  it('takes line, bar and area with 1–6 series of 1–20 points, and pie with 1–6 segments', () => {
    for (const type of ['line', 'bar', 'area']) expect(inMessage(chart({}, { type }))).toEqual([]);
    const six = Array.from({ length: 6 }, (_, i) => series(`s${i}`, 20));
    expect(inMessage(chart({}, { series: six, axis_config: { categories: labels(20) } }))).toEqual([]);
    expect(
      inMessage(chart({}, { series: [...six, series('s6', 1)], axis_config: { categories: labels(20) } })),
    ).toEqual(['no more than 6 items allowed [json-pointer:/blocks/0/chart/series]']);
    expect(
      inMessage(chart({}, { series: [series('High', 21)], axis_config: { categories: labels(21) } })),
    ).toEqual([
      'no more than 20 items allowed [json-pointer:/blocks/0/chart/axis_config/categories]',
      'no more than 20 items allowed [json-pointer:/blocks/0/chart/series/0/data]',
    ]);
    expect(inMessage(chart({}, { series: [] }))).toEqual([
      'must provide at least 1 items [json-pointer:/blocks/0/chart/series]',
    ]);
    const pie = (segments: Obj[]) => ({
      type: 'data_visualization',
      title: 'Share',
      chart: { type: 'pie', segments },
    });
    expect(inMessage(pie([{ label: 'a', value: 1 }]))).toEqual([]);
    expect(inMessage(pie([{ label: 'a', value: 0 }]))).toEqual([
      'must be greater than 0 [json-pointer:/blocks/0/chart/segments/0/value]',
    ]);
  });

  it('holds the title to 50, names and labels to 20, axis titles to 50, and knows only its chart types', () => {
    expect(inMessage(chart({ title: 't'.repeat(50) }))).toEqual([]);
    expect(inMessage(chart({ title: 't'.repeat(51) }))).toEqual([
      'must be less than 51 characters [json-pointer:/blocks/0/title]',
    ]);
    expect(inMessage(chart({ title: undefined }))).toEqual([
      'missing required field: title [json-pointer:/blocks/0]',
    ]);
    expect(inMessage(chart({}, { series: [series('n'.repeat(21), 3)] }))).toEqual([
      'must be less than 21 characters [json-pointer:/blocks/0/chart/series/0/name]',
    ]);
    expect(inMessage(chart({}, { axis_config: { categories: labels(3), y_label: 'y'.repeat(51) } }))).toEqual(
      ['must be less than 51 characters [json-pointer:/blocks/0/chart/axis_config/y_label]'],
    );
    expect(inMessage(chart({}, { type: 'scatter' }))).toEqual([
      'must be a valid enum value [json-pointer:/blocks/0/chart/type]',
    ]);
  });

  it('wants unique series names, points on the axis categories and numeric values', () => {
    expect(inMessage(chart({}, { series: [series('High', 3), series('High', 3)] }))).toEqual([
      'series names must be unique [json-pointer:/blocks/0/chart/series/1/name]',
    ]);
    const off = { name: 'High', data: [{ label: 'elsewhere', value: 'x' }] };
    expect(inMessage(chart({}, { series: [off] }))).toEqual([
      'label must be one of axis_config.categories [json-pointer:/blocks/0/chart/series/0/data/0/label]',
      'must be a number [json-pointer:/blocks/0/chart/series/0/data/0/value]',
    ]);
  });
});

describe('data_table', () => {
  it('takes a header and 1–100 rows of 1–20 equal cells, raw_text, raw_number or rich_text', () => {
    const rows = (n: number) => Array.from({ length: n }, (_, i) => [raw(`id${i}`), number(i)]);
    expect(inMessage(table([header, ...rows(100)], { page_size: 100 }))).toEqual([]);
    expect(inMessage(table([header, ...rows(101)]))).toEqual([
      'no more than 101 items allowed [json-pointer:/blocks/0/rows]',
    ]);
    expect(inMessage(table([header]))).toEqual([
      'must provide at least 2 items [json-pointer:/blocks/0/rows]',
    ]);
    const wide = Array.from({ length: 21 }, () => raw('c'));
    expect(inMessage(table([wide, wide]))).toEqual([
      'no more than 20 columns allowed [json-pointer:/blocks/0/rows/0]',
    ]);
    expect(inMessage(table([header, [raw('only one')]]))).toEqual([
      'all rows must have the same number of values [json-pointer:/blocks/0/rows/1]',
    ]);
    const link: Obj = {
      type: 'rich_text',
      elements: [
        { type: 'rich_text_section', elements: [{ type: 'link', url: 'https://x.example', text: 'x' }] },
      ],
    };
    expect(inMessage(table([header, [link, number(1)]]))).toEqual([]);
    expect(
      inMessage(
        table([
          [link, raw('Events')],
          [raw('a'), number(1)],
        ]),
      ),
    ).toEqual(['rich_text cannot be used in the header row [json-pointer:/blocks/0/rows/0/0]']);
    expect(inMessage(table([header, [{ type: 'mrkdwn', text: 'x' }, number(1)]]))).toEqual([
      'must be a valid enum value [json-pointer:/blocks/0/rows/1/0/type]',
    ]);
  });

  it('needs a caption, pages of 1–100 rows, and at most 10,000 characters in a table and in a message', () => {
    expect(inMessage(table([header, [raw('a'), number(1)]], { caption: undefined }))).toEqual([
      'missing required field: caption [json-pointer:/blocks/0]',
    ]);
    expect(inMessage(table([header, [raw('a'), number(1)]], { page_size: 0 }))).toEqual([
      'must be between 1 and 100 [json-pointer:/blocks/0/page_size]',
    ]);
    const big = (n: number) => table([header, [raw('x'.repeat(n)), number(1)]], { block_id: `t${n}` });
    // The header holds 16 characters and the number cell 1.
    expect(inMessage(big(10_000 - 17))).toEqual([]);
    expect(inMessage(big(10_000 - 16))).toEqual([
      'cells hold 10001 characters, over the 10000 of one table [json-pointer:/blocks/0/rows]',
    ]);
    expect(inMessage(big(6000), big(5000))).toEqual([
      'data tables hold 11034 characters, over the 10000 of one message [json-pointer:/blocks]',
    ]);
  });
});

describe('data blocks over HTTP', () => {
  let fake: FakeSlack;
  beforeAll(async () => {
    fake = await startFakeSlack();
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('posts a valid chart and table, and refuses an invalid one with invalid_blocks', async () => {
    const post = (blocks: Obj[]) =>
      callJson(fake, 'chat.postMessage', {
        channel: SEEDED_CHANNELS.general,
        text: 'Trend: 3 events',
        blocks,
      });
    const ok = await post([chart(), table([header, [raw('acme'), number(3)]])]);
    expect(ok.body).toMatchObject({ ok: true });
    const refused = await post([chart({ title: 't'.repeat(51) })]);
    expect(refused.body).toMatchObject({
      ok: false,
      error: 'invalid_blocks',
      errors: ['must be less than 51 characters [json-pointer:/blocks/0/title]'],
    });
  });
});
