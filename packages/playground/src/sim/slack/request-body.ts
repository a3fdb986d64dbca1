/** Reading Web API requests the way Slack accepts them: form-encoded, JSON or multipart, token in header or body. */
import type { IncomingMessage } from 'node:http';
import type { Json } from './types.js';

/** Fields Slack takes as JSON even inside a form body; decoded so tests read them the same either way. */
const JSON_FIELDS = new Set(['blocks', 'attachments', 'view', 'files', 'metadata', 'outputs']);

export interface ParsedRequest {
  contentType: string;
  headers: Record<string, string>;
  raw: Buffer;
  body: Json;
  token: string | undefined;
}

export async function readRaw(req: IncomingMessage, limitBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > limitBytes) throw new Error(`request body over ${limitBytes} bytes`);
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

export function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

function decodeJsonFields(body: Json): Json {
  for (const key of JSON_FIELDS) {
    const v = body[key];
    if (typeof v === 'string') {
      try {
        body[key] = JSON.parse(v);
      } catch {
        // Left as the string: the method reports it as malformed, as Slack does.
      }
    }
  }
  return body;
}

async function parseBody(contentType: string, raw: Buffer, query: URLSearchParams): Promise<Json> {
  const body: Json = Object.fromEntries(query);
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/json') {
    const parsed: unknown = raw.length === 0 ? {} : JSON.parse(raw.toString('utf8'));
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) Object.assign(body, parsed);
  } else if (type === 'multipart/form-data') {
    const form = await new Request('http://fake.invalid/', {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: raw,
    }).formData();
    for (const [k, v] of form) body[k] = typeof v === 'string' ? v : Buffer.from(await v.arrayBuffer());
  } else if (raw.length > 0) {
    Object.assign(body, Object.fromEntries(new URLSearchParams(raw.toString('utf8'))));
  }
  return decodeJsonFields(body);
}

export async function parseRequest(req: IncomingMessage, raw: Buffer, url: URL): Promise<ParsedRequest> {
  const headers = flatHeaders(req);
  const contentType = headers['content-type'] ?? '';
  const body = await parseBody(contentType, raw, url.searchParams);
  const bearer = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '')?.[1];
  const token = bearer ?? (typeof body.token === 'string' ? body.token : undefined);
  return { contentType, headers, raw, body, token };
}

/** `client_id`/`client_secret` from HTTP Basic auth or the body, as oauth.v2.access accepts them. */
export function clientCredentials(
  headers: Record<string, string>,
  body: Json,
): { clientId: string | undefined; clientSecret: string | undefined } {
  const basic = /^Basic\s+(\S+)$/i.exec(headers.authorization ?? '')?.[1];
  if (basic !== undefined) {
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    if (i > 0) return { clientId: decoded.slice(0, i), clientSecret: decoded.slice(i + 1) };
  }
  return {
    clientId: typeof body.client_id === 'string' ? body.client_id : undefined,
    clientSecret: typeof body.client_secret === 'string' ? body.client_secret : undefined,
  };
}
