/**
 * The 2026 data blocks drawn the way the Slack client lays them out: `data_visualization` as a hand-drawn SVG
 * (title above, axes, one polyline/area/bar group per series, legend below; a pie as arcs) and `data_table`
 * as an HTML table with its caption, a header row and pages of `page_size` rows (5 by default).
 * Hand-drawn rather than a chart library: four chart types over at most 6 series of 20 points need a few
 * dozen lines, and the page ships no bundler or dependency to load one. Every upstream string is escaped.
 * Shapes: https://docs.slack.dev/reference/block-kit/blocks/data-visualization-block and
 * https://docs.slack.dev/reference/block-kit/blocks/data-table-block/.
 */
import { isRecord, type Json, list, type RenderContext, str } from './elements.js';
import { escapeHtml } from './escape.js';
import { richTextHtml } from './rich-text.js';

/**
 * Slack's chart palette order is not published; these are distinct and readable on white. The legend's
 * swatches take them from app.css (`.dv-c0`…): the page's CSP allows no inline style.
 */
const COLORS = ['#e01e5a', '#ecb22e', '#2eb67d', '#36c5f0', '#4a154b', '#1264a3'];
const W = 520;
const H = 220;
const PAD = { left: 40, right: 12, top: 12, bottom: 36 };

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const fmt = (n: number): string => String(Math.round(n * 100) / 100);

interface Series {
  name: string;
  values: number[];
}

function seriesOf(chart: Json, categories: string[]): Series[] {
  return list(chart.series).map((s) => {
    const byLabel = new Map(list(s.data).map((p) => [str(p.label) ?? '', num(p.value)]));
    return { name: str(s.name) ?? '', values: categories.map((c) => byLabel.get(c) ?? 0) };
  });
}

/** A round top of the y axis (1, 2 or 5 × a power of ten) at or above the largest value. */
function niceMax(max: number): number {
  if (max <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(max));
  return ([1, 2, 5, 10].find((m) => m * p >= max) ?? 10) * p;
}

function axes(categories: string[], top: number, x: (i: number) => number, y: (v: number) => number): string {
  const ticks = [0, top / 2, top]
    .map(
      (v) =>
        `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(v)}" y2="${y(v)}" class="dv-grid"/>` +
        `<text x="${PAD.left - 6}" y="${y(v) + 4}" text-anchor="end" class="dv-tick">${fmt(v)}</text>`,
    )
    .join('');
  const every = Math.max(1, Math.ceil(categories.length / 7));
  const labels = categories
    .map((c, i) =>
      // Counted from the last category, which is always labelled (the newest day of a trend).
      (categories.length - 1 - i) % every === 0
        ? `<text x="${x(i)}" y="${H - PAD.bottom + 16}" text-anchor="middle" class="dv-tick">${escapeHtml(c)}</text>`
        : '',
    )
    .join('');
  return ticks + labels;
}

function xyChart(type: string, chart: Json): string {
  const axis = isRecord(chart.axis_config) ? chart.axis_config : {};
  const categories = (Array.isArray(axis.categories) ? axis.categories : []).map((c) => String(c));
  const series = seriesOf(chart, categories);
  const top = niceMax(Math.max(0, ...series.flatMap((s) => s.values)));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, categories.length);
  const x = (i: number) => PAD.left + slot * (i + 0.5);
  const y = (v: number) => PAD.top + plotH - (v / top) * plotH;
  const marks = series
    .map((s, k) => {
      const color = COLORS[k % COLORS.length];
      if (type === 'bar') {
        const bw = (slot * 0.8) / Math.max(1, series.length);
        return s.values
          .map((v, i) => {
            const bx = PAD.left + slot * i + slot * 0.1 + bw * k;
            return `<rect x="${fmt(bx)}" y="${fmt(y(v))}" width="${fmt(bw)}" height="${fmt(y(0) - y(v))}" fill="${color}"><title>${escapeHtml(`${s.name} · ${categories[i] ?? ''}: ${fmt(v)}`)}</title></rect>`;
          })
          .join('');
      }
      const pts = s.values.map((v, i) => `${fmt(x(i))},${fmt(y(v))}`).join(' ');
      const area =
        type === 'area'
          ? `<polygon points="${fmt(x(0))},${fmt(y(0))} ${pts} ${fmt(x(s.values.length - 1))},${fmt(y(0))}" fill="${color}" fill-opacity="0.25"/>`
          : '';
      const dots = s.values
        .map(
          (v, i) =>
            `<circle cx="${fmt(x(i))}" cy="${fmt(y(v))}" r="2.5" fill="${color}"><title>${escapeHtml(`${s.name} · ${categories[i] ?? ''}: ${fmt(v)}`)}</title></circle>`,
        )
        .join('');
      return `${area}<polyline points="${pts}" fill="none" stroke="${color}" stroke-width="2"/>${dots}`;
    })
    .join('');
  const xLabel = str(axis.x_label);
  const yLabel = str(axis.y_label);
  const titles =
    (xLabel
      ? `<text x="${PAD.left + plotW / 2}" y="${H - 4}" text-anchor="middle" class="dv-axis">${escapeHtml(xLabel)}</text>`
      : '') +
    (yLabel
      ? `<text x="10" y="${PAD.top + plotH / 2}" transform="rotate(-90 10 ${PAD.top + plotH / 2})" text-anchor="middle" class="dv-axis">${escapeHtml(yLabel)}</text>`
      : '');
  return svg(axes(categories, top, x, y) + marks + titles, legend(series.map((s) => s.name)));
}

function pieChart(chart: Json): string {
  const segments = list(chart.segments).map((s) => ({
    label: str(s.label) ?? '',
    value: Math.max(0, num(s.value)),
  }));
  const sum = segments.reduce((n, s) => n + s.value, 0) || 1;
  const cx = W / 2;
  const cy = (H - 20) / 2;
  const r = Math.min(cx, cy) - 8;
  let angle = -Math.PI / 2;
  const arcs = segments
    .map((s, k) => {
      const sweep = (s.value / sum) * Math.PI * 2;
      const a0 = angle;
      angle += sweep;
      const large = sweep > Math.PI ? 1 : 0;
      const p = (a: number) => `${fmt(cx + r * Math.cos(a))},${fmt(cy + r * Math.sin(a))}`;
      const d =
        sweep >= Math.PI * 2 - 1e-9
          ? `M ${fmt(cx - r)},${fmt(cy)} a ${r},${r} 0 1,0 ${r * 2},0 a ${r},${r} 0 1,0 ${-r * 2},0`
          : `M ${fmt(cx)},${fmt(cy)} L ${p(a0)} A ${r},${r} 0 ${large},1 ${p(angle)} Z`;
      return `<path d="${d}" fill="${COLORS[k % COLORS.length]}"><title>${escapeHtml(`${s.label}: ${fmt((s.value / sum) * 100)}%`)}</title></path>`;
    })
    .join('');
  return svg(arcs, legend(segments.map((s) => s.label)));
}

function svg(inner: string, legendHtml: string): string {
  return `<svg class="dv-svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img">${inner}</svg>${legendHtml}`;
}

function legend(names: string[]): string {
  const items = names
    .map(
      (n, k) =>
        `<span class="dv-legend-item"><span class="dv-swatch dv-c${k % COLORS.length}"></span>${escapeHtml(n)}</span>`,
    )
    .join('');
  return `<div class="dv-legend">${items}</div>`;
}

export function dataVisualizationHtml(block: Json): string {
  const chart = isRecord(block.chart) ? block.chart : {};
  const type = str(chart.type) ?? '';
  const body =
    type === 'pie' ? pieChart(chart) : ['line', 'bar', 'area'].includes(type) ? xyChart(type, chart) : '';
  return (
    `<figure class="bk-data-visualization" data-chart-type="${escapeHtml(type)}">` +
    `<figcaption class="dv-title">${escapeHtml(str(block.title) ?? '')}</figcaption>${body}</figure>`
  );
}

function cellHtml(cell: unknown, ctx: RenderContext): string {
  if (!isRecord(cell)) return '';
  if (cell.type === 'rich_text') return richTextHtml(cell, ctx);
  if (cell.type === 'raw_number') return escapeHtml(str(cell.text) ?? fmt(num(cell.value)));
  return escapeHtml(str(cell.text) ?? '');
}

/** A data table: caption, header row, every row (pages of `page_size`, the first shown, the others hidden). */
export function dataTableHtml(block: Json, ctx: RenderContext): string {
  const rows = Array.isArray(block.rows) ? block.rows.filter(Array.isArray) : [];
  const [header = [], ...body] = rows as unknown[][];
  const pageSize = typeof block.page_size === 'number' && block.page_size >= 1 ? block.page_size : 5;
  const numeric = header.map((_, c) => body.every((r) => isRecord(r[c]) && r[c].type === 'raw_number'));
  const th = header.map((c) => `<th scope="col">${cellHtml(c, ctx)}</th>`).join('');
  const trs = body
    .map((r, i) => {
      const tds = r
        .map((c, j) => `<td${numeric[j] ? ' class="dt-num"' : ''}>${cellHtml(c, ctx)}</td>`)
        .join('');
      return `<tr data-page="${Math.floor(i / pageSize) + 1}"${i >= pageSize ? ' hidden' : ''}>${tds}</tr>`;
    })
    .join('');
  const pages = Math.max(1, Math.ceil(body.length / pageSize));
  const pager = pages > 1 ? `<div class="dt-pager">Page 1 of ${pages} · ${body.length} rows</div>` : '';
  return (
    `<div class="bk-data-table"><table><caption>${escapeHtml(str(block.caption) ?? '')}</caption>` +
    `<thead><tr>${th}</tr></thead><tbody>${trs}</tbody></table>${pager}</div>`
  );
}
