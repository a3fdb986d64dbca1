/** The playground draws data blocks as Slack lays them out: an SVG chart with its legend, an HTML table in pages. */
import { describe, expect, it } from 'vitest';
import { blocksHtml, type RenderContext } from '../../src/playground/render/blocks.js';

const ctx: RenderContext = {
  timeZone: 'UTC',
  nowMs: Date.UTC(2026, 10, 23),
  userName: () => undefined,
  channelName: () => undefined,
  directory: { users: [], channels: [] },
};
const categories = ['Nov 21', 'Nov 22', 'Nov 23'];
const chart = (type: string) => ({
  type: 'data_visualization',
  title: 'New events <by> severity',
  chart: {
    type,
    series: [
      { name: 'Critical', data: categories.map((label, i) => ({ label, value: i })) },
      { name: 'High <b>', data: categories.map((label, i) => ({ label, value: 3 - i })) },
    ],
    axis_config: { categories, x_label: 'Day', y_label: 'New events' },
  },
});
const raw = (text: string) => ({ type: 'raw_text', text });
const num = (value: number) => ({ type: 'raw_number', value, text: String(value) });

describe('data_visualization', () => {
  it('draws a line chart: one polyline and a legend entry per series, the categories on the x axis', () => {
    const html = blocksHtml([chart('line')], ctx);
    expect(html).toContain('<figcaption class="dv-title">New events &lt;by&gt; severity</figcaption>');
    expect(html.match(/<polyline /g)).toHaveLength(2);
    expect(html).toContain('High &lt;b&gt;</span>');
    for (const c of categories) expect(html).toContain(`>${c}</text>`);
    expect(html).not.toContain('<b>');
  });

  it('draws bars as one rectangle per point, an area as a filled polygon, a pie as one arc per segment', () => {
    expect(blocksHtml([chart('bar')], ctx).match(/<rect /g)).toHaveLength(6);
    expect(blocksHtml([chart('area')], ctx).match(/<polygon /g)).toHaveLength(2);
    const pie = {
      type: 'data_visualization',
      title: 'Share',
      chart: {
        type: 'pie',
        segments: [
          { label: 'a', value: 1 },
          { label: 'b', value: 3 },
        ],
      },
    };
    const html = blocksHtml([pie], ctx);
    expect(html.match(/<path /g)).toHaveLength(2);
    expect(html).toContain('<title>b: 75%</title>');
  });
});

describe('data_table', () => {
  it('draws the caption, the header and the first page, later pages hidden, numbers right-aligned', () => {
    const rows = Array.from({ length: 7 }, (_, i) => [raw(`id <${i}>`), num(i)]);
    const html = blocksHtml(
      [
        {
          type: 'data_table',
          caption: 'Top identifiers',
          rows: [[raw('Identifier'), raw('Events')], ...rows],
        },
      ],
      ctx,
    );
    expect(html).toContain('<caption>Top identifiers</caption>');
    expect(html).toContain('<th scope="col">Identifier</th>');
    expect(html.match(/<tr data-page="1">/g)).toHaveLength(5);
    expect(html.match(/<tr data-page="2" hidden>/g)).toHaveLength(2);
    expect(html).toContain('<td>id &lt;0&gt;</td><td class="dt-num">0</td>');
    expect(html).toContain('Page 1 of 2 · 7 rows');
  });

  it('shows a rich_text cell’s link, and no unsafe one', () => {
    const link = (url: string) => ({
      type: 'rich_text',
      elements: [{ type: 'rich_text_section', elements: [{ type: 'link', url, text: 'acme' }] }],
    });
    const html = blocksHtml(
      [
        {
          type: 'data_table',
          caption: 'c',
          rows: [
            [raw('Identifier')],
            [link('https://app.flare.io/#/feed/1/event/x')],
            [link('javascript:alert(1)')],
          ],
        },
      ],
      ctx,
    );
    expect(html).toContain('href="https://app.flare.io/#/feed/1/event/x"');
    expect(html).not.toContain('javascript:');
  });
});
