/**
 * Cutting text to a limit without breaking what it holds: plain text at whole characters (never inside a
 * surrogate pair), escaped mrkdwn at whole units (never inside an entity, a surrogate pair or a `<…>` token)
 * and, for mrkdwn, never between an opening `*` and its closing one. Escape first, then cut.
 */

/** Cuts plain text to at most `max` UTF-16 units (marker included), never inside a surrogate pair. */
export function truncatePlain(s: string, max: number, marker = '…'): string {
  if (s.length <= max) return s;
  if (max <= 0) return '';
  const room = max - marker.length;
  if (room < 0) return truncatePlain(s, max, '');
  let out = '';
  for (const ch of s) {
    if (out.length + ch.length > room) break;
    out += ch;
  }
  return out.trimEnd() + marker;
}

// Units that must never be split: Slack tokens (<…>), entities, surrogate pairs, a code block's fence, then
// single code units.
const UNIT =
  /<[^<>]*>|&(?:[a-zA-Z][a-zA-Z0-9]*|#\d+|#[xX][0-9a-fA-F]+);|[\uD800-\uDBFF][\uDC00-\uDFFF]|```|[\s\S]/g;

/** The indivisible units of mrkdwn (see UNIT), lazily: callers stop as soon as they have enough. */
export function* mrkdwnUnits(s: string): Generator<string> {
  const re = new RegExp(UNIT.source, 'g');
  for (let m = re.exec(s); m !== null; m = re.exec(s)) yield m[0];
}

/**
 * Cuts escaped text (mrkdwn, or a code span's content) to at most `max` characters, marker included, at a
 * boundary of whole characters: never inside an entity, a surrogate pair or a `<…>` token. Escape first, then
 * cut: the limit holds for what is sent, and `&lt;` is never left as `&lt`.
 */
export function truncateEscaped(s: string, max: number, marker = '…'): string {
  if (s.length <= max) return s;
  if (max <= 0) return '';
  if (marker.length > max) return truncateEscaped(s, max, '');
  const room = max - marker.length;
  let out = '';
  for (const unit of mrkdwnUnits(s)) {
    if (out.length + unit.length > room) break;
    out += unit;
  }
  return out.trimEnd() + marker;
}

/**
 * Cuts mrkdwn to at most `max` characters (marker included), never inside an entity, a surrogate pair, a
 * `<…>` token, code (a span or a block: cut before it opens), or between an opening `*` and its closing one
 * (a `*` inside code is no marker).
 */
export function truncate(s: string, max: number, marker = '…'): string {
  if (s.length <= max) return s;
  if (max <= 0) return '';
  if (marker.length > max) return truncate(s, max, '');
  const room = max - marker.length;
  let out = '';
  let bold = false;
  let boldAt = -1;
  let code = false;
  let fence = false;
  let codeAt = -1;
  for (const unit of mrkdwnUnits(s)) {
    if (out.length + unit.length > room) break;
    if (unit === '```' && !code) {
      fence = !fence;
      if (fence) codeAt = out.length;
    } else if (unit === '`' && !fence) {
      code = !code;
      if (code) codeAt = out.length;
    } else if (unit === '*' && !code && !fence) {
      bold = !bold;
      if (bold) boldAt = out.length;
    }
    out += unit;
  }
  // Nothing opens inside open code, so what was open before the code opened still is: close it too.
  if (code || fence) out = out.slice(0, codeAt);
  if (bold) out = out.slice(0, boldAt).replace(/\u200B$/, '');
  // An underscore kept because it sat inside a word would end one at the cut, where Slack reads it as italics.
  return out.trimEnd().replace(/_+$/, (u) => '\u02CD'.repeat(u.length)) + marker;
}
