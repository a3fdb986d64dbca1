/**
 * Plays Slack's side of the HTTP conversation: signs and POSTs slash commands, interactions and events to a
 * receiver, and builds the deliberately bad requests a receiver must refuse.
 */
import { request as httpRequest } from 'node:http';
import {
  type BlockActionInput,
  blockActionPayload,
  type EventInput,
  eventEnvelope,
  interactionBody,
  type SlashCommandInput,
  slashCommandBody,
  urlVerificationBody,
  type ViewClosedInput,
  type ViewSubmissionInput,
  viewClosedPayload,
  viewSubmissionPayload,
} from './slack-payloads.js';
import { signSlackRequest } from './slack-signature.js';

export interface SenderResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON when the receiver answered JSON, else the text (empty for a bare ack). */
  body: unknown;
  text: string;
}

export interface StreamedResponse extends SenderResponse {
  bytesSent: number;
  totalBytes: number;
  /** False when the receiver answered (or hung up) before the whole body was written. */
  completed: boolean;
}

export interface SlackSenderOptions {
  /** Where Slack POSTs (Bolt's default is `<base>/slack/events` for all three kinds). */
  receiverUrl: string;
  signingSecret: string;
  /** Milliseconds since the epoch; default Date.now. Timestamps are signed from it. */
  clock?: () => number;
  /** Per-kind URLs when the receiver splits them. */
  commandsUrl?: string;
  interactionsUrl?: string;
  eventsUrl?: string;
}

export interface RawRequest {
  body: string | Buffer;
  contentType: string;
  url?: string;
  /** Default: the clock's now. */
  timestampSec?: number;
  /** The signature header; default a valid one, null to leave it out. */
  signature?: string | null;
  /** Override the timestamp header; null to leave it out. */
  timestampHeader?: string | null;
  headers?: Record<string, string>;
}

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

async function toSenderResponse(res: Response): Promise<SenderResponse> {
  const text = await res.text();
  const headers = Object.fromEntries(res.headers.entries());
  let body: unknown = text;
  if ((headers['content-type'] ?? '').includes('json') && text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return { status: res.status, headers, body, text };
}

export function createSlackSender(options: SlackSenderOptions) {
  const clock = options.clock ?? Date.now;
  const nowSec = () => Math.floor(clock() / 1000);
  const urls = {
    commands: options.commandsUrl ?? options.receiverUrl,
    interactions: options.interactionsUrl ?? options.receiverUrl,
    events: options.eventsUrl ?? options.receiverUrl,
  };

  function signedHeaders(req: RawRequest): Record<string, string> {
    const ts = req.timestampSec ?? nowSec();
    const headers: Record<string, string> = { 'content-type': req.contentType, ...req.headers };
    const tsHeader = req.timestampHeader === undefined ? String(ts) : req.timestampHeader;
    if (tsHeader !== null) headers['x-slack-request-timestamp'] = tsHeader;
    const signature =
      req.signature === undefined ? signSlackRequest(options.signingSecret, req.body, ts) : req.signature;
    if (signature !== null) headers['x-slack-signature'] = signature;
    return headers;
  }

  /** POSTs any body, signed unless told otherwise. */
  async function send(req: RawRequest): Promise<SenderResponse> {
    const res = await fetch(req.url ?? options.receiverUrl, {
      method: 'POST',
      headers: signedHeaders(req),
      body: typeof req.body === 'string' ? req.body : new Uint8Array(req.body),
    });
    return toSenderResponse(res);
  }

  /**
   * Streams a body in 64 KiB chunks, chunked or with a truthful Content-Length, and stops writing as soon as
   * the receiver answers: a receiver that enforces its cap answers before the body is all there.
   */
  function stream(req: RawRequest & { chunked: boolean }): Promise<StreamedResponse> {
    const body = typeof req.body === 'string' ? Buffer.from(req.body) : req.body;
    const headers = signedHeaders(req);
    if (req.chunked) headers['transfer-encoding'] = 'chunked';
    else headers['content-length'] = String(body.length);
    return new Promise((resolve, reject) => {
      let bytesSent = 0;
      let answered = false;
      let settled = false;
      const finish = (r: Omit<StreamedResponse, 'bytesSent' | 'totalBytes' | 'completed'>) => {
        if (settled) return;
        settled = true;
        resolve({ ...r, bytesSent, totalBytes: body.length, completed: bytesSent === body.length });
      };
      const client = httpRequest(req.url ?? urls.commands, { method: 'POST', headers });
      client.on('response', (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        const done = () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const h: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h[k] = String(v);
          let parsed: unknown = text;
          if ((h['content-type'] ?? '').includes('json') && text !== '') {
            try {
              parsed = JSON.parse(text);
            } catch {
              parsed = text;
            }
          }
          finish({ status: res.statusCode ?? 0, headers: h, body: parsed, text });
          client.destroy();
        };
        res.on('end', done);
        res.on('error', done);
      });
      client.on('error', (err) => {
        // A receiver may hang up mid-body after (or instead of) answering; without an answer that is status 0.
        if (!answered) {
          if (
            (err as NodeJS.ErrnoException).code === 'ECONNRESET' ||
            (err as NodeJS.ErrnoException).code === 'EPIPE'
          ) {
            finish({ status: 0, headers: {}, body: err.message, text: err.message });
          } else if (!settled) {
            settled = true;
            reject(err);
          }
        }
      });
      const writeNext = (): void => {
        while (!answered && !client.destroyed && bytesSent < body.length) {
          const chunk = body.subarray(bytesSent, bytesSent + 64 * 1024);
          bytesSent += chunk.length;
          if (!client.write(chunk)) {
            client.once('drain', writeNext);
            return;
          }
        }
        if (!answered && !client.destroyed) client.end();
      };
      writeNext();
    });
  }

  function form(url: string, body: string, extra: Partial<RawRequest> = {}): Promise<SenderResponse> {
    return send({ body, contentType: FORM, url, ...extra });
  }

  /** A valid slash command body to damage in the `bad` helpers. */
  const sampleCommand = (input?: Partial<SlashCommandInput>) =>
    slashCommandBody({
      text: 'status',
      responseUrl: 'https://hooks.slack.com/commands/T0001/1/abc',
      ...input,
    });

  const oversizedBody = (bytes: number) => {
    const head = sampleCommand({ text: '' });
    return Buffer.concat([Buffer.from(head), Buffer.alloc(Math.max(0, bytes - head.length), 'a')]);
  };

  return {
    send,
    stream,

    slashCommand(input: SlashCommandInput): Promise<SenderResponse> {
      return form(urls.commands, slashCommandBody(input));
    },

    async blockAction(input: BlockActionInput): Promise<SenderResponse> {
      return form(urls.interactions, interactionBody(blockActionPayload(input, nowSec())));
    },

    viewSubmission(input: ViewSubmissionInput): Promise<SenderResponse> {
      return form(urls.interactions, interactionBody(viewSubmissionPayload(input)));
    },

    viewClosed(input: ViewClosedInput): Promise<SenderResponse> {
      return form(urls.interactions, interactionBody(viewClosedPayload(input)));
    },

    /** An Events API callback; `retryNum` adds the headers Slack sets when it redelivers. */
    event(input: EventInput & { retryNum?: number; retryReason?: string }): Promise<SenderResponse> {
      const headers: Record<string, string> =
        input.retryNum === undefined
          ? {}
          : {
              'x-slack-retry-num': String(input.retryNum),
              'x-slack-retry-reason': input.retryReason ?? 'http_timeout',
            };
      return send({
        body: JSON.stringify(eventEnvelope(input, nowSec())),
        contentType: JSON_TYPE,
        url: urls.events,
        headers,
      });
    },

    urlVerification(challenge: string): Promise<SenderResponse> {
      return send({
        body: JSON.stringify(urlVerificationBody(challenge)),
        contentType: JSON_TYPE,
        url: urls.events,
      });
    },

    /** Requests a receiver must refuse (each a slash command, damaged one way). */
    bad: {
      /** Signed, then one character of the body changed. */
      tamperedBody(input?: Partial<SlashCommandInput>): Promise<SenderResponse> {
        const body = sampleCommand(input);
        const ts = nowSec();
        const signature = signSlackRequest(options.signingSecret, body, ts);
        return form(urls.commands, body.replace('text=status', 'text=statuz'), {
          timestampSec: ts,
          signature,
        });
      },
      wrongSignature(input?: Partial<SlashCommandInput>): Promise<SenderResponse> {
        const body = sampleCommand(input);
        const ts = nowSec();
        return form(urls.commands, body, {
          signature: signSlackRequest(`${options.signingSecret}x`, body, ts),
        });
      },
      /** Correctly signed, 6 minutes old. */
      staleTimestamp(input?: Partial<SlashCommandInput>): Promise<SenderResponse> {
        return form(urls.commands, sampleCommand(input), { timestampSec: nowSec() - 6 * 60 });
      },
      /** Correctly signed, 6 minutes ahead. */
      futureTimestamp(input?: Partial<SlashCommandInput>): Promise<SenderResponse> {
        return form(urls.commands, sampleCommand(input), { timestampSec: nowSec() + 6 * 60 });
      },
      missingSignature(input?: Partial<SlashCommandInput>): Promise<SenderResponse> {
        return form(urls.commands, sampleCommand(input), { signature: null });
      },
      missingTimestamp(input?: Partial<SlashCommandInput>): Promise<SenderResponse> {
        return form(urls.commands, sampleCommand(input), { timestampHeader: null });
      },
      /** A signed body over 1 MB (default 1 MB + 64 KiB) streamed with chunked transfer encoding. */
      oversizedChunked(bytes = 1024 * 1024 + 64 * 1024): Promise<StreamedResponse> {
        return stream({ body: oversizedBody(bytes), contentType: FORM, url: urls.commands, chunked: true });
      },
      /** The same, announced by a truthful Content-Length. */
      oversizedWithLength(bytes = 1024 * 1024 + 64 * 1024): Promise<StreamedResponse> {
        return stream({ body: oversizedBody(bytes), contentType: FORM, url: urls.commands, chunked: false });
      },
    },
  };
}

export type SlackSender = ReturnType<typeof createSlackSender>;
