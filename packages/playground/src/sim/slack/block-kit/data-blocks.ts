/**
 * The 2026 data blocks: `data_visualization` (line, bar, area, pie) and `data_table`, held to the published
 * shapes and limits so a payload Slack would refuse (invalid_blocks) is refused here too.
 * - https://docs.slack.dev/reference/block-kit/blocks/data-visualization-block
 * - https://docs.slack.dev/reference/block-kit/blocks/data-table-block/
 */
import { isRecord, type Json, type Problems } from './check.js';

/** "A short label displayed above the chart. Maximum 50 characters." */
const TITLE_MAX = 50;
/** Series (and pie segments): "Min 1, max 6". */
const SERIES_MAX = 6;
/** Data points of one series: min 1, max 20 (the Data Series type). */
const POINTS_MAX = 20;
/** Series names, point labels, categories and segment labels: 20 characters at most. */
const LABEL_MAX = 20;
/** Axis titles (`x_label`, `y_label`): 50 characters at most. */
const AXIS_LABEL_MAX = 50;

/** Rows: "a minimum of 2 rows (1 regular row plus the header) and a maximum of 101 rows". */
const ROWS_MIN = 2;
const ROWS_MAX = 101;
/** Columns: "a minimum of 1 column and a maximum of 20 columns". */
const COLUMNS_MAX = 20;
/** "A single table's character count across all cells cannot exceed 10,000 characters", nor a message's. */
export const TABLE_CHARS_MAX = 10_000;

function finite(p: Problems, v: unknown, at: string): v is number {
  if (v === undefined) {
    p.missing(at);
    return false;
  }
  if (typeof v !== 'number' || !Number.isFinite(v)) {
    p.add('must be a number', at);
    return false;
  }
  return true;
}

function axisConfig(p: Problems, a: unknown, at: string): string[] {
  if (a === undefined) {
    p.missing(at);
    return [];
  }
  if (!isRecord(a)) {
    p.add('must be an object', at);
    return [];
  }
  const categories = p.array(a.categories, `${at}/categories`, POINTS_MAX, { min: 1, required: true });
  categories.forEach((c, i) => {
    p.string(c, `${at}/categories/${i}`, LABEL_MAX, { min: 1, required: true });
  });
  p.string(a.x_label, `${at}/x_label`, AXIS_LABEL_MAX, { min: 1 });
  p.string(a.y_label, `${at}/y_label`, AXIS_LABEL_MAX, { min: 1 });
  p.unknownFields(a, ['categories', 'x_label', 'y_label'], at);
  return categories.filter((c): c is string => typeof c === 'string');
}

/** One Data Series: a name (≤ 20, unique in the chart) and 1–20 points whose labels are axis categories. */
function dataSeries(p: Problems, s: unknown, at: string, categories: readonly string[]): string | undefined {
  if (!isRecord(s)) {
    p.add('must be an object', at);
    return undefined;
  }
  p.string(s.name, `${at}/name`, LABEL_MAX, { min: 1, required: true });
  const points = p.array(s.data, `${at}/data`, POINTS_MAX, { min: 1, required: true });
  points.forEach((pt, i) => {
    const where = `${at}/data/${i}`;
    if (!isRecord(pt)) {
      p.add('must be an object', where);
      return;
    }
    p.string(pt.label, `${where}/label`, LABEL_MAX, { min: 1, required: true });
    if (typeof pt.label === 'string' && categories.length > 0 && !categories.includes(pt.label))
      p.add('label must be one of axis_config.categories', `${where}/label`);
    finite(p, pt.value, `${where}/value`);
    p.unknownFields(pt, ['label', 'value'], where);
  });
  p.unknownFields(s, ['name', 'data'], at);
  return typeof s.name === 'string' ? s.name : undefined;
}

function xyChart(p: Problems, c: Json, at: string): void {
  const categories = axisConfig(p, c.axis_config, `${at}/axis_config`);
  const series = p.array(c.series, `${at}/series`, SERIES_MAX, { min: 1, required: true });
  const names = new Set<string>();
  series.forEach((s, i) => {
    const name = dataSeries(p, s, `${at}/series/${i}`, categories);
    if (name === undefined) return;
    if (names.has(name)) p.add('series names must be unique', `${at}/series/${i}/name`);
    names.add(name);
  });
  p.unknownFields(c, ['type', 'series', 'axis_config'], at);
}

function pieChart(p: Problems, c: Json, at: string): void {
  const segments = p.array(c.segments, `${at}/segments`, SERIES_MAX, { min: 1, required: true });
  segments.forEach((s, i) => {
    const where = `${at}/segments/${i}`;
    if (!isRecord(s)) {
      p.add('must be an object', where);
      return;
    }
    p.string(s.label, `${where}/label`, LABEL_MAX, { min: 1, required: true });
    // "Numeric weight of this slice. Must be greater than 0."
    if (finite(p, s.value, `${where}/value`) && s.value <= 0)
      p.add('must be greater than 0', `${where}/value`);
    p.unknownFields(s, ['label', 'value'], where);
  });
  p.unknownFields(c, ['type', 'segments'], at);
}

export function dataVisualization(p: Problems, b: Json, at: string): void {
  p.string(b.title, `${at}/title`, TITLE_MAX, { min: 1, required: true });
  const c = b.chart;
  if (c === undefined) p.missing(`${at}/chart`);
  else if (!isRecord(c)) p.add('must be an object', `${at}/chart`);
  else if (c.type === 'pie') pieChart(p, c, `${at}/chart`);
  else if (c.type === 'line' || c.type === 'bar' || c.type === 'area') xyChart(p, c, `${at}/chart`);
  else p.oneOf(c.type, ['line', 'bar', 'area', 'pie'], `${at}/chart/type`, true);
  p.unknownFields(b, ['type', 'block_id', 'title', 'chart'], at);
}

/** A cell's characters, counted toward the 10,000 of a table (rich_text: its text and link elements). */
function cellChars(cell: unknown): number {
  if (Array.isArray(cell)) return cell.reduce((n: number, c) => n + cellChars(c), 0);
  if (!isRecord(cell)) return 0;
  let n = 0;
  for (const [k, v] of Object.entries(cell)) {
    if (k === 'text' && typeof v === 'string') n += v.length;
    else if (typeof v === 'object') n += cellChars(v);
  }
  return n;
}

function cell(p: Problems, c: unknown, at: string, header: boolean): void {
  if (!isRecord(c)) {
    p.add('must be an object', at);
    return;
  }
  switch (c.type) {
    case 'raw_text':
      p.string(c.text, `${at}/text`, TABLE_CHARS_MAX, { min: 1, required: true });
      p.unknownFields(c, ['type', 'text'], at);
      return;
    case 'raw_number':
      finite(p, c.value, `${at}/value`);
      p.string(c.text, `${at}/text`, TABLE_CHARS_MAX, { min: 1 });
      p.unknownFields(c, ['type', 'value', 'text'], at);
      return;
    case 'rich_text':
      // "rich_text cannot be used for header cells."
      if (header) p.add('rich_text cannot be used in the header row', at);
      p.array(c.elements, `${at}/elements`, 100, { min: 1, required: true });
      p.unknownFields(c, ['type', 'block_id', 'elements'], at);
      return;
    default:
      p.oneOf(c.type, ['raw_text', 'raw_number', 'rich_text'], `${at}/type`, true);
  }
}

/** Problems with a data_table; returns its character count (the message's own 10,000 is summed by the caller). */
export function dataTable(p: Problems, b: Json, at: string): number {
  p.string(b.caption, `${at}/caption`, 3000, { min: 1, required: true });
  // "Number of rows per page. Min 1, Max 100. Defaults to 5 if omitted."
  p.integer(b.page_size, `${at}/page_size`, 1, 100);
  const rows = p.array(b.rows, `${at}/rows`, ROWS_MAX, { min: ROWS_MIN, required: true });
  const width = Array.isArray(rows[0]) ? rows[0].length : 0;
  if (width > COLUMNS_MAX) p.add(`no more than ${COLUMNS_MAX} columns allowed`, `${at}/rows/0`);
  if (rows.length > 0 && width < 1) p.add('must provide at least 1 column', `${at}/rows/0`);
  rows.forEach((row, r) => {
    const where = `${at}/rows/${r}`;
    if (!Array.isArray(row)) {
      p.add('must be an array', where);
      return;
    }
    // "All rows must have the same number of values."
    if (row.length !== width) p.add('all rows must have the same number of values', where);
    row.forEach((c, i) => {
      cell(p, c, `${where}/${i}`, r === 0);
    });
  });
  p.integer(b.row_header_column_index, `${at}/row_header_column_index`, 0, Math.max(0, width - 1));
  const chars = cellChars(rows);
  if (chars > TABLE_CHARS_MAX)
    p.add(`cells hold ${chars} characters, over the ${TABLE_CHARS_MAX} of one table`, `${at}/rows`);
  p.unknownFields(b, ['type', 'block_id', 'caption', 'page_size', 'rows', 'row_header_column_index'], at);
  return chars;
}
