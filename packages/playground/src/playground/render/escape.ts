/** HTML escaping and URL vetting shared by the playground's renderers: upstream text never becomes markup. */

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Escapes text for an HTML text node or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** Slack escapes `&`, `<` and `>` in message text; turn them back into characters before re-escaping. */
export function decodeSlackEntities(text: string): string {
  return text.replace(/&(amp|lt|gt);/g, (_, name: string) =>
    name === 'amp' ? '&' : name === 'lt' ? '<' : '>',
  );
}

/** The URL when it is an absolute http(s) URL, else undefined: no javascript:, data: or relative links. */
export function safeHttpUrl(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || !URL.canParse(raw)) return undefined;
  const url = new URL(raw);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
}

/** An external link that opens in a new tab and tells the target nothing about the page. */
export function linkHtml(href: string, innerHtml: string): string {
  return `<a href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer nofollow">${innerHtml}</a>`;
}
