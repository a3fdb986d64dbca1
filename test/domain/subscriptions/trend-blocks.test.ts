/**
 * Golden Block Kit of a digest's trend (a quiet day, a flood, a single identifier, a weekly digest across the
 * end of DST), each valid by the simulated Slack's rules for data blocks, and the same numbers in the chart,
 * the table, the paragraph and the message text.
 */
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { blockProblems } from '../../../packages/playground/src/sim/slack/block-limits.js';
import { buildTrend, type TrendEvent, type TrendInput } from '../../../src/domain/subscriptions/trend.js';
import type { DataVisualizationBlock } from '../../../src/domain/subscriptions/trend-blocks.js';
import { trendMessagePart } from '../../../src/domain/subscriptions/trend-message.js';
import type { LinkOf } from '../../../src/domain/subscriptions/what-changed.js';

const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const;
const at = (iso: string, zone: string) => DateTime.fromISO(iso, { zone }).toMillis();

/** A deterministic spread of `n` events over local days, identifiers and severities. */
function spread(opts: {
  zone: string;
  days: string[];
  perDay: (day: number) => number;
  identifiers: number;
}): TrendEvent[] {
  const out: TrendEvent[] = [];
  opts.days.forEach((day, d) => {
    for (let i = 0; i < opts.perDay(d); i++) {
      const id = 3000 + ((i * 7 + d) % opts.identifiers);
      out.push({
        at: at(
          `${day}T${String(1 + (i % 22)).padStart(2, '0')}:${String((i * 13) % 60).padStart(2, '0')}`,
          opts.zone,
        ),
        severity: SEVERITIES[(i + d) % SEVERITIES.length] ?? 'info',
        identifier: { id, name: id === 3000 ? 'acme.com <script>' : `identifier-${id}` },
      });
    }
  });
  return out;
}

function daysEnding(last: string, n: number, zone: string): string[] {
  const end = DateTime.fromISO(last, { zone });
  return Array.from({ length: n }, (_, i) => end.minus({ days: n - 1 - i }).toISODate() ?? '');
}

const linkOf: LinkOf = (ref) =>
  `https://vigil.example/search?${new URLSearchParams(Object.entries(ref).map(([k, v]): [string, string] => [k, String(v)]))}`;

const ZONE = 'Europe/Paris';
const CASES: Record<string, TrendInput> = {
  'quiet-day': {
    period: 'day',
    zone: ZONE,
    localDate: '2026-11-23',
    // Events earlier in the fortnight, none today.
    events: spread({
      zone: ZONE,
      days: daysEnding('2026-11-22', 13, ZONE),
      perDay: (d) => d % 3,
      identifiers: 2,
    }),
    open: { count: 4, oldestAt: at('2026-11-12T10:00', ZONE) },
  },
  flood: {
    period: 'day',
    zone: ZONE,
    localDate: '2026-11-23',
    events: spread({
      zone: ZONE,
      days: daysEnding('2026-11-23', 14, ZONE),
      perDay: (d) => (d === 13 ? 400 : 10 + d),
      identifiers: 37,
    }),
    resolved: [
      { by: 'U0ALICE', count: 12 },
      { by: 'U0BOB', count: 3 },
    ],
    open: { count: 512, oldestAt: at('2026-10-01T08:00', ZONE) },
  },
  'single-identifier': {
    period: 'day',
    zone: ZONE,
    localDate: '2026-11-23',
    events: spread({
      zone: ZONE,
      days: daysEnding('2026-11-23', 14, ZONE),
      perDay: (d) => d % 4,
      identifiers: 1,
    }),
    resolved: [{ by: 'U0ALICE', count: 1 }],
    open: { count: 1, oldestAt: at('2026-11-20T09:30', ZONE) },
  },
  'weekly-dst': {
    period: 'week',
    zone: 'America/New_York',
    // A Monday digest the day after clocks fell back (1 November 2026).
    localDate: '2026-11-02',
    events: [
      ...spread({
        zone: 'America/New_York',
        days: daysEnding('2026-11-02', 84, 'America/New_York'),
        perDay: (d) => d % 2,
        identifiers: 5,
      }),
      // 01:30 happens twice on 1 November: both belong to that day, in the current week.
      {
        at: Date.parse('2026-11-01T05:30:00Z'),
        severity: 'critical',
        identifier: { id: 3001, name: 'identifier-3001' },
      },
      {
        at: Date.parse('2026-11-01T06:30:00Z'),
        severity: 'critical',
        identifier: { id: 3001, name: 'identifier-3001' },
      },
    ],
    open: { count: 9, oldestAt: at('2026-08-20T12:00', 'America/New_York') },
  },
};

type Cell = { type: string; value?: number; text?: string; elements?: unknown[] };

describe('digest trend blocks', () => {
  for (const [name, input] of Object.entries(CASES)) {
    it(`${name}: golden, valid, and the same numbers everywhere`, async () => {
      const trend = buildTrend(input);
      const part = trendMessagePart(trend, { linkOf });
      await expect(`${JSON.stringify(part, null, 2)}\n`).toMatchFileSnapshot(`./golden/${name}.json`);
      expect(blockProblems(part.blocks, 50, '/blocks')).toEqual([]);

      const chart = part.blocks.find((b) => b.type === ('data_visualization' as string)) as unknown as
        | DataVisualizationBlock
        | undefined;
      if (chart === undefined) throw new Error('no chart');
      const lastPoint = chart.chart.series.reduce((n, s) => n + (s.data.at(-1)?.value ?? 0), 0);
      const allPoints = chart.chart.series.reduce((n, s) => n + s.data.reduce((m, p) => m + p.value, 0), 0);
      const counted = trend.buckets.reduce(
        (n, b) => n + Object.values(b.counts).reduce((a, c) => a + c, 0),
        0,
      );
      expect(allPoints).toBe(counted);

      const table = part.blocks.find((b) => b.type === 'data_table') as { rows: Cell[][] } | undefined;
      const tableTotal = (table?.rows.slice(1) ?? []).reduce((n, r) => n + (r[1]?.value ?? 0), 0);
      expect(tableTotal).toBe(lastPoint);

      const said = /: (\d+) new events?/.exec(part.text)?.[1];
      expect(Number(said)).toBe(lastPoint);
      const paragraph = part.blocks[0] as { text: { text: string } };
      expect(paragraph.text.text).toContain(`|*${lastPoint}*>`);
      const fallback = part.blocks.at(-1) as { text: { text: string } };
      expect(fallback.text.text).toMatch(new RegExp(` ${lastPoint}(\\n|$)`));
    });
  }

  it('a weekly digest across the end of DST: 12 weeks, the repeated hour counted once each, in its week', () => {
    const trend = buildTrend(CASES['weekly-dst'] as TrendInput);
    expect(trend.buckets).toHaveLength(12);
    expect(trend.buckets.at(-1)).toMatchObject({ start: '2026-10-27', end: '2026-11-02' });
    const inputs = (CASES['weekly-dst'] as TrendInput).events.filter(
      (e) =>
        e.at >= at('2026-10-27T00:00', 'America/New_York') &&
        e.at < at('2026-11-03T00:00', 'America/New_York'),
    );
    const current = trend.buckets.at(-1)?.counts;
    expect(Object.values(current ?? {}).reduce((a, b) => a + b, 0)).toBe(inputs.length);
  });

  it('a quiet day says no new events, names no movers and keeps the chart', () => {
    const part = trendMessagePart(buildTrend(CASES['quiet-day'] as TrendInput));
    expect(part.text).toMatch(/^Since yesterday: 0 new events, against \d+ the day before/);
    expect(part.blocks.some((b) => b.type === 'data_table')).toBe(false);
    expect(part.blocks.some((b) => b.type === ('data_visualization' as string))).toBe(true);
  });

  it('upstream identifier names are escaped in mrkdwn and plain in table cells (raw_text is not mrkdwn)', () => {
    const part = trendMessagePart(buildTrend(CASES.flood as TrendInput));
    const mrkdwn = part.blocks.flatMap((b) => (b.type === 'section' && b.text ? [b.text.text] : []));
    expect(mrkdwn).toHaveLength(2);
    for (const text of mrkdwn) expect(text).toContain('acme[.]com &lt;script&gt;');
    const table = part.blocks.find((b) => b.type === 'data_table') as { rows: { text?: string }[][] };
    expect(table.rows[1]?.[0]?.text).toBe('acme.com <script>');
  });

  it("each table row opens its identifier's search for the period", () => {
    const part = trendMessagePart(buildTrend(CASES['single-identifier'] as TrendInput), { linkOf });
    const table = part.blocks.find((b) => b.type === 'data_table') as { rows: unknown[][] };
    expect(table.rows[1]?.[0]).toEqual({
      type: 'rich_text',
      elements: [
        {
          type: 'rich_text_section',
          elements: [
            {
              type: 'link',
              url: 'https://vigil.example/search?identifierId=3000&from=2026-11-23&to=2026-11-23',
              text: 'acme.com <script>',
            },
          ],
        },
      ],
    });
  });
});
