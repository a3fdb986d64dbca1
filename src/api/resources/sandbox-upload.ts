/**
 * Sending a file to the sandbox's presigned URL. That URL is on another host (object storage), so the
 * request carries no API token, no cookie, nothing but the file: the presigned URL is its own credential.
 *
 * Two shapes exist: `{upload_url}` → PUT the bytes; `{upload_url, upload_fields}` → multipart form POST with
 * the fields first and the file last (object stores ignore fields after the file).
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { Clock } from '../../kernel/clock.js';
import { isLoopbackHost } from '../../kernel/net.js';
import { waitingOn } from '../../kernel/waiting-on.js';
import { errorFromResponse } from '../core/error-response.js';
import { ConfigurationError, ValidationError } from '../core/errors.js';
import { type HttpBody, sendHttp } from '../core/http.js';
import { type RetryPolicy, type Sleep, withRetry } from '../core/retry.js';

/** What the presigned URL needs from `POST …/sandbox/uploads`. */
export interface UploadTarget {
  upload_url: string;
  upload_fields?: Record<string, string> | undefined;
}

/**
 * The file's bytes in memory, or a stream read once (never buffered: a 100 MB file stays on disk). Give a
 * stream's `length` when known: object stores refuse a PUT without Content-Length.
 */
type UploadSource =
  | { bytes: Uint8Array }
  | { stream: Readable | AsyncIterable<Uint8Array>; length?: number | undefined };

export type SandboxFile = UploadSource & { filename: string; contentType?: string };

export interface UploadResult {
  method: 'PUT' | 'POST';
  status: number;
  /** The storage host that received the file (for the audit trail). */
  host: string;
}

export interface UploadDeps {
  dispatcher: Dispatcher;
  clock: Clock;
  sleep: Sleep;
  random: () => number;
  retry: RetryPolicy;
  timeouts: { headersMs: number; bodyMs: number };
  maxResponseBytes: number;
}

const CONTENT_TYPE = /^[\w.+-]+\/[\w.+-]+(\s*;\s*[\w-]+=("[^"\r\n]*"|[\w.+-]+))*$/;

function uploadUrl(raw: string): URL {
  const url = new URL(raw);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw new ConfigurationError('The sandbox upload URL must use https');
  }
  return url;
}

/** WHATWG form-data escaping of names and filenames inside quoted header parameters. */
function quoteParam(value: string): string {
  return value.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');
}

function multipart(
  fields: Record<string, string>,
  file: SandboxFile,
  contentType: string,
): { body: HttpBody; boundary: string; length: number | undefined } {
  const boundary = `----vigil${randomBytes(12).toString('hex')}`;
  const head = Buffer.from(
    Object.entries(fields)
      .map(
        ([k, v]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${quoteParam(k)}"\r\n\r\n${v}\r\n`,
      )
      .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoteParam(file.filename)}"\r\n` +
      `Content-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  if ('bytes' in file) {
    const bytes = Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
    return {
      body: Buffer.concat([head, bytes, tail]),
      boundary,
      length: head.length + bytes.length + tail.length,
    };
  }
  const source = file.stream;
  async function* parts() {
    yield head;
    for await (const chunk of source) yield chunk;
    yield tail;
  }
  const length = file.length === undefined ? undefined : head.length + file.length + tail.length;
  return { body: Readable.from(parts()), boundary, length };
}

/** Refuses what no storage host would accept, before any call; returns the content type to send. */
export function checkSandboxFile(file: SandboxFile): string {
  const contentType = file.contentType ?? 'application/octet-stream';
  if (
    'stream' in file &&
    file.length !== undefined &&
    !(Number.isSafeInteger(file.length) && file.length >= 0)
  ) {
    throw new ValidationError('Invalid file length', [{ field: 'length', message: 'must be a byte count' }]);
  }
  if (!CONTENT_TYPE.test(contentType)) {
    throw new ValidationError('Invalid content type', [
      { field: 'contentType', message: 'not a media type' },
    ]);
  }
  return contentType;
}

export async function uploadToPresignedUrl(
  deps: UploadDeps,
  target: UploadTarget,
  file: SandboxFile,
): Promise<UploadResult> {
  const url = uploadUrl(target.upload_url);
  const contentType = checkSandboxFile(file);
  const label = { method: target.upload_fields ? 'POST' : 'PUT', path: 'sandbox upload' };
  const replayable = 'bytes' in file;

  const attempt = async (): Promise<UploadResult> => {
    // Only these headers: above all no Authorization and no Cookie.
    const headers: Record<string, string> = {};
    let body: HttpBody;
    if (target.upload_fields) {
      const form = multipart(target.upload_fields, file, contentType);
      headers['content-type'] = `multipart/form-data; boundary=${form.boundary}`;
      if (form.length !== undefined) headers['content-length'] = String(form.length);
      body = form.body;
    } else if ('bytes' in file) {
      headers['content-type'] = contentType;
      headers['content-length'] = String(file.bytes.byteLength);
      body = Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
    } else {
      headers['content-type'] = contentType;
      if (file.length !== undefined) headers['content-length'] = String(file.length);
      body = file.stream instanceof Readable ? file.stream : Readable.from(file.stream);
    }
    const method = target.upload_fields ? 'POST' : 'PUT';
    const res = await waitingOn('api', () =>
      sendHttp(deps.dispatcher, {
        url,
        method,
        headers,
        body,
        headersTimeoutMs: deps.timeouts.headersMs,
        bodyTimeoutMs: deps.timeouts.bodyMs,
        maxResponseBytes: deps.maxResponseBytes,
        label,
      }),
    );
    if (res.status >= 200 && res.status < 300) return { method, status: res.status, host: url.host };
    throw errorFromResponse(
      { status: res.status, headers: res.headers, text: res.body.toString('utf8') },
      // The query string of a presigned URL is a credential: the label never includes it.
      { method, path: label.path, now: deps.clock.now(), secrets: [url.search] },
    );
  };

  // Bytes can be sent again (PUT and presigned POST to one key are idempotent); a stream cannot.
  return withRetry(attempt, {
    idempotent: replayable,
    policy: replayable ? deps.retry : { ...deps.retry, maxAttempts: 1 },
    clock: deps.clock,
    sleep: deps.sleep,
    random: deps.random,
  });
}
