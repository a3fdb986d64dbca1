/**
 * Sending a file someone shared in Slack to the threat-intel sandbox: the file is fetched from Slack with the
 * bot token and streamed straight into the API's presigned upload, never held whole in memory nor written to
 * disk. The size cap is checked against Slack's own `size` before any byte is fetched, and enforced again on
 * the bytes as they stream. The bot token only ever goes to Slack's file hosts.
 */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { type Dispatcher, request } from 'undici';
import { ApiError, ForbiddenError, UnauthorizedError } from '../../api/index.js';
import type { ApiAccess } from '../../domain/workspace-api.js';
import { VigilError } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/logger.js';
import { mayCarryToken } from '../../kernel/net.js';
import type { Repositories } from '../../store/index.js';

const MAX_REDIRECTS = 3;
const TIMEOUT_MS = 60_000;

/** A file as Slack describes it (files.info, a message's `files`, a file_input). */
export interface SlackFile {
  id: string;
  name: string;
  /** Bytes, as Slack reports them; undefined when Slack did not say. */
  size: number | undefined;
  /** `url_private_download` (or `url_private`). */
  downloadUrl: string | undefined;
  mimetype?: string | undefined;
}

export interface SandboxDeps {
  api: ApiAccess;
  repos: Pick<Repositories, 'audit'>;
  logger: Logger;
  maxBytes: number;
  /** Hosts the bot token may be sent to (Slack's file hosts, and the configured Slack API host). */
  slackFileHosts: readonly string[];
  /** For the Slack download; undici's global dispatcher otherwise. */
  dispatcher?: Dispatcher | undefined;
}

export interface SandboxRequest {
  workspaceId: string;
  userId: string;
  file: SlackFile;
  botToken: string;
  /** How the file reached Vigil, for the audit trail (`upload form`, `message shortcut`). */
  via: string;
}

export interface SandboxResult {
  filename: string;
  bytes: number;
  sha256: string;
  method: 'PUT' | 'POST';
}

/** A refusal: the file is over the cap (Slack said so, or the bytes did). */
class FileTooLargeError extends VigilError {}

class SandboxNotEnabledError extends VigilError {
  constructor(cause: unknown) {
    super(
      'The sandbox is not enabled for this account.',
      'Ask your threat-intel account owner to enable the sandbox for this API key.',
      { cause },
    );
  }
}

function formatSize(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round((n / (1024 * 1024)) * 10) / 10} MB` : `${Math.ceil(n / 1024)} KB`;
}

/** Two sizes that read differently, in bytes when rounding would make them look equal. */
function sizes(size: number, max: number): [string, string] {
  const [a, b] = [formatSize(size), formatSize(max)];
  return a === b ? [`${size.toLocaleString('en-US')} bytes`, `${max.toLocaleString('en-US')} bytes`] : [a, b];
}

function tooLarge(_name: string, size: number | undefined, max: number): FileTooLargeError {
  const [is, limit] = size === undefined ? ['larger than the limit', formatSize(max)] : sizes(size, max);
  return new FileTooLargeError(
    `The file is ${is}; Vigil sends files of at most ${limit} to the sandbox.`,
    'Send a smaller file, or ask the Vigil operator to raise VIGIL_SANDBOX_MAX_BYTES.',
  );
}

/** The bytes from Slack are not the file Slack described: more or fewer than the size it stated. */
class FileSizeMismatchError extends VigilError {
  constructor(stated: number, arrived: { fewer: number } | { more: string }) {
    const what =
      'fewer' in arrived
        ? `only ${arrived.fewer.toLocaleString('en-US')} arrived`
        : `more arrived (${arrived.more})`;
    super(
      `Slack stated ${stated.toLocaleString('en-US')} bytes for this file, but ${what}, so Vigil sent nothing to the sandbox.`,
      'The file may have changed or its download was cut short: try again, or share the file again and send the new copy.',
    );
  }
}

function fetchFailed(detail: string, cause?: unknown): VigilError {
  return new VigilError(
    `Vigil could not fetch the file from Slack (${detail}).`,
    'Check that the file still exists and that Vigil was installed with the files:read permission (reinstall it if not).',
    cause === undefined ? undefined : { cause },
  );
}

interface Download {
  body: Readable;
  length: number | undefined;
}

async function openDownload(deps: SandboxDeps, file: SlackFile, token: string): Promise<Download> {
  if (!file.downloadUrl) throw fetchFailed('Slack gave no download link');
  let url: URL;
  try {
    url = new URL(file.downloadUrl);
  } catch (err) {
    throw fetchFailed('the download link is not a URL', err);
  }
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (!mayCarryToken(url, deps.slackFileHosts))
      throw fetchFailed(`its link points outside Slack, at \`${url.host.replace(/`/g, '')}\``);
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, {
        method: 'GET',
        headers: { authorization: `Bearer ${token}` },
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
        ...(deps.dispatcher ? { dispatcher: deps.dispatcher } : {}),
      });
    } catch (err) {
      throw fetchFailed('the connection failed', err);
    }
    const location = res.headers.location;
    if (res.statusCode >= 300 && res.statusCode < 400 && typeof location === 'string') {
      await res.body.dump();
      url = new URL(location, url);
      continue;
    }
    if (res.statusCode !== 200) {
      await res.body.dump();
      throw fetchFailed(`HTTP ${res.statusCode}`);
    }
    // Without files:read Slack answers its sign-in page with a 200.
    const type = String(res.headers['content-type'] ?? '');
    if (type.startsWith('text/html') && !(file.mimetype ?? '').startsWith('text/html')) {
      await res.body.dump();
      throw fetchFailed('Slack answered a sign-in page instead of the file');
    }
    const declared = Number(res.headers['content-length']);
    return { body: res.body, length: Number.isFinite(declared) ? declared : undefined };
  }
  throw fetchFailed('too many redirects');
}

/**
 * Counts and hashes the bytes as they pass. With Slack's stated size, the bytes must be exactly that many
 * (more stops the stream at once, fewer fails it at the end, before the upload could complete); without it,
 * they stop past the cap.
 */
async function* metered(
  source: AsyncIterable<Uint8Array>,
  meter: { bytes: number; hash: ReturnType<typeof createHash> },
  limits: { stated: number | undefined; max: number },
  name: string,
): AsyncGenerator<Uint8Array> {
  const { stated, max } = limits;
  for await (const chunk of source) {
    meter.bytes += chunk.byteLength;
    if (stated !== undefined && meter.bytes > stated) {
      throw new FileSizeMismatchError(stated, {
        more: `at least ${meter.bytes.toLocaleString('en-US')} bytes`,
      });
    }
    if (meter.bytes > max) throw tooLarge(name, undefined, max);
    meter.hash.update(chunk);
    yield chunk;
  }
  if (stated !== undefined && meter.bytes < stated)
    throw new FileSizeMismatchError(stated, { fewer: meter.bytes });
}

function isSandboxRefusal(err: unknown): boolean {
  if (err instanceof ForbiddenError && err.feature === 'sandbox') return true;
  return (
    (err instanceof ForbiddenError || err instanceof UnauthorizedError) &&
    (err.path ?? '').endsWith('/sandbox/uploads')
  );
}

/**
 * Fetches the file from Slack and uploads it to the sandbox; audited. The download opens only when the
 * upload starts reading, after the API handed out an upload URL: an account without the sandbox costs no
 * download.
 */
async function sendToSandbox(deps: SandboxDeps, req: SandboxRequest): Promise<SandboxResult> {
  const { file } = req;
  if (file.size !== undefined && file.size > deps.maxBytes)
    throw tooLarge(file.name, file.size, deps.maxBytes);
  const meter = { bytes: 0, hash: createHash('sha256') };
  // The client reports a failing body as its own transport error: keep ours to say it in our words.
  let streamError: unknown;
  async function* bytes(): AsyncGenerator<Uint8Array> {
    try {
      const download = await openDownload(deps, file, req.botToken);
      try {
        if (file.size !== undefined && download.length !== undefined && download.length !== file.size) {
          // Say what happened: the download is not the file Slack described (not a size limit).
          throw download.length < file.size
            ? new FileSizeMismatchError(file.size, { fewer: download.length })
            : new FileSizeMismatchError(file.size, {
                more: `its download is ${formatSize(download.length)}`,
              });
        }
        if (download.length !== undefined && download.length > deps.maxBytes) {
          throw tooLarge(file.name, download.length, deps.maxBytes);
        }
        yield* metered(download.body, meter, { stated: file.size, max: deps.maxBytes }, file.name);
      } finally {
        // Stops the download when the upload gave up early; an abort is then expected, not an error.
        download.body.on('error', () => {});
        download.body.destroy();
      }
    } catch (err) {
      streamError ??= err;
      throw err;
    }
  }
  let method: 'PUT' | 'POST';
  try {
    const result = await deps.api.call(req.workspaceId, ({ session }) =>
      session.uploadToSandbox({
        filename: file.name,
        ...(file.mimetype ? { contentType: file.mimetype } : {}),
        stream: bytes(),
        // Object stores refuse a PUT without Content-Length: Slack's own size, which the bytes must match.
        ...(file.size !== undefined ? { length: file.size } : {}),
      }),
    );
    method = result.method;
  } catch (err) {
    if (streamError instanceof VigilError && !(streamError instanceof ApiError)) throw streamError;
    if (isSandboxRefusal(err)) throw new SandboxNotEnabledError(err);
    throw err;
  }
  const sha256 = meter.hash.digest('hex');
  await deps.repos.audit.append({
    teamId: req.workspaceId,
    userId: req.userId,
    action: 'sandbox.upload',
    target: file.name,
    detail: `${meter.bytes} bytes via ${req.via}, sha256 ${sha256}`,
  });
  deps.logger.info('file sent to the sandbox', { bytes: meter.bytes, method });
  return { filename: file.name, bytes: meter.bytes, sha256, method };
}

/** Files sent to the sandbox for analysis, within the configured size. */
export class SandboxService {
  constructor(private readonly deps: SandboxDeps) {}

  get maxBytes(): number {
    return this.deps.maxBytes;
  }

  send(req: SandboxRequest): Promise<SandboxResult> {
    return sendToSandbox(this.deps, req);
  }
}
