/**
 * The playground's HTTP routes, served by Vigil's own server: the page, its script and style, a small JSON
 * API the page calls, and the files shared in its conversations. Same-origin JSON only: a cross-site form or
 * a page elsewhere cannot drive it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RunNowReport } from '../../../../src/features/digests/scheduler.js';
import type { Logger } from '../../../../src/kernel/logger.js';
import type { FakeSlack } from '../sim/slack/index.js';
import { describeRunNow } from './activity.js';
import { slackCommandText } from './composer.js';
import type { ElementInput } from './inputs.js';
import { PAGE_HEADERS, type PageFacts, pageHtml } from './page.js';
import type { RenderContext } from './render/blocks.js';
import { validTimeZone } from './render/dates.js';
import type { Outcome, PlaygroundSession } from './session.js';
import { isSameOrigin, json } from './side-page.js';
import type { Actor } from './slack-side.js';
import { stateSince } from './timeline.js';
import type { PlaygroundWorkObjects } from './work-objects.js';

export interface PlaygroundRouteOptions {
  session: PlaygroundSession;
  slack: FakeSlack;
  actor: Actor;
  logger: Logger;
  page: PageFacts;
  assets: { script: string; style: string };
  context(timeZone: string): RenderContext;
  /**
   * Host names the page may be reached by (the Host header); undefined allows any (listening on every
   * interface was asked for). Refusing others stops a DNS-rebound site from driving a local playground.
   */
  allowedHostnames: ReadonlySet<string> | undefined;
  runDigestsNow?: (workspaceId: string, channelId: string) => Promise<RunNowReport[]>;
  /** The simulated API's keys, told to whoever runs `/vigil connect` (the connect page asks for one). */
  simKeys: { apiKey: string; organization: string; tenantIds: number[] }[];
  /** Messages with links, their unfurled cards and side panels; without it only `/vigil` is taken. */
  workObjects?: PlaygroundWorkObjects;
  /** Vigil's agent DM page and its API (`/playground/agent…`). */
  agentDm?: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;
  /** Slackbot calling Vigil's MCP tools (`/playground/slackbot…`). */
  slackbot?: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;
}

const BODY_LIMIT = 64 * 1024;
/** A file picked for `/vigil upload`, base64 in JSON. */
const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
const UPLOAD_BODY_LIMIT = Math.ceil((MAX_UPLOAD_BYTES * 4) / 3) + 4096;
const MAX_COMMAND = 4_000;

class BadRequest extends Error {}

async function readJson(req: IncomingMessage, limit = BODY_LIMIT): Promise<Record<string, unknown>> {
  if (!(req.headers['content-type'] ?? '').startsWith('application/json')) throw new BadRequest('JSON only');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new BadRequest('body too large');
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

function staticFile(res: ServerResponse, type: string, body: string): void {
  res
    .writeHead(200, {
      'content-type': `${type}; charset=utf-8`,
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
    })
    .end(body);
}

function conversationOf(o: PlaygroundRouteOptions, body: Record<string, unknown>) {
  return (
    o.session.conversation(text(body.conversation)) ??
    o.session.conversation(o.page.conversations[0]?.id ?? '')
  );
}

/** `/vigil …` typed in the composer, sent as Slack sends a slash command. */
async function runCommand(
  o: PlaygroundRouteOptions,
  body: Record<string, unknown>,
): Promise<Outcome & Record<string, unknown>> {
  const { session } = o;
  const c = conversationOf(o, body);
  if (!c) return { ok: false, message: 'That conversation is not in the playground.' };
  const raw = text(body.text, MAX_COMMAND).trim();
  const match = /^\/vigil(?:\s+|$)([\s\S]*)$/.exec(raw);
  if (!match) {
    // A message with a link (a portal link to an event) is posted as the person's, and unfurled by Vigil.
    if (o.workObjects && c.kind === 'channel' && /https?:\/\//.test(raw))
      return o.workObjects.share(c.id, raw);
    session.note(
      'Only the /vigil command works in the playground (and, in a channel, a message with a link): try /vigil help.',
      c.id,
    );
    return { ok: true };
  }
  const typed = match[1]?.trim() ?? '';
  const channels = [...session.timeline.conversations.values()].filter((x) => x.kind === 'channel');
  const outcome = await session.command(c.id, slackCommandText(typed, channels), typed);
  if (/^connect\b/i.test(typed)) session.note(connectHint(o.simKeys), c.id);
  return outcome;
}

/** "Run digests now": the channel's digests of today, ahead of their time. */
async function runDigests(o: PlaygroundRouteOptions, body: Record<string, unknown>): Promise<Outcome> {
  const c = conversationOf(o, body);
  if (!o.runDigestsNow) return { ok: false, message: 'Digests are not available in this version.' };
  if (c?.kind !== 'channel') {
    o.session.note('Digests post in channels: open a channel, then click Run digests now.', c?.id);
    return { ok: true };
  }
  const reports = await o.runDigestsNow(o.actor.teamId, c.id);
  o.session.note(describeRunNow(reports, c.name), c.id);
  return { ok: true };
}

async function api(
  o: PlaygroundRouteOptions,
  path: string,
  body: Record<string, unknown>,
): Promise<Outcome & Record<string, unknown>> {
  const { session } = o;
  switch (path) {
    case 'command':
      return runCommand(o, body);
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
      return runDigests(o, body);
    case 'entity': {
      const index = Number(body.index);
      if (!o.workObjects || !Number.isInteger(index)) return { ok: false, message: 'Which card?' };
      return o.workObjects.open(text(body.entryId), index);
    }
    case 'entityaction':
      if (!o.workObjects) return { ok: false, message: 'No side panel is open.' };
      return o.workObjects.act(text(body.actionId, 255), text(body.value, 2000));
    case 'entityclose':
      o.workObjects?.close();
      return { ok: true };
    default:
      return { ok: false, message: 'Unknown request.' };
  }
}

/** A file the page picked for a file input, hosted by the fake Slack as Slack hosts what people share. */
function hostFile(
  o: PlaygroundRouteOptions,
  body: Record<string, unknown>,
): Outcome & Record<string, unknown> {
  // A bare file name: no path, nothing unprintable.
  const name =
    [...text(body.name, 200)].map((ch) => (ch < ' ' || ch === '/' || ch === '\\' ? '_' : ch)).join('') ||
    'file';
  const data = typeof body.data === 'string' ? body.data : '';
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data)) return { ok: false, message: 'The file did not arrive whole.' };
  const bytes = Buffer.from(data, 'base64');
  if (bytes.length === 0) return { ok: false, message: 'That file is empty.' };
  if (bytes.length > MAX_UPLOAD_BYTES)
    return { ok: false, message: 'The playground takes files up to 10 MB.' };
  const mimetype = text(body.type, 100);
  const file = o.slack.addFile({
    filename: name,
    bytes,
    user: o.actor.userId,
    ...(/^[\w.+-]+\/[\w.+-]+$/.test(mimetype) ? { mimetype } : {}),
  });
  return { ok: true, file: { id: file.id, name, size: bytes.length } };
}

/** A file's bytes, for files shared in this person's conversations or picked by them. */
function download(o: PlaygroundRouteOptions, res: ServerResponse, fileId: string): void {
  const file = o.slack.files.get(fileId);
  const shown =
    file?.bytes !== undefined &&
    (file.user === o.actor.userId ||
      (file.channelId !== undefined && o.session.conversation(file.channelId) !== undefined));
  if (!file?.bytes || !shown) {
    res
      .writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
      .end('No such file in the playground.');
    return;
  }
  const ascii = file.filename.replace(/[^\w.-]/g, '_');
  res
    .writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': String(file.bytes.length),
      'content-disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    })
    .end(file.bytes);
}

/** What changed since the page's last poll. */
const panelOf = (w: PlaygroundWorkObjects) => () => ({ rev: w.panelRev, open: w.panel });

function sendState(o: PlaygroundRouteOptions, url: URL, res: ServerResponse): void {
  const since = Number(url.searchParams.get('since') ?? '0');
  const state = stateSince(
    {
      session: o.session,
      userName: o.page.userName,
      views: o.slack.views,
      fileBytes: (id) => o.slack.files.get(id)?.bytes,
      ...(o.workObjects ? { panel: panelOf(o.workObjects) } : {}),
    },
    o.context(validTimeZone(url.searchParams.get('tz') ?? undefined)),
    Number.isFinite(since) ? since : 0,
    url.searchParams.get('c') ?? o.page.conversations[0]?.id ?? '',
  );
  json(res, 200, state);
}

/** The page's GET paths; false for any other. */
function serveGet(o: PlaygroundRouteOptions, url: URL, res: ServerResponse): boolean {
  if (url.pathname === '/') res.writeHead(200, PAGE_HEADERS).end(pageHtml(o.page));
  else if (url.pathname === '/playground/app.js') staticFile(res, 'text/javascript', o.assets.script);
  else if (url.pathname === '/playground/app.css') staticFile(res, 'text/css', o.assets.style);
  else if (url.pathname === '/playground/api/state') sendState(o, url, res);
  else {
    const file = /^\/playground\/files\/([A-Z0-9]{2,40})\/[^/]*$/.exec(url.pathname);
    if (file?.[1] === undefined) return false;
    download(o, res, file[1]);
  }
  return true;
}

/** A POST of the page's API, same origin only. */
async function serveApi(
  o: PlaygroundRouteOptions,
  req: IncomingMessage,
  res: ServerResponse,
  apiPath: string,
): Promise<void> {
  if (req.method !== 'POST' || !isSameOrigin(req)) {
    json(res, 403, { ok: false, message: 'Not allowed.' });
    return;
  }
  try {
    const outcome =
      apiPath === 'file'
        ? hostFile(o, await readJson(req, UPLOAD_BODY_LIMIT))
        : await api(o, apiPath, await readJson(req));
    json(res, outcome.ok ? 200 : 400, outcome);
  } catch (err) {
    if (err instanceof BadRequest || err instanceof SyntaxError) {
      json(res, 400, { ok: false, message: 'Bad request.' });
      return;
    }
    o.logger.error('playground request failed', { err, path: `/playground/api/${apiPath}` });
    o.session.note('The playground could not deliver that to Vigil; the details are in the log.');
    json(res, 500, { ok: false, message: 'The playground could not deliver that to Vigil.' });
  }
}

/** Returns a handler that answers the playground's paths and returns false for any other path. */
export function createPlaygroundRoutes(o: PlaygroundRouteOptions) {
  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    const ours = url.pathname === '/' || url.pathname.startsWith('/playground/');
    if (!ours) return false;
    if (o.allowedHostnames && !o.allowedHostnames.has(hostnameOf(req))) {
      res.writeHead(421, { 'content-type': 'text/plain' }).end('Open the playground at its own address.');
      return true;
    }
    if (o.agentDm && (await o.agentDm(req, res, url))) return true;
    if (o.slackbot && (await o.slackbot(req, res, url))) return true;
    if (method === 'GET' && serveGet(o, url, res)) return true;
    const apiPath = /^\/playground\/api\/([a-z]+)$/.exec(url.pathname)?.[1];
    if (apiPath === undefined) return false;
    await serveApi(o, req, res, apiPath);
    return true;
  };
}

function connectHint(keys: PlaygroundRouteOptions['simKeys']): string {
  const lines = keys.map((k) => `• \`${k.apiKey}\` (${k.organization}, tenants ${k.tenantIds.join(', ')})`);
  return (
    'In the playground, the connect page takes a key of the simulated API (never paste a real key here):\n' +
    lines.join('\n')
  );
}
