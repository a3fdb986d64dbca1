/**
 * A fake Slack on 127.0.0.1: the Web API (under /api/), response_url endpoints, file upload URLs and Socket
 * Mode WebSockets (`socket`, on the same server). It answers
 * like Slack, enforces the limits Vigil must respect, and records everything so tests assert on what was sent.
 */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../../../../../src/kernel/clock.js';
import type { Logger } from '../../../../../src/kernel/logger.js';
import { quietLogger, wallClock } from '../defaults.js';
import {
  type FunctionDeclarations,
  type FunctionExecution,
  inputProblems,
  parameterList,
} from './functions.js';
import { fileJson, filePath } from './methods/files.js';
import {
  botMethods,
  clientMethods,
  forgetSignIns,
  messageContentError,
  openIdAuthorize,
  type StreamRecord,
  type SuggestedPrompts,
  signInAs,
  streamsOf,
  suggestedPromptsOf,
} from './methods/index.js';
import { type FakeOrgWorkspace, orgWorkspaces } from './org.js';
import { flatHeaders, parseRequest, readRaw } from './request-body.js';
import { FakeSocketMode } from './socket-mode.js';
import {
  DEFAULT_APP_ID,
  DEFAULT_BOT_SCOPES,
  DEFAULT_CLIENT_ID,
  DEFAULT_CLIENT_SECRET,
  DEFAULT_TEAM_ID,
  RESPONSE_URL_MAX_USES,
  RESPONSE_URL_TTL_MS,
  SlackState,
} from './state.js';
import type {
  ContentRefusal,
  FailureSpec,
  FakeChannel,
  FakeTeam,
  FakeUser,
  FileDownload,
  Json,
  OAuthGrant,
  RecordedCall,
  ResponseUrlPost,
  StoredMessage,
  StoredView,
  UploadedFile,
} from './types.js';

export interface FakeSlackOptions {
  clock?: Clock;
  logger?: Logger;
  /** Default 0: any free port. */
  port?: number;
  clientId?: string;
  clientSecret?: string;
  appId?: string;
  /** Seed the default team T0001, its people and channels, and the app-level token DEFAULT_APP_TOKEN. Default true. */
  seed?: boolean;
  /** More app-level tokens (`xapp-…`) that apps.connections.open accepts. */
  appTokens?: string[];
  /** How often the fake pings each Socket Mode connection; 0 turns pings off. Default 5 s. */
  socketPingIntervalMs?: number;
  /**
   * Bounds for a long-running fake (the playground): the oldest recorded calls, posts and downloads, files,
   * messages of a channel and modal views beyond these are forgotten, and so are response URLs and
   * trigger ids past their lifetime. Unbounded by default: tests read everything that was recorded.
   */
  retain?: RetainLimits;
  /**
   * The manifest's `functions` (workflow steps): functions.completeSuccess refuses outputs that do not match
   * their declaration, as Slack does. Without it, outputs are not checked.
   */
  functions?: FunctionDeclarations;
}

interface RetainLimits {
  /** Recorded calls, response_url posts and downloads, each. */
  records: number;
  /** Files (with their bytes). */
  files: number;
  /** Messages per channel. */
  messagesPerChannel: number;
  /** Modal views (Home views are kept). */
  views: number;
}

/** Told of every call and response_url post as it is recorded, even when `retain` forgets it later. */
export interface RecordObserver {
  call?(call: RecordedCall): void;
  post?(post: ResponseUrlPost): void;
}

const MAX_BODY_BYTES = 50 * 1024 * 1024;
/** The errors Slack gives a payload it refuses for its content (see ContentRefusal). */
const CONTENT_ERRORS = new Set([
  'invalid_blocks',
  'invalid_blocks_format',
  'msg_blocks_too_long',
  'msg_too_long',
  'no_text',
  'invalid_arguments',
  'invalid_metadata',
]);
const RESPONSE_URL_PATH = /^\/(commands|actions)\/[^/]+\/[^/]+\/[^/]+$/;
/** Methods that need a scope an installer may decline (manifest `bot_optional`): refused without it. */
const OPTIONAL_SCOPE_OF: Record<string, string> = { 'users.lookupByEmail': 'users:read.email' };
/** The one method that takes an app-level token. */
const CONNECTIONS_OPEN = 'apps.connections.open';

type Predicate<T> = (item: T) => boolean;

interface Waiter<T> {
  predicate: Predicate<T>;
  resolve: (item: T) => void;
}

interface Reply {
  status: number;
  body: Json;
  headers?: Record<string, string>;
}

export class FakeSlack {
  readonly calls: RecordedCall[] = [];
  readonly responseUrlPosts: ResponseUrlPost[] = [];
  /** Every payload refused for its content, in order; see ContentRefusal. */
  readonly refusals: ContentRefusal[] = [];
  /** Every GET of a file's bytes, served or refused. */
  readonly downloads: FileDownload[] = [];
  readonly clientId: string;
  readonly clientSecret: string;
  readonly appId: string;
  /** Socket Mode: the connections, envelopes pushed to the app and its acks. */
  readonly socket: FakeSocketMode;
  private readonly state: SlackState;
  private readonly failures = new Map<string, Required<Pick<FailureSpec, 'times'>> & FailureSpec>();
  private readonly holds = new Map<string, HeldCall[]>();
  private callWaiters: Waiter<RecordedCall>[] = [];
  private readonly seenAcks = new WeakSet<object>();
  private readonly observers = new Set<RecordObserver>();
  private postWaiters: Waiter<ResponseUrlPost>[] = [];
  private baseUrl = '';

  constructor(
    private readonly options: FakeSlackOptions,
    private readonly server: Server = createServer(),
    private readonly logger: Logger = options.logger ?? quietLogger,
  ) {
    this.clientId = options.clientId ?? DEFAULT_CLIENT_ID;
    this.clientSecret = options.clientSecret ?? DEFAULT_CLIENT_SECRET;
    this.appId = options.appId ?? DEFAULT_APP_ID;
    this.state = new SlackState(options.clock ?? wallClock, this.appId);
    this.seedState();
    this.socket = new FakeSocketMode({
      clock: this.state.clock,
      logger: this.logger,
      appId: this.appId,
      baseUrl: () => this.baseUrl,
      ...(options.socketPingIntervalMs !== undefined ? { pingIntervalMs: options.socketPingIntervalMs } : {}),
    });
    this.server.on('upgrade', (req, socket, head) => this.socket.handleUpgrade(req, socket, head));
    this.server.on('request', (req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        this.logger.error('fake slack: request failed', { error: String(err) });
        if (!res.headersSent) this.send(res, { status: 500, body: { ok: false, error: 'internal_error' } });
      });
    });
  }

  async listen(port = 0): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => resolve());
    });
    const { port: actual } = this.server.address() as AddressInfo;
    this.baseUrl = `http://127.0.0.1:${actual}`;
  }

  /** `http://127.0.0.1:PORT`, no trailing slash. */
  get url(): string {
    return this.baseUrl;
  }

  /** What to give a WebClient as `slackApiUrl`. */
  get apiUrl(): string {
    return `${this.baseUrl}/api/`;
  }

  get teams(): Map<string, FakeTeam> {
    return this.state.teams;
  }
  get users(): Map<string, FakeUser> {
    return this.state.users;
  }
  get usergroups(): Map<string, string[]> {
    return this.state.usergroups;
  }
  get channels(): Map<string, FakeChannel> {
    return this.state.channels;
  }
  get views(): Map<string, StoredView> {
    return this.state.views;
  }
  /** Files announced through files.getUploadURLExternal, with their bytes once uploaded. */
  get files(): Map<string, UploadedFile> {
    return this.state.files;
  }

  addTeam(team: FakeTeam): FakeTeam {
    return this.state.addTeam(team);
  }

  /**
   * A file someone shared in the workspace: files.info describes it (with `size` and a
   * `url_private_download` on this fake) and its bytes are served to the team's bot token only.
   */
  addFile(input: {
    filename: string;
    bytes: Buffer;
    user?: string;
    mimetype?: string;
    teamId?: string;
    /** The size files.info states, when it should differ from the bytes served. */
    reportedSize?: number;
    /** Serve the bytes without a Content-Length. */
    chunked?: boolean;
  }): Json {
    const teamId = input.teamId ?? DEFAULT_TEAM_ID;
    const team = this.state.teams.get(teamId);
    if (team === undefined) throw new Error(`fake slack: no team ${teamId}`);
    const file: UploadedFile = {
      fileId: this.state.nextId('F'),
      teamId,
      filename: input.filename,
      declaredLength: input.bytes.length,
      title: undefined,
      bytes: input.bytes,
      completed: true,
      channelId: undefined,
      initialComment: undefined,
      threadTs: undefined,
      ...(input.user !== undefined ? { user: input.user } : {}),
      ...(input.mimetype !== undefined ? { mimetype: input.mimetype } : {}),
      ...(input.reportedSize !== undefined ? { reportedSize: input.reportedSize } : {}),
      ...(input.chunked === true ? { chunked: true } : {}),
    };
    this.state.files.set(file.fileId, file);
    return fileJson(this.state, team, file, this.baseUrl);
  }

  /**
   * A run of the workflow step `callbackId` in `teamId`: a fresh execution with its own workflow token, and
   * the `function_executed` event Slack sends for it (the inner event: wrap it in an envelope to deliver).
   */
  startFunction(input: {
    callbackId: string;
    inputs: Json;
    teamId?: string;
    /** Deliver inputs Slack would refuse to publish (a required one missing…): the app's own checks. */
    unchecked?: boolean;
  }): {
    execution: FunctionExecution;
    event: Json;
  } {
    const teamId = input.teamId ?? DEFAULT_TEAM_ID;
    const declared = this.state.functionDeclarations?.[input.callbackId];
    if (this.state.functionDeclarations !== undefined && declared === undefined)
      throw new Error(`fake slack: the manifest declares no function ${input.callbackId}`);
    const problems = declared && input.unchecked !== true ? inputProblems(declared, input.inputs) : [];
    if (problems.length > 0)
      throw new Error(`fake slack: Slack would not run ${input.callbackId} with ${problems.join('; ')}`);
    const execution: FunctionExecution = {
      id: this.state.nextId('Fx'),
      callbackId: input.callbackId,
      teamId,
      token: `xwfp-${teamId.slice(1)}-${this.state.randomKey(12)}`,
      workflowExecutionId: this.state.nextId('Wx'),
      inputs: input.inputs,
      state: 'running',
    };
    this.state.functionExecutions.set(execution.id, execution);
    this.state.tokens.set(execution.token, teamId);
    const now = Math.floor(this.state.clock.now() / 1000);
    const event: Json = {
      type: 'function_executed',
      function: {
        id: this.state.nextId('Fn'),
        callback_id: input.callbackId,
        title: declared?.title ?? input.callbackId,
        ...(declared?.description === undefined ? {} : { description: declared.description }),
        type: 'app',
        input_parameters: parameterList(declared?.input_parameters),
        output_parameters: parameterList(declared?.output_parameters),
        app_id: this.appId,
        date_created: now,
        date_updated: now,
        date_deleted: 0,
      },
      inputs: input.inputs,
      function_execution_id: execution.id,
      workflow_execution_id: execution.workflowExecutionId,
      event_ts: this.state.nextTs(),
      bot_access_token: execution.token,
    };
    return { execution, event };
  }

  /** A run of a workflow step started with `startFunction`, as it stands. */
  functionExecution(id: string): FunctionExecution | undefined {
    return this.state.functionExecutions.get(id);
  }

  /** Registers an app-level token (`xapp-…`) for apps.connections.open. */
  addAppToken(token: string): string {
    this.state.appTokens.add(token);
    return token;
  }

  addUser(user: Pick<FakeUser, 'id'> & Partial<FakeUser>): FakeUser {
    const full: FakeUser = { team_id: DEFAULT_TEAM_ID, name: user.id.toLowerCase(), ...user };
    this.state.users.set(full.id, full);
    return full;
  }

  /** An organization of several workspaces (org.ts): their members and channels, for an org-wide install. */
  addOrg(enterpriseId: string, teamIds: readonly string[]): FakeOrgWorkspace[] {
    const org = orgWorkspaces(enterpriseId, teamIds);
    for (const user of org.users) this.state.users.set(user.id, user);
    for (const channel of org.channels) this.state.channels.set(channel.id, channel);
    return org.workspaces;
  }

  addChannel(channel: Pick<FakeChannel, 'id'> & Partial<FakeChannel>): FakeChannel {
    const full: FakeChannel = {
      team_id: DEFAULT_TEAM_ID,
      name: channel.id.toLowerCase(),
      is_member: true,
      ...channel,
    };
    this.state.channels.set(full.id, full);
    return full;
  }

  /** The direct message between the bot and a person, opened as conversations.open would. */
  openDm(userId: string, teamId = DEFAULT_TEAM_ID): FakeChannel {
    return this.state.openIm(teamId, userId).channel;
  }

  /** The current messages of a channel (after updates and deletes), oldest first. */
  messages(channel: string): StoredMessage[] {
    return [...(this.state.messages.get(channel) ?? [])];
  }

  /** Puts a message in a channel, as if the bot had posted it, so a test can click its buttons. */
  addMessage(message: Pick<StoredMessage, 'channel'> & Partial<StoredMessage>): StoredMessage {
    const team = this.state.teams.get(this.state.channels.get(message.channel)?.team_id ?? '');
    const full: StoredMessage = {
      ts: this.state.nextTs(),
      text: '',
      blocks: undefined,
      user: team?.botUserId ?? 'U0BOT0001',
      bot_id: team?.botId,
      thread_ts: undefined,
      edited: undefined,
      ...message,
    };
    this.state.channelMessages(full.channel).push(full);
    return full;
  }

  /** The streamed messages (chat.startStream…), keyed `channel:ts`: chunks in order, each task's last state. */
  streams(): StreamRecord[] {
    return [...streamsOf(this.state).values()];
  }

  /** The prompts a DM suggests (assistant.threads.setSuggestedPrompts), as the person opening it sees them. */
  suggestedPrompts(channel: string): SuggestedPrompts | undefined {
    return suggestedPromptsOf(this.state).get(channel);
  }

  /** The Home view last published to a user. */
  homeView(userId: string, teamId = DEFAULT_TEAM_ID): StoredView | undefined {
    const id = this.state.homes.get(`${teamId}:${userId}`);
    return id === undefined ? undefined : this.state.views.get(id);
  }

  /** A response_url on this fake: 5 uses within 30 minutes, like Slack's. */
  responseUrl(id?: string, teamId = DEFAULT_TEAM_ID): string {
    const path = `/commands/${teamId}/${id ?? this.state.nextId('1')}/${this.state.randomKey(18)}`;
    this.state.responseUrls.set(path, { createdAt: this.state.clock.now(), uses: 0 });
    return `${this.baseUrl}${path}`;
  }

  /** A trigger_id whose age the fake knows, so views.open refuses it after 3 s of the fake's clock. */
  triggerId(): string {
    return this.state.issueTrigger();
  }

  /** A code for oauth.v2.access that installs the app in `grant.teamId` with a fresh bot token. */
  issueOAuthCode(grant: OAuthGrant): string {
    const code = `${grant.teamId.slice(1)}.${this.state.randomKey(10)}`;
    this.state.oauthCodes.set(code, grant);
    return code;
  }

  /** The person the next Sign in with Slack (`/openid/connect/authorize`) signs in: the consent page's answer. */
  signInAs(userId: string, teamId = DEFAULT_TEAM_ID): void {
    signInAs(this.state, teamId, userId);
  }

  /**
   * Token rotation for `teamId`'s bot: a refresh token that `oauth.v2.access` (grant_type=refresh_token)
   * exchanges once for a new bot token (12 hours) and a new refresh token; a second exchange of the same one
   * is refused with `invalid_refresh_token`.
   */
  issueRefreshToken(teamId: string): string {
    const token = `xoxe-1-${teamId.slice(1)}-${this.state.randomKey(10)}`;
    this.state.refreshTokens.set(token, { teamId, used: false });
    return token;
  }

  /** Make the next call(s) to `method` fail. 'response_url' and 'upload' name those endpoints. */
  failNext(method: string, spec: FailureSpec = {}): void {
    this.failures.set(method, { ...spec, times: spec.times ?? 1 });
  }

  /**
   * Holds the next call to `method` ('response_url' and 'upload' name those endpoints): its request is read
   * and nothing is answered until `release()` (then it is answered as usual), so a test can stop a process
   * mid-call or let a call hang. `arrived` resolves when the call comes. Closing the fake drops held calls.
   */
  hold(method: string): { arrived: Promise<void>; release(): void } {
    let arrive = () => {};
    let release = () => {};
    const held: HeldCall = {
      arrived: new Promise<void>((resolve) => {
        arrive = resolve;
      }),
      released: new Promise<void>((resolve) => {
        release = resolve;
      }),
      arrive: () => arrive(),
    };
    this.holds.set(method, [...(this.holds.get(method) ?? []), held]);
    return { arrived: held.arrived, release: () => release() };
  }

  /** Follows what is recorded from now on; returns the function that stops following. */
  observe(observer: RecordObserver): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  /** The posts made to one response_url (as returned by `responseUrl()`). */
  postsTo(responseUrl: string): ResponseUrlPost[] {
    return this.responseUrlPosts.filter((p) => `${this.baseUrl}${p.path}` === responseUrl);
  }

  callsTo(method: string): RecordedCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  /** Resolves with the first call, past or future, that matches (a method name or a predicate). */
  waitFor(match: string | Predicate<RecordedCall>, timeoutMs = 5_000): Promise<RecordedCall> {
    const predicate = typeof match === 'string' ? (c: RecordedCall) => c.method === match : match;
    return this.waitOn(
      this.calls,
      this.callWaiters,
      predicate,
      timeoutMs,
      () =>
        `no matching Slack call within ${timeoutMs} ms; calls: ${this.calls.map((c) => c.method).join(', ') || 'none'}`,
    );
  }

  /** Resolves with the first response_url post, past or future, that matches. */
  waitForPost(match: Predicate<ResponseUrlPost> = () => true, timeoutMs = 5_000): Promise<ResponseUrlPost> {
    return this.waitOn(
      this.responseUrlPosts,
      this.postWaiters,
      match,
      timeoutMs,
      () => `no matching response_url post within ${timeoutMs} ms; ${this.responseUrlPosts.length} posts`,
    );
  }

  /** Every byte sent to the fake (headers, bodies, posts, uploads) as one string, to search for leaks. */
  allText(): string {
    const parts: string[] = [];
    for (const c of this.calls) parts.push(c.method, JSON.stringify(c.headers), c.rawBody);
    for (const p of this.responseUrlPosts) parts.push(p.path, JSON.stringify(p.headers), p.rawBody);
    for (const f of this.state.files.values())
      parts.push(f.filename, f.title ?? '', f.bytes?.toString('utf8') ?? '');
    parts.push(...this.socket.allText());
    return parts.join('\n');
  }

  /** Forgets everything recorded and stored, and restores the seeded workspace. Open sockets stay open. */
  reset(): void {
    this.calls.length = 0;
    this.responseUrlPosts.length = 0;
    this.refusals.length = 0;
    this.downloads.length = 0;
    this.failures.clear();
    forgetSignIns(this.state);
    this.state.clear();
    streamsOf(this.state).clear();
    suggestedPromptsOf(this.state).clear();
    this.seedState();
    this.socket.reset();
    this.holds.clear();
  }

  async close(): Promise<void> {
    // Upgraded sockets are no longer the HTTP server's: close them first or server.close() waits on them.
    await this.socket.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve, reject) => this.server.close((err) => (err ? reject(err) : resolve())));
  }

  /** Applies `retain`: oldest first, so a long session holds a bounded amount whatever its length. */
  private trim(): void {
    const limits = this.options.retain;
    if (limits === undefined) return;
    for (const list of [this.calls, this.responseUrlPosts, this.downloads] as unknown[][]) {
      if (list.length > limits.records) list.splice(0, list.length - limits.records);
    }
    const { state } = this;
    dropOldest(state.files, limits.files);
    for (const [key, fileId] of state.uploadKeys) if (!state.files.has(fileId)) state.uploadKeys.delete(key);
    for (const list of state.messages.values()) {
      if (list.length > limits.messagesPerChannel) list.splice(0, list.length - limits.messagesPerChannel);
    }
    const homes = new Set(state.homes.values());
    const modals = [...state.views.keys()].filter((id) => !homes.has(id));
    for (const id of modals.slice(0, Math.max(0, modals.length - limits.views))) state.views.delete(id);
    const now = state.clock.now();
    for (const [path, url] of state.responseUrls) {
      if (now - url.createdAt > RESPONSE_URL_TTL_MS) state.responseUrls.delete(path);
    }
    // A trigger is refused from 3 s on; forgetting it a minute later changes no answer the playground sees.
    for (const [id, trigger] of state.triggers) {
      if (trigger.issuedAt !== undefined && now - trigger.issuedAt > 60_000) state.triggers.delete(id);
    }
  }

  private seedState(): void {
    if (this.options.seed !== false) this.state.seed();
    this.state.functionDeclarations = this.options.functions;
    for (const token of this.options.appTokens ?? []) this.state.appTokens.add(token);
  }

  private waitOn<T>(
    items: T[],
    waiters: Waiter<T>[],
    predicate: Predicate<T>,
    timeoutMs: number,
    describe: () => string,
  ): Promise<T> {
    const found = items.find(predicate);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter<T> = {
        predicate,
        resolve: (item) => {
          clearTimeout(timer);
          resolve(item);
        },
      };
      const timer = setTimeout(() => {
        const i = waiters.indexOf(waiter);
        if (i >= 0) waiters.splice(i, 1);
        reject(new Error(describe()));
      }, timeoutMs);
      waiters.push(waiter);
    });
  }

  private notify<T>(waiters: Waiter<T>[], item: T): Waiter<T>[] {
    const remaining: Waiter<T>[] = [];
    for (const w of waiters) {
      if (w.predicate(item)) w.resolve(item);
      else remaining.push(w);
    }
    return remaining;
  }

  private takeHold(name: string | undefined): HeldCall | undefined {
    const queue = name === undefined ? undefined : this.holds.get(name);
    const held = queue?.shift();
    if (queue?.length === 0 && name !== undefined) this.holds.delete(name);
    return held;
  }

  private takeFailure(method: string): (Reply & { landed: boolean }) | undefined {
    const spec = this.failures.get(method);
    if (spec === undefined) return undefined;
    if (spec.times <= 1) this.failures.delete(method);
    else spec.times -= 1;
    const error = spec.error ?? 'ratelimited';
    const landed = spec.landed === true;
    if (error === 'ratelimited') {
      return {
        status: spec.status ?? 429,
        body: { ok: false, error },
        headers: { 'retry-after': String(spec.retryAfter ?? 1) },
        landed,
      };
    }
    return { status: spec.status ?? 200, body: { ok: false, error }, landed };
  }

  private send(res: ServerResponse, reply: Reply): void {
    const text = JSON.stringify(reply.body);
    res.writeHead(reply.status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      ...reply.headers,
    });
    res.end(text);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.baseUrl);
    const raw = await readRaw(req, MAX_BODY_BYTES);
    const held = this.takeHold(heldName(req, url));
    if (held !== undefined) {
      held.arrive();
      await held.released;
    }
    if (url.pathname.startsWith('/api/')) {
      this.send(res, await this.apiCall(req, raw, url));
    } else if (url.pathname.startsWith('/upload/v1/')) {
      await this.upload(req, res, raw, url);
    } else if (req.method === 'GET' && url.pathname.startsWith('/files-pri/')) {
      this.download(req, res, url);
    } else if (req.method === 'GET' && url.pathname === '/openid/connect/authorize') {
      const answer = openIdAuthorize(this.state, url, this.clientId);
      res.writeHead(answer.status, answer.location ? { location: answer.location } : {}).end();
    } else if (req.method === 'POST' && RESPONSE_URL_PATH.test(url.pathname)) {
      this.send(res, this.responseUrlPost(req, raw, url));
    } else {
      this.send(res, { status: 404, body: { ok: false, error: 'not_found' } });
    }
  }

  private async apiCall(req: IncomingMessage, raw: Buffer, url: URL): Promise<Reply> {
    const method = decodeURIComponent(url.pathname.slice('/api/'.length));
    const at = this.state.clock.now();
    let parsed: Awaited<ReturnType<typeof parseRequest>> | undefined;
    try {
      parsed = await parseRequest(req, raw, url);
    } catch {
      parsed = undefined;
    }
    const injected = parsed === undefined ? undefined : this.takeFailure(method);
    if (injected?.landed === true && parsed !== undefined) this.dispatch(method, parsed);
    const reply: Reply =
      parsed === undefined
        ? { status: 200, body: { ok: false, error: 'invalid_json' } }
        : (injected ?? {
            status: 200,
            body: this.dispatch(method, parsed),
            ...this.scopeHeader(parsed.token),
          });
    if (parsed === undefined) {
      const headers = flatHeaders(req);
      parsed = { contentType: headers['content-type'] ?? '', headers, raw, body: {}, token: undefined };
    }
    const call: RecordedCall = {
      method,
      body: parsed.body,
      token: parsed.token,
      at,
      contentType: parsed.contentType,
      headers: parsed.headers,
      rawBody: raw.toString('utf8'),
      status: reply.status,
      response: reply.body,
    };
    this.calls.push(call);
    if (injected === undefined) this.noteRefusal(method, reply.body, parsed.body, at);
    this.callWaiters = this.notify(this.callWaiters, call);
    for (const o of this.observers) o.call?.(call);
    this.trim();
    return reply;
  }

  /** Slack reports a token's scopes on every call made with it (`x-oauth-scopes`, comma-separated). */
  private scopeHeader(token: string | undefined): { headers?: Record<string, string> } {
    const team = this.state.teams.get(this.state.tokens.get(token ?? '') ?? '');
    if (team === undefined) return {};
    return { headers: { 'x-oauth-scopes': (team.scopes ?? DEFAULT_BOT_SCOPES).join(',') } };
  }

  private dispatch(method: string, parsed: Awaited<ReturnType<typeof parseRequest>>): Json {
    const base = {
      state: this.state,
      body: parsed.body,
      headers: parsed.headers,
      baseUrl: this.baseUrl,
      clientId: this.clientId,
      clientSecret: this.clientSecret,
    };
    const clientMethod = clientMethods[method];
    if (clientMethod !== undefined) return clientMethod(base);
    const botMethod = botMethods[method];
    if (botMethod === undefined && method !== CONNECTIONS_OPEN) return { ok: false, error: 'unknown_method' };
    // Slack reads the token from the header for JSON bodies; a `token` field in JSON is ignored.
    const isJson = parsed.contentType.toLowerCase().startsWith('application/json');
    const token = isJson && !parsed.headers.authorization ? undefined : parsed.token;
    if (token === undefined) return { ok: false, error: 'not_authed' };
    if (this.state.revokedTokens.has(token)) return { ok: false, error: 'token_revoked' };
    // App-level tokens open sockets and nothing else; bot tokens cannot open sockets.
    const isAppToken = this.state.appTokens.has(token);
    if (botMethod === undefined) {
      // Only apps.connections.open gets here.
      if (isAppToken) return this.socket.issueUrl(token);
      return { ok: false, error: this.state.tokens.has(token) ? 'not_allowed_token_type' : 'invalid_auth' };
    }
    if (isAppToken) return { ok: false, error: 'not_allowed_token_type' };
    const team = this.state.teams.get(this.state.tokens.get(token) ?? '');
    if (team === undefined) return { ok: false, error: 'invalid_auth' };
    const needed = OPTIONAL_SCOPE_OF[method];
    const granted = team.scopes ?? DEFAULT_BOT_SCOPES;
    if (needed !== undefined && !granted.includes(needed))
      return { ok: false, error: 'missing_scope', needed, provided: granted.join(',') };
    return botMethod({ ...base, team, token });
  }

  private noteRefusal(where: string, response: Json, body: Json, at: number): void {
    const error = response.ok === false && typeof response.error === 'string' ? response.error : undefined;
    if (error === undefined || !CONTENT_ERRORS.has(error)) return;
    const problems = Array.isArray(response.errors) ? response.errors.map(String) : [];
    this.refusals.push({ where, error, problems, at, body });
  }

  /**
   * Every refusal so far, the acks of Socket Mode included, described for a failure message; empties the list
   * so the next test starts clean.
   */
  takeRefusals(): ContentRefusal[] {
    const socket = this.socket.acks
      .filter((a) => a.refusal !== undefined && !this.seenAcks.has(a))
      .map((a): ContentRefusal => {
        this.seenAcks.add(a);
        const r = a.refusal ?? {};
        return {
          where: 'socket_ack',
          error: String(r.error),
          problems: Array.isArray(r.errors) ? r.errors.map(String) : [],
          at: this.state.clock.now(),
          body: a.payload ?? {},
        };
      });
    const all = [...this.refusals, ...socket];
    this.refusals.length = 0;
    return all;
  }

  private async upload(req: IncomingMessage, res: ServerResponse, raw: Buffer, url: URL): Promise<void> {
    const fileId = this.state.uploadKeys.get(url.pathname.slice('/upload/v1/'.length));
    const file = fileId === undefined ? undefined : this.state.files.get(fileId);
    const failure = this.takeFailure('upload');
    if (failure !== undefined) {
      this.send(res, failure);
      return;
    }
    if (req.method !== 'POST' || file === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    const contentType = req.headers['content-type'] ?? '';
    if (contentType.toLowerCase().startsWith('multipart/form-data')) {
      const parsed = await parseRequest(req, raw, new URL('http://fake.invalid/'));
      const part = Object.values(parsed.body).find((v): v is Buffer => Buffer.isBuffer(v));
      file.bytes = part ?? Buffer.alloc(0);
    } else {
      file.bytes = raw;
    }
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(`OK - ${file.bytes.length}`);
  }

  /** Like Slack: the bytes for the owning team's bot token; anyone else gets the sign-in page (HTML, 200). */
  private download(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const m = /^\/files-pri\/([A-Z0-9]+)-(F[A-Z0-9]+)\//.exec(url.pathname);
    const file = m?.[2] === undefined ? undefined : this.state.files.get(m[2]);
    const auth = req.headers.authorization;
    const token = typeof auth === 'string' && auth.startsWith('Bearer ') ? auth.slice(7) : undefined;
    const teamOfToken = token === undefined ? undefined : this.state.tokens.get(token);
    const ok =
      file?.bytes !== undefined &&
      file.teamId === m?.[1] &&
      url.pathname === filePath(file.teamId, file) &&
      teamOfToken === file.teamId &&
      token !== undefined &&
      !this.state.revokedTokens.has(token);
    this.downloads.push({ fileId: file?.fileId, token, served: ok, at: this.state.clock.now() });
    this.trim();
    if (!ok || file?.bytes === undefined) {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!DOCTYPE html><title>Sign in</title>');
      return;
    }
    res
      .writeHead(200, {
        'content-type': file.mimetype ?? 'application/octet-stream',
        ...(file.chunked ? {} : { 'content-length': String(file.bytes.length) }),
      })
      .end(file.bytes);
  }

  private responseUrlPost(req: IncomingMessage, raw: Buffer, url: URL): Reply {
    const headers = flatHeaders(req);
    let body: Json = {};
    let reply: Reply | undefined = this.takeFailure('response_url');
    try {
      const parsed: unknown = JSON.parse(raw.toString('utf8'));
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) body = parsed as Json;
      else reply ??= { status: 400, body: { ok: false, error: 'invalid_payload' } };
    } catch {
      reply ??= { status: 400, body: { ok: false, error: 'invalid_payload' } };
    }
    if (reply === undefined) {
      reply = this.useResponseUrl(url.pathname, body);
      this.noteRefusal('response_url', reply.body, body, this.state.clock.now());
    }
    const post: ResponseUrlPost = {
      path: url.pathname,
      body,
      at: this.state.clock.now(),
      headers,
      rawBody: raw.toString('utf8'),
      status: reply.status,
      response: reply.body,
    };
    this.responseUrlPosts.push(post);
    this.postWaiters = this.notify(this.postWaiters, post);
    for (const o of this.observers) o.post?.(post);
    this.trim();
    return reply;
  }

  private useResponseUrl(path: string, body: Json): Reply {
    const known = this.state.responseUrls.get(path);
    if (known === undefined) return { status: 404, body: { ok: false, error: 'invalid_url' } };
    if (this.state.clock.now() - known.createdAt > RESPONSE_URL_TTL_MS) {
      return { status: 404, body: { ok: false, error: 'expired_url' } };
    }
    // Every attempt spends a use, accepted or not.
    known.uses += 1;
    if (known.uses > RESPONSE_URL_MAX_USES) return { status: 404, body: { ok: false, error: 'used_url' } };
    if (body.delete_original === true || body.delete_original === 'true')
      return { status: 200, body: { ok: true } };
    const refused = messageContentError(body);
    if (refused !== undefined) return { status: 400, body: refused };
    return { status: 200, body: { ok: true } };
  }
}

function dropOldest<K, V>(map: Map<K, V>, keep: number): void {
  for (const key of map.keys()) {
    if (map.size <= keep) return;
    map.delete(key);
  }
}

interface HeldCall {
  arrived: Promise<void>;
  released: Promise<void>;
  arrive(): void;
}

/** What `hold()` calls a request: the Web API method, 'response_url' or 'upload'. */
function heldName(req: IncomingMessage, url: URL): string | undefined {
  if (url.pathname.startsWith('/api/')) return decodeURIComponent(url.pathname.slice('/api/'.length));
  if (url.pathname.startsWith('/upload/v1/')) return 'upload';
  if (req.method === 'POST' && RESPONSE_URL_PATH.test(url.pathname)) return 'response_url';
  return undefined;
}

export async function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const fake = new FakeSlack(options);
  await fake.listen(options.port ?? 0);
  return fake;
}
