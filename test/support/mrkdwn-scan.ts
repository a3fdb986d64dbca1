/**
 * Finds raw Slack control characters in mrkdwn Vigil built: a `<`, `>` or `&` that is neither escaped nor part
 * of a control sequence Vigil writes on purpose (a validated user mention, a channel link, a user group, a
 * `<!date^…>`, an http(s) link with its label). Anything else reaches Slack as link or mention syntax:
 * `/vigil tenant <id>` shows as a broken link, `<!here>` would notify a channel.
 */

/** The control sequences Vigil builds on purpose (Slack's "advanced formatting"). */
const INTENDED =
  /<(?:@[UW][A-Z0-9]{1,30}|#C[A-Z0-9]{1,30}(?:\|[^<>]*)?|!subteam\^[A-Z0-9]{1,30}(?:\|[^<>]*)?|!date\^\d{1,12}\^[^<>|]*(?:\^[^<>|]*)?\|[^<>]*|https?:\/\/[^\s<>|]+(?:\|[^<>]*)?)>/g;
const STRAY = /[<>]|&(?!(?:amp|lt|gt);)/g;

/** Each stray control character of `text`, shown in its surroundings. */
function strayMarkup(text: string): string[] {
  const masked = text.replace(INTENDED, (m) => '\u0000'.repeat(m.length));
  const found: string[] = [];
  for (const m of masked.matchAll(STRAY)) {
    found.push(JSON.stringify(text.slice(Math.max(0, m.index - 30), m.index + 30)));
  }
  return found;
}

/** Every mrkdwn string of a message, view or payload: text objects of type mrkdwn and the top-level `text`. */
export function mrkdwnTexts(payload: unknown): string[] {
  const out: string[] = [];
  const walk = (node: unknown, topLevel: boolean): void => {
    if (Array.isArray(node)) {
      for (const n of node) walk(n, false);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const o = node as Record<string, unknown>;
    if (o.type === 'mrkdwn' && typeof o.text === 'string') out.push(o.text);
    else if (topLevel && typeof o.text === 'string' && o.mrkdwn !== false) out.push(o.text);
    for (const [key, value] of Object.entries(o)) {
      if (key === 'blocks' || key === 'view') walk(value, key === 'view');
      else if (typeof value === 'object') walk(value, false);
    }
  };
  walk(payload, true);
  return out;
}

/** The stray control characters anywhere in a payload's mrkdwn. */
export function strayMarkupIn(payload: unknown): string[] {
  return mrkdwnTexts(payload).flatMap(strayMarkup);
}
