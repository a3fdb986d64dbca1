/** Minimal, safe HTML for Vigil's own pages: every interpolated value goes through `escapeHtml`. */

/** @internal */
export function escapeHtml(s: string): string {
  return s
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** A value already escaped or built from escaped parts. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** Tagged template: interpolations are escaped unless they are Html (or arrays of Html). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] ?? '';
  values.forEach((v, i) => {
    out += render(v) + (strings[i + 1] ?? '');
  });
  return new Html(out);
}

function render(v: unknown): string {
  if (v instanceof Html) return v.value;
  if (Array.isArray(v)) return v.map(render).join('');
  if (v === undefined || v === null || v === false) return '';
  return escapeHtml(String(v));
}

export interface Page {
  status: number;
  body: Html;
}

const STYLE = `
  :root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; }
  body { max-width: 36rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5; }
  h1 { font-size: 1.4rem; }
  label { display: block; font-weight: 600; margin-top: 1rem; }
  input, select, button { font: inherit; padding: .5rem; width: 100%; box-sizing: border-box; margin-top: .25rem; }
  button { margin-top: 1.5rem; cursor: pointer; font-weight: 600; }
  .hint { color: GrayText; font-size: .9rem; }
  .error { border-left: 4px solid #c0392b; padding: .5rem 1rem; background: rgba(192,57,43,.08); }
  .ok { border-left: 4px solid #27ae60; padding: .5rem 1rem; background: rgba(39,174,96,.08); }
  fieldset { border: 1px solid GrayText; border-radius: 6px; margin-top: 1rem; }
  .tenant { display: flex; gap: .5rem; align-items: baseline; font-weight: normal; }
  .tenant input { width: auto; }
`;

export function layout(title: string, content: Html, status = 200): Page {
  return {
    status,
    body: html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title} · Vigil</title>
<style>${new Html(STYLE)}</style>
</head>
<body>
<main>
<h1>${title}</h1>
${content}
</main>
</body>
</html>`,
  };
}

/** Headers for every page: no caching (a form may hold a key), no framing, no scripts, no referrer leaks. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
};
