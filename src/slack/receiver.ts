/**
 * Bolt receiver for Slack's HTTP delivery (slash commands, interactivity, Events API on one path).
 *
 * Transport only: it refuses bodies over the cap while streaming (before buffering them), verifies the
 * signature with a two-sided time window, parses the body and hands the event to Bolt. It owns no server:
 * the web server routes `/slack/events` here, so the same port also serves the connect page and health.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { App, Receiver, ReceiverEvent } from '@slack/bolt';
import { HTTPModuleFunctions, ReceiverMultipleAckError } from '@slack/bolt';
import { VigilError } from '../kernel/errors.js';
import type { Logger } from '../kernel/logger.js';
import type { Metrics } from '../observability/metrics.js';
import { requestKindOf } from './request-kind.js';
import { type SignatureFailure, verifySignature } from './signature.js';

const MAX_BODY_BYTES = 1024 * 1024;

/** @internal */
export class BodyTooLargeError extends VigilError {
  constructor() {
    super(`request body exceeds ${MAX_BODY_BYTES} bytes`, 'Slack never sends bodies this large.');
  }
}

/** Reads a request body, rejecting as soon as it passes `limit` bytes (declared or streamed). @internal */
export async function readBodyCapped(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLargeError();
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    received += buf.length;
    if (received > limit) throw new BodyTooLargeError();
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

/** Parses Slack's two body encodings: JSON (Events API) and form (commands; interactions carry `payload`). @internal */
export function parseSlackBody(contentType: string | undefined, raw: Buffer): Record<string, unknown> {
  const text = raw.toString('utf8');
  if ((contentType ?? '').includes('application/json')) return asObject(JSON.parse(text), 'body');
  const form = Object.fromEntries(new URLSearchParams(text));
  if (typeof form.payload !== 'string') return form;
  const payload = asObject(JSON.parse(form.payload), 'payload');
  const problem = interactionProblem(payload);
  if (problem) throw new Error(problem);
  return payload;
}

function asObject(value: unknown, what: string): Record<string, unknown> {
  if (!isObject(value)) throw new Error(`${what} is not a JSON object`);
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const hasString = (o: unknown, key: string): boolean => isObject(o) && typeof o[key] === 'string';

/** What each interaction type must carry for Bolt to route it; a body without it is refused at once. */
const INTERACTION_SHAPES: Readonly<Record<string, (p: Record<string, unknown>) => string | undefined>> = {
  block_actions: (p) =>
    Array.isArray(p.actions) && p.actions.length > 0 && p.actions.every((a) => hasString(a, 'action_id'))
      ? undefined
      : 'block_actions without actions',
  block_suggestion: (p) =>
    typeof p.action_id === 'string' ? undefined : 'block_suggestion without action_id',
  view_submission: (p) => (hasString(p.view, 'callback_id') ? undefined : 'view_submission without a view'),
  view_closed: (p) => (hasString(p.view, 'callback_id') ? undefined : 'view_closed without a view'),
  shortcut: (p) => (typeof p.callback_id === 'string' ? undefined : 'shortcut without callback_id'),
  message_action: (p) =>
    typeof p.callback_id === 'string' ? undefined : 'message_action without callback_id',
};

/** Why an interaction payload cannot be a real one from Slack, or undefined when its shape is sound. */
function interactionProblem(payload: Record<string, unknown>): string | undefined {
  const type = payload.type;
  const shape =
    typeof type === 'string' && Object.hasOwn(INTERACTION_SHAPES, type)
      ? INTERACTION_SHAPES[type]
      : undefined;
  if (!shape) return `unknown interaction type ${JSON.stringify(type)}`;
  if (!hasString(payload.user, 'id')) return `${type} without a user`;
  // Org-wide installs may send `team: null`; otherwise the team says whose workspace acts.
  if (payload.team !== null && !hasString(payload.team, 'id')) return `${type} without a team`;
  return shape(payload);
}

/** Bolt's unhandled-request answer comes this long after a request nobody acknowledged. */
const UNHANDLED_AFTER_MS = 3_001;

/** Serializations of frozen ack bodies (the help pages): built once, not on every request. */
const serialized = new WeakMap<object, string>();

function ackBodyText(body: object): string {
  if (!Object.isFrozen(body)) return JSON.stringify(body);
  let text = serialized.get(body);
  if (text === undefined) {
    text = JSON.stringify(body);
    serialized.set(body, text);
  }
  return text;
}

/**
 * Bolt's `ack` for one HTTP request, as its HTTPResponseAck answers (200 with nothing, a text, or JSON; a
 * second call throws), without a timer per request: only a request still unacknowledged once Bolt is done
 * with it waits for the unhandled-request answer.
 */
function httpAck(res: ServerResponse) {
  let acked = false;
  return {
    get acked() {
      return acked;
    },
    ack: async (body?: unknown): Promise<void> => {
      if (acked) throw new ReceiverMultipleAckError();
      acked = true;
      if (!body) res.writeHead(200).end();
      else if (typeof body === 'string') res.writeHead(200).end(body);
      else res.writeHead(200, { 'content-type': 'application/json' }).end(ackBodyText(body));
    },
  };
}

export interface VigilReceiverOptions {
  signingSecret: string;
  logger: Logger;
  now?: () => number;
  /** Called when a request is refused, for metrics and tests. */
  onRefused?: (reason: SignatureFailure | 'too-large' | 'malformed') => void;
  /** Counts requests by kind and outcome, and times their acks. */
  metrics?: Pick<Metrics, 'slackRequest' | 'slackRefused'>;
}

export class VigilHttpReceiver implements Receiver {
  private app: App | undefined;
  private readonly now: () => number;
  /** Answers chosen before Bolt's own bare ack (a refused request's reason), by request body. */
  private readonly answers = new WeakMap<object, unknown>();

  constructor(private readonly opts: VigilReceiverOptions) {
    this.now = opts.now ?? Date.now;
  }

  private refused(reason: SignatureFailure | 'too-large' | 'malformed'): void {
    this.opts.metrics?.slackRefused();
    this.opts.onRefused?.(reason);
  }

  init(app: App): void {
    this.app = app;
  }

  /**
   * Makes the HTTP answer to this request `response` when Bolt acks it bare (as it does after refusing a
   * request in `authorize`): a command's reply or a view's update, in the ack itself.
   */
  answerWith(body: object, response: unknown): void {
    this.answers.set(body, response);
  }

  // The web server owns the socket; Bolt's start/stop have nothing to do here.
  async start(): Promise<void> {}
  async stop(): Promise<void> {}

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const body = await this.verifiedBody(req, res);
    if (body === undefined) return;
    if (body.ssl_check === '1') {
      res.writeHead(200).end();
      return;
    }
    if (body.type === 'url_verification') {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ challenge: body.challenge }));
      return;
    }
    await this.process(req, res, body);
  }

  /** The body of a request Slack signed, or undefined once a refusal has been answered. */
  private async verifiedBody(
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<Record<string, unknown> | undefined> {
    const { logger } = this.opts;
    let raw: Buffer;
    try {
      raw = await readBodyCapped(req);
    } catch (err) {
      if (!(err instanceof BodyTooLargeError)) throw err;
      this.refused('too-large');
      logger.warn('slack request refused: body too large');
      // Close the connection so the rest of an oversized upload is never read.
      res.writeHead(413, { connection: 'close' }).end();
      res.on('finish', () => req.destroy());
      return undefined;
    }
    const failure = verifySignature({
      signingSecret: this.opts.signingSecret,
      timestampHeader: header(req, 'x-slack-request-timestamp'),
      signatureHeader: header(req, 'x-slack-signature'),
      rawBody: raw,
      nowMs: this.now(),
    });
    if (failure) {
      this.refused(failure);
      logger.warn('slack request refused: signature check failed', { reason: failure });
      res.writeHead(401).end();
      return undefined;
    }
    try {
      return parseSlackBody(header(req, 'content-type'), raw);
    } catch (err) {
      this.refused('malformed');
      // A JSON syntax error quotes the body: name the problem without it.
      const problem = err instanceof SyntaxError ? 'not JSON' : (err as Error).message;
      logger.warn('slack request refused: malformed body', { problem });
      res.writeHead(400).end();
      return undefined;
    }
  }

  /** Hands the request to Bolt; answers 500 on a failure and 404 when nothing acked it in time. */
  private async process(req: IncomingMessage, res: ServerResponse, body: Record<string, unknown>) {
    const { logger } = this.opts;
    const ack = httpAck(res);
    const watch = this.opts.metrics?.slackRequest(requestKindOf(body));
    const event: ReceiverEvent = {
      body,
      ack: async (response) => {
        await ack.ack(response ?? this.answers.get(body));
        watch?.acked();
      },
      ...optional('retryNum', HTTPModuleFunctions.extractRetryNumFromHTTPRequest(req)),
      ...optional('retryReason', HTTPModuleFunctions.extractRetryReasonFromHTTPRequest(req)),
    };
    try {
      await this.app?.processEvent(event);
    } catch (err) {
      logger.error('slack event processing failed', { err });
      if (!ack.acked) watch?.failed();
      if (!res.headersSent) res.writeHead(500).end();
      return;
    }
    if (ack.acked) return;
    setTimeout(() => {
      if (ack.acked || res.headersSent) return;
      logger.error('slack request not acknowledged within 3 seconds', { type: body.type });
      watch?.unacked();
      res.writeHead(404).end();
    }, UNHANDLED_AFTER_MS).unref();
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: V });
}
