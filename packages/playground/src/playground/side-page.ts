/**
 * What the playground's pages share: JSON answers and the same-origin check on POSTs (its routes and the side
 * pages), and each side page (the agent DM, the employee's DM, the Slackbot panel) served with its script at
 * `<path>` and `<path>.js`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PAGE_HEADERS } from './page.js';
import { escapeHtml } from './render/escape.js';

export function json(res: ServerResponse, status: number, body: unknown): void {
  res
    .writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    })
    .end(JSON.stringify(body));
}

/** A POST from the playground's own page: no Origin (same-origin navigations) or this host's. */
export function isSameOrigin(req: IncomingMessage): boolean {
  return req.headers.origin === undefined || req.headers.origin === `http://${req.headers.host ?? ''}`;
}

/** Serves `GET <path>` (the page) and `GET <path>.js` (its script); false for any other request. */
export function servePage(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  side: { path: string; page: string; script: string },
): boolean {
  if (req.method !== 'GET') return false;
  if (url.pathname === side.path) {
    res.writeHead(200, PAGE_HEADERS).end(side.page);
    return true;
  }
  if (url.pathname === `${side.path}.js`) {
    res
      .writeHead(200, {
        'content-type': 'text/javascript; charset=utf-8',
        'x-content-type-options': 'nosniff',
      })
      .end(side.script);
    return true;
  }
  return false;
}

/** A side page's document: the playground's stylesheet, its own deferred script, and its `<main>`. */
export function sideDocument(title: string, script: string, main: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/playground/app.css">
<script src="${escapeHtml(script)}" defer></script>
</head>
<body>
${main}
</body>
</html>
`;
}
