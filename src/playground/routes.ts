/**
 * The playground's HTTP routes, served by Vigil's own server: the page, its script and style, and a small
 * JSON API the page calls. Same-origin JSON only: a cross-site form or a page elsewhere cannot drive it.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger.js';
import type { FakeSlack } from '../sim/slack/index.js';
import type { ElementInput } from './inputs.js';
import { PAGE_HEADERS, type PageFacts, pageHtml } from './page.js';
import type { RenderContext } from './render/blocks.js';
import { validTimeZone } from './render/dates.js';
import type { Outcome, PlaygroundSession } from './session.js';
import { type Snapshot, snapshot } from './timeline.js';

export interface PlaygroundRouteOptions {
  session: PlaygroundSession;
  slack: FakeSlack;
  logger: Logger;
  page: PageFacts;
  assets: { script: string; style: string };
  context(timeZone: string): RenderContext;
  /**
   * Host names the page may be reached by (the Host header); undefined allows any (listening on every
   * interface was asked for). Refusing others stops a DNS-rebound site from driving a local playground.
   */
  allowedHostnames: ReadonlySet<string> | undefined;
  runDigestsNow?: () => Promise<void>;
}

const BODY_LIMIT = 64 * 1024;
const MAX_COMMAND = 4_000;

class BadRequest extends Error {}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  if (!(req.headers['content-type'] ?? '').startsWith('application/json')) throw new BadRequest('JSON only');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT) throw new BadRequest('body too large');
    chunks.push(chunk);
  }
  const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new BadRequest('object expected');
  return value as Record<string, unknown>;
}

const text = (v: unknown, max = 256): string => (typeof v === 'string' ? v.slice(0, max) : '');

function elementInput(v: unknown): ElementInput | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const o = v as Record<string, unknown>;
  const values = Array.isArray(o.values)
    ? o.values.filter((x): x is string => typeof x === 'string').map((x) => x.slice(0, 3000))
    : [];
  const blockId = text(o.blockId);
  const actionId = text(o.actionId);
  return blockId && actionId ? { blockId, actionId, values: values.slice(0, 100) } : undefined;
}

function inputsOf(v: unknown): ElementInput[] {
  return (Array.isArray(v) ? v : [])
    .slice(0, 100)
    .map(elementInput)
    .filter((x): x is ElementInput => x !== undefined);
}

function hostnameOf(req: IncomingMessage): string {
  const host = req.headers.host ?? '';
  return URL.canParse(`http://${host}`) ? new URL(`http://${host}`).hostname : '';
}

function sameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  return origin === undefined || origin === `http://${req.headers.host ?? ''}`;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res
    .writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    })
    .end(JSON.stringify(body));
}

/** Returns a handler that answers the playground's paths and returns false for any other path. */
export function createPlaygroundRoutes(o: PlaygroundRouteOptions) {
  const staticFile = (res: ServerResponse, type: string, body: string) =>
    res
      .writeHead(200, {
        'content-type': `${type}; charset=utf-8`,
        'cache-control': 'no-cache',
        'x-content-type-options': 'nosniff',
      })
      .end(body);

  async function api(path: string, body: Record<string, unknown>): Promise<Outcome> {
    const { session } = o;
    switch (path) {
      case 'command': {
        const raw = text(body.text, MAX_COMMAND).trim();
        const match = /^\/vigil(?:\s+|$)([\s\S]*)$/.exec(raw);
        if (!match) {
          session.note('Only the /vigil command works in the playground: try /vigil help.');
          return { ok: true };
        }
        return session.command(match[1]?.trim() ?? '');
      }
      case 'action': {
        const input = elementInput(body);
        if (!input) return { ok: false, message: 'Which control?' };
        const viewId = text(body.viewId);
        return viewId
          ? session.viewAction(viewId, input, inputsOf(body.inputs))
          : session.messageAction(text(body.entryId), input);
      }
      case 'submit':
        return session.submit(text(body.viewId), inputsOf(body.inputs));
      case 'close':
        return session.close(text(body.viewId));
      case 'home':
        return session.openHome();
      case 'digests':
        if (!o.runDigestsNow) return { ok: false, message: 'Digests are not available in this version.' };
        await o.runDigestsNow();
        session.sync();
        return { ok: true };
      default:
        return { ok: false, message: 'Unknown request.' };
    }
  }

  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    const ours = url.pathname === '/' || url.pathname.startsWith('/playground/');
    if (!ours) return false;
    if (o.allowedHostnames && !o.allowedHostnames.has(hostnameOf(req))) {
      res.writeHead(421, { 'content-type': 'text/plain' }).end('Open the playground at its own address.');
      return true;
    }
    if (url.pathname === '/' && method === 'GET') {
      res.writeHead(200, PAGE_HEADERS).end(pageHtml(o.page));
      return true;
    }
    if (url.pathname === '/playground/app.js' && method === 'GET') {
      staticFile(res, 'text/javascript', o.assets.script);
      return true;
    }
    if (url.pathname === '/playground/app.css' && method === 'GET') {
      staticFile(res, 'text/css', o.assets.style);
      return true;
    }
    if (url.pathname === '/playground/api/state' && method === 'GET') {
      o.session.sync();
      const state: Snapshot = snapshot(
        o.session,
        o.context(validTimeZone(url.searchParams.get('tz') ?? undefined)),
        o.page.userName,
        o.slack,
      );
      const hash = createHash('sha256').update(JSON.stringify(state)).digest('base64url').slice(0, 22);
      sendJson(res, 200, url.searchParams.get('h') === hash ? { hash, unchanged: true } : { hash, ...state });
      return true;
    }
    const apiPath = /^\/playground\/api\/([a-z]+)$/.exec(url.pathname)?.[1];
    if (apiPath === undefined) return false;
    if (method !== 'POST' || !sameOrigin(req)) {
      sendJson(res, 403, { ok: false, message: 'Not allowed.' });
      return true;
    }
    try {
      const outcome = await api(apiPath, await readJson(req));
      sendJson(res, outcome.ok ? 200 : 400, outcome);
    } catch (err) {
      if (err instanceof BadRequest || err instanceof SyntaxError) {
        sendJson(res, 400, { ok: false, message: 'Bad request.' });
        return true;
      }
      o.logger.error('playground request failed', { err, path: url.pathname });
      o.session.note('The playground could not deliver that to Vigil; the details are in the log.');
      sendJson(res, 500, { ok: false, message: 'The playground could not deliver that to Vigil.' });
    }
    return true;
  };
}
