/**
 * Cross-site form posts to the connect page are refused: a browser says where a POST comes from in
 * `Origin`, or in `Sec-Fetch-Site`. Pages are served with `Referrer-Policy: no-referrer`, which makes browsers
 * send `Origin: null` even for our own forms, so `null` defers to `Sec-Fetch-Site`. A request with neither
 * (not a browser, or a very old one) is left to the per-page form token, which a foreign page cannot read.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { html, layout, type Page } from './html.js';

export function foreignOriginRefusal(headers: IncomingHttpHeaders, ownOrigin: string): Page | undefined {
  const origin = first(headers.origin);
  if (origin !== undefined && origin !== 'null') return origin === ownOrigin ? undefined : refusal(ownOrigin);
  const site = first(headers['sec-fetch-site']);
  if (site !== undefined && site !== 'same-origin') return refusal(ownOrigin);
  return undefined;
}

function refusal(ownOrigin: string): Page {
  return layout(
    'This form was sent from another site',
    html`<p class="error">Vigil only accepts this form from its own page at <code>${ownOrigin}</code>.</p>
<p>Open the link from <code>/vigil connect</code> in Slack exactly as given, and submit the form on that page.
If you reached Vigil through a different address, ask whoever runs Vigil to set <code>VIGIL_PUBLIC_URL</code> to it.</p>`,
    403,
  );
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
