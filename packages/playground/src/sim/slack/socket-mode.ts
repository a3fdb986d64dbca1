/**
 * Socket Mode on the fake Slack. `apps.connections.open` hands out one-use WebSocket URLs served by the fake's
 * own HTTP server (upgrade on `/socket/<ticket>`). On each connection the fake says `hello`, as Slack does; a
 * test then pushes envelopes down the socket and gets the app's ack back, or asks the app to reconnect.
 *
 * The protocol is the one @slack/socket-mode speaks: JSON text frames; Slack → app `hello`, `disconnect` and
 * envelopes `{envelope_id, type, payload, accepts_response_payload}`; app → Slack acks `{envelope_id, payload}`.
 * Liveness uses WebSocket ping/pong frames both ways (ws answers the app's pings by itself).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import type { Clock } from '../../../../../src/kernel/clock.js';
import type { Logger } from '../../../../../src/kernel/logger.js';
import { messageContentError } from './methods/index.js';
import type { Json } from './types.js';

type EnvelopeType = 'slash_commands' | 'interactive' | 'events_api';

/** What a test pushes; the fake adds the envelope id and Slack's default flags. */
export interface EnvelopeInput {
  type: EnvelopeType;
  payload: Json;
  /** Default: a fresh UUID, like Slack's. */
  envelopeId?: string;
  /** Default: true for slash commands and for the interactions answered in the ack (view_submission, options). */
  acceptsResponsePayload?: boolean;
  /** events_api only: Slack's redelivery count and why (default 0 and ''). */
  retryAttempt?: number;
  retryReason?: string;
}

export interface SendOptions {
  /** How long to wait for an open connection and then the ack. Default 5 s (Slack itself allows 3 s). */
  timeoutMs?: number;
  /** Default: the newest open connection. */
  connectionId?: string;
}

/** One envelope as it went down the socket. */
export interface SentEnvelope {
  envelope_id: string;
  type: EnvelopeType;
  payload: Json;
  accepts_response_payload: boolean;
  retry_attempt?: number;
  retry_reason?: string;
  connectionId: string;
  at: number;
}

/** One ack as the app sent it (`envelope_id`, `payload`), with where and when it arrived. */
export interface SocketAck {
  envelope_id: string;
  payload?: Json;
  connectionId: string;
  at: number;
  /** The envelope acked; undefined when the id is not one the fake sent. */
  envelope: SentEnvelope | undefined;
  /** Slack's refusal of a slash command's ack message (too long, bad blocks…), if it would refuse it. */
  refusal: Json | undefined;
  raw: string;
}

export interface SocketConnection {
  id: string;
  appToken: string;
  openedAt: number;
  closedAt: number | undefined;
  closeCode: number | undefined;
  /** Ping frames the app sent, and pong frames it answered to the fake's pings. */
  pingsReceived: number;
  pongsReceived: number;
  /** Text frames from the app that were not acks (malformed JSON, no envelope_id). */
  otherMessages: string[];
}

export interface FakeSocketModeOptions {
  clock: Clock;
  logger: Logger;
  appId: string;
  /** The fake's base URL (`http://127.0.0.1:PORT`), read when a URL is handed out. */
  baseUrl: () => string;
  /** Interval of the fake's pings; 0 turns them off. Default 5 s. */
  pingIntervalMs?: number;
}

const SOCKET_PATH = /^\/socket\/([^/]+)$/;
const DEFAULT_ACK_TIMEOUT_MS = 5_000;
const DEFAULT_PING_INTERVAL_MS = 5_000;
/** Interactions whose ack may carry a response (response_action, options), so Slack flags them. */
const RESPONSE_PAYLOAD_INTERACTIONS = new Set(['view_submission', 'block_suggestion', 'dialog_suggestion']);

type Predicate<T> = (item: T) => boolean;

interface Waiter<T> {
  predicate: Predicate<T>;
  settle: (item: T) => void;
}

interface Live {
  record: SocketConnection;
  ws: WebSocket;
  pinger: NodeJS.Timeout | undefined;
}

interface PendingAck {
  connectionId: string;
  resolve: (ack: SocketAck) => void;
  reject: (err: Error) => void;
}

export class FakeSocketMode {
  /** Every connection ever opened, oldest first. */
  readonly connections: SocketConnection[] = [];
  readonly envelopes: SentEnvelope[] = [];
  readonly acks: SocketAck[] = [];
  private readonly wss = new WebSocketServer({ noServer: true });
  /** Ticket → app token; a ticket opens one connection. */
  private readonly tickets = new Map<string, string>();
  private readonly live = new Map<string, Live>();
  private readonly pending = new Map<string, PendingAck>();
  private openWaiters: Waiter<SocketConnection>[] = [];
  private closeWaiters: Waiter<SocketConnection>[] = [];
  private readonly pingIntervalMs: number;

  constructor(private readonly options: FakeSocketModeOptions) {
    this.pingIntervalMs = options.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS;
  }

  /** The connections open now, oldest first. */
  get open(): SocketConnection[] {
    return [...this.live.values()].map((l) => l.record);
  }

  /** The answer of `apps.connections.open` for a valid app-level token. */
  issueUrl(appToken: string): Json {
    const ticket = randomUUID();
    this.tickets.set(ticket, appToken);
    const base = new URL(this.options.baseUrl());
    return { ok: true, url: `ws://${base.host}/socket/${ticket}` };
  }

  /** The HTTP server's `upgrade` listener. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const ticket = SOCKET_PATH.exec(new URL(req.url ?? '/', 'http://fake.invalid').pathname)?.[1];
    const appToken = ticket === undefined ? undefined : this.tickets.get(ticket);
    if (ticket === undefined || appToken === undefined) {
      // Slack does not document how it refuses a stale ticket; an HTTP error fails the handshake either way.
      const status = ticket === undefined ? '404 Not Found' : '401 Unauthorized';
      socket.end(`HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    this.tickets.delete(ticket);
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, ticket, appToken));
  }

  /**
   * Pushes an envelope to the app and resolves with its ack. Waits for an open connection first (Slack holds
   * and redelivers events while the app reconnects); rejects on timeout or if the connection closes first.
   */
  async send(input: EnvelopeInput, opts: SendOptions = {}): Promise<SocketAck> {
    const timeoutMs = opts.timeoutMs ?? DEFAULT_ACK_TIMEOUT_MS;
    const deadline = Date.now() + timeoutMs;
    const target = await this.connectionFor(opts.connectionId, timeoutMs);
    const live = this.live.get(target.id);
    if (live === undefined) throw new Error(`Socket Mode connection ${target.id} is closed`);
    const envelope: SentEnvelope = {
      envelope_id: input.envelopeId ?? randomUUID(),
      type: input.type,
      payload: input.payload,
      accepts_response_payload: input.acceptsResponsePayload ?? acceptsResponsePayload(input),
      ...(input.type === 'events_api'
        ? { retry_attempt: input.retryAttempt ?? 0, retry_reason: input.retryReason ?? '' }
        : {}),
      connectionId: target.id,
      at: this.options.clock.now(),
    };
    this.envelopes.push(envelope);
    const { connectionId: _c, at: _a, ...wire } = envelope;
    return new Promise<SocketAck>((resolve, reject) => {
      const timer = setTimeout(
        () => {
          this.pending.delete(envelope.envelope_id);
          reject(
            new Error(`no ack for ${input.type} envelope ${envelope.envelope_id} within ${timeoutMs} ms`),
          );
        },
        Math.max(0, deadline - Date.now()),
      );
      this.pending.set(envelope.envelope_id, {
        connectionId: target.id,
        resolve: (ack) => {
          clearTimeout(timer);
          resolve(ack);
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      });
      live.ws.send(JSON.stringify(wire));
    });
  }

  /**
   * Sends Slack's `disconnect` message (to one connection, or to all open ones), asking the app to reconnect
   * through a new `apps.connections.open`. The app closes the socket itself. Returns the connections told.
   */
  disconnect(reason = 'refresh_requested', connectionId?: string): SocketConnection[] {
    const told: SocketConnection[] = [];
    for (const live of this.live.values()) {
      if (connectionId !== undefined && live.record.id !== connectionId) continue;
      live.ws.send(JSON.stringify({ type: 'disconnect', reason, debug_info: { host: 'applink-fake-1' } }));
      told.push(live.record);
    }
    return told;
  }

  /** Cuts connections without a close handshake, as a network failure would. */
  drop(connectionId?: string): void {
    for (const live of this.live.values()) {
      if (connectionId === undefined || live.record.id === connectionId) live.ws.terminate();
    }
  }

  /**
   * Resolves with the first connection, past or future, that matches, once its `hello` is sent: the app may
   * not have read it yet (an acked `send` proves it has).
   */
  waitForConnection(
    match: Predicate<SocketConnection> = () => true,
    timeoutMs = DEFAULT_ACK_TIMEOUT_MS,
  ): Promise<SocketConnection> {
    return this.waitOn(this.connections, 'open', match, timeoutMs, () => {
      return `no matching Socket Mode connection within ${timeoutMs} ms; ${this.connections.length} opened`;
    });
  }

  /** Resolves once the connection is closed (by either side). */
  waitForClose(connectionId: string, timeoutMs = DEFAULT_ACK_TIMEOUT_MS): Promise<SocketConnection> {
    const closed = this.connections.filter((c) => c.closedAt !== undefined);
    return this.waitOn(
      closed,
      'close',
      (c) => c.id === connectionId,
      timeoutMs,
      () => {
        return `Socket Mode connection ${connectionId} still open after ${timeoutMs} ms`;
      },
    );
  }

  /** Forgets what was recorded and the unused tickets; open connections stay open. */
  reset(): void {
    const open = new Set(this.live.keys());
    this.tickets.clear();
    this.envelopes.length = 0;
    this.acks.length = 0;
    const keep = this.connections.filter((c) => open.has(c.id));
    this.connections.length = 0;
    this.connections.push(...keep);
  }

  /** Every frame exchanged, for leak searches. */
  allText(): string[] {
    return [
      ...this.envelopes.map((e) => JSON.stringify(e.payload)),
      ...this.acks.map((a) => a.raw),
      ...this.connections.flatMap((c) => c.otherMessages),
    ];
  }

  async close(): Promise<void> {
    for (const p of this.pending.values()) p.reject(new Error('the fake Slack closed'));
    this.pending.clear();
    for (const live of this.live.values()) live.ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private accept(ws: WebSocket, id: string, appToken: string): void {
    const record: SocketConnection = {
      id,
      appToken,
      openedAt: this.options.clock.now(),
      closedAt: undefined,
      closeCode: undefined,
      pingsReceived: 0,
      pongsReceived: 0,
      otherMessages: [],
    };
    const live: Live = { record, ws, pinger: undefined };
    this.live.set(id, live);
    ws.on('message', (data, isBinary) => this.onMessage(record, data, isBinary));
    ws.on('ping', () => {
      record.pingsReceived += 1;
    });
    ws.on('pong', () => {
      record.pongsReceived += 1;
    });
    ws.on('error', (err) => this.options.logger.warn('fake slack: socket error', { error: String(err) }));
    ws.on('close', (code) => this.onClose(live, code));
    if (this.pingIntervalMs > 0) {
      live.pinger = setInterval(() => {
        if (ws.readyState === ws.OPEN) ws.ping();
      }, this.pingIntervalMs);
      live.pinger.unref();
    }
    ws.send(
      JSON.stringify({
        type: 'hello',
        num_connections: this.live.size,
        debug_info: { host: 'applink-fake-1', build_number: 1, approximate_connection_time: 18060 },
        connection_info: { app_id: this.options.appId },
      }),
    );
    this.connections.push(record);
    this.openWaiters = notify(this.openWaiters, record);
  }

  private onMessage(record: SocketConnection, data: RawData, isBinary: boolean): void {
    const raw = isBinary ? '' : rawText(data);
    let message: unknown;
    try {
      message = JSON.parse(raw);
    } catch {
      message = undefined;
    }
    const fields = typeof message === 'object' && message !== null ? (message as Json) : {};
    const envelopeId = fields.envelope_id;
    if (typeof envelopeId !== 'string') {
      record.otherMessages.push(isBinary ? `<binary ${rawText(data).length} bytes>` : raw);
      return;
    }
    const payload = isJson(fields.payload) ? fields.payload : undefined;
    const envelope = this.envelopes.find((e) => e.envelope_id === envelopeId);
    const ack: SocketAck = {
      envelope_id: envelopeId,
      ...(payload !== undefined ? { payload } : {}),
      connectionId: record.id,
      at: this.options.clock.now(),
      envelope,
      refusal: envelope?.type === 'slash_commands' ? ackMessageRefusal(payload) : undefined,
      raw,
    };
    this.acks.push(ack);
    const pending = this.pending.get(envelopeId);
    this.pending.delete(envelopeId);
    pending?.resolve(ack);
  }

  private onClose(live: Live, code: number): void {
    clearInterval(live.pinger);
    this.live.delete(live.record.id);
    live.record.closedAt = this.options.clock.now();
    live.record.closeCode = code;
    for (const [envelopeId, p] of this.pending) {
      if (p.connectionId !== live.record.id) continue;
      this.pending.delete(envelopeId);
      p.reject(new Error(`Socket Mode connection closed (code ${code}) before the ack of ${envelopeId}`));
    }
    this.closeWaiters = notify(this.closeWaiters, live.record);
  }

  private async connectionFor(
    connectionId: string | undefined,
    timeoutMs: number,
  ): Promise<SocketConnection> {
    if (connectionId !== undefined) {
      const live = this.live.get(connectionId);
      if (live === undefined) throw new Error(`no open Socket Mode connection ${connectionId}`);
      return live.record;
    }
    const newest = [...this.live.values()].at(-1);
    if (newest !== undefined) return newest.record;
    return this.waitOn(
      [],
      'open',
      () => true,
      timeoutMs,
      () => {
        return `no open Socket Mode connection within ${timeoutMs} ms`;
      },
    );
  }

  private waitOn(
    past: SocketConnection[],
    kind: 'open' | 'close',
    predicate: Predicate<SocketConnection>,
    timeoutMs: number,
    describe: () => string,
  ): Promise<SocketConnection> {
    const found = past.find(predicate);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise<SocketConnection>((resolve, reject) => {
      const waiter: Waiter<SocketConnection> = {
        predicate,
        settle: (item) => {
          clearTimeout(timer);
          resolve(item);
        },
      };
      const timer = setTimeout(() => {
        if (kind === 'open') this.openWaiters = this.openWaiters.filter((w) => w !== waiter);
        else this.closeWaiters = this.closeWaiters.filter((w) => w !== waiter);
        reject(new Error(describe()));
      }, timeoutMs);
      if (kind === 'open') this.openWaiters.push(waiter);
      else this.closeWaiters.push(waiter);
    });
  }
}

function notify<T>(waiters: Waiter<T>[], item: T): Waiter<T>[] {
  const remaining: Waiter<T>[] = [];
  for (const w of waiters) {
    if (w.predicate(item)) w.settle(item);
    else remaining.push(w);
  }
  return remaining;
}

function acceptsResponsePayload(input: EnvelopeInput): boolean {
  if (input.type === 'slash_commands') return true;
  if (input.type === 'interactive') return RESPONSE_PAYLOAD_INTERACTIONS.has(String(input.payload.type));
  return false;
}

/** A slash command's ack is shown as a message, so Slack checks it like one; an empty ack shows nothing. */
function ackMessageRefusal(payload: Json | undefined): Json | undefined {
  if (payload === undefined || Object.keys(payload).length === 0) return undefined;
  return messageContentError(payload);
}

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}
