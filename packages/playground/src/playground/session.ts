/**
 * The playground's view of one person, built from what Vigil sends to the fake Slack as it arrives:
 * channel and DM messages (chat.postMessage/update/delete), files shared in the DM, ephemeral replies
 * (slash-command acks, response_url posts, chat.postEphemeral), modals (views.open/push/update) and the App
 * Home (views.publish). Every request to Vigil goes through the signed Slack path (`SlackSide`).
 */
import type { FakeSlack, RecordedCall, ResponseUrlPost } from '../sim/slack/index.js';
import { type Conversation, type Entry, type SharedFile, Timeline } from './conversations.js';
import { actionFor, type ElementInput, stateValuesFor } from './inputs.js';
import type { Json } from './render/blocks.js';
import { isRecord } from './render/elements.js';
import type { Actor, SlackAnswer, SlackSide } from './slack-side.js';

export type { Conversation, Entry } from './conversations.js';

export interface SessionOptions {
  slack: FakeSlack;
  side: SlackSide;
  actor: Actor;
  /** The conversations the page lists; the first is where the welcome message goes. */
  conversations: Omit<Conversation, 'entries' | 'orderRev' | 'unread'>[];
  botUserId: string;
  nowMs: () => number;
  welcome: { text: string; blocks: unknown[] };
  /** Entries kept per conversation (default 150). */
  maxEntries?: number;
}

export type Outcome = { ok: true } | { ok: false; message: string };

const RESPONSE_PATH_PREFIX = /^https?:\/\/[^/]+/;
/** Response URLs this session follows; older ones (30 minutes is their life at Slack) are forgotten. */
const MAX_TARGETS = 500;

interface Target {
  conversationId: string;
  /** The entry a reply replaces; undefined until the command's first reply. */
  entryId: string | undefined;
}

export class PlaygroundSession {
  readonly timeline: Timeline;
  /** Open modals, top last. */
  readonly modals: string[] = [];
  /** Validation errors Vigil answered for a view, by view id then block id. */
  readonly viewErrors = new Map<string, Record<string, string>>();
  /** Versions of the last change to the modal stack and to the App Home. */
  modalRev = 0;
  homeRev = 0;
  private readonly targets = new Map<string, Target>();
  private readonly stopFollowing: () => void;

  constructor(private readonly o: SessionOptions) {
    this.timeline = new Timeline({ maxEntries: o.maxEntries ?? 150, nowMs: o.nowMs });
    for (const c of o.conversations) this.timeline.addConversation(c);
    const first = o.conversations[0]?.id ?? '';
    this.timeline.add(first, { kind: 'welcome', text: o.welcome.text, blocks: o.welcome.blocks });
    this.stopFollowing = o.slack.observe({
      call: (call) => this.onCall(call),
      post: (post) => this.onPost(post),
    });
  }

  get version(): number {
    return this.timeline.version;
  }

  conversation(id: string): Conversation | undefined {
    return this.timeline.conversations.get(id);
  }

  /**
   * `/vigil <text>` from a conversation's composer: `text` as Slack sends it (escaped, channel mentions),
   * `typed` as the person typed it, for the echo.
   */
  async command(conversationId: string, text: string, typed = text): Promise<Outcome> {
    const c = this.conversation(conversationId);
    if (!c) return { ok: false, message: 'That conversation is not in the playground.' };
    this.timeline.add(c.id, { kind: 'command', text: `/vigil ${typed}`, blocks: undefined });
    const responseUrl = this.o.slack.responseUrl();
    const path = responseUrl.replace(RESPONSE_PATH_PREFIX, '');
    this.follow(path, { conversationId: c.id, entryId: undefined });
    const answer = await this.o.side.slashCommand(this.o.actor, {
      text,
      channelId: c.id,
      channelName: c.kind === 'im' ? 'directmessage' : c.name,
      responseUrl,
      triggerId: this.o.slack.triggerId(),
    });
    if (answer.status !== 200) return this.failed(c.id, answer);
    const body = answer.body;
    const target = this.targets.get(path);
    // A reply that came through the response_url before the ack supersedes the ack's placeholder.
    if (
      body &&
      target?.entryId === undefined &&
      (typeof body.text === 'string' || Array.isArray(body.blocks))
    ) {
      if (body.response_type === 'in_channel') this.postInChannel(c.id, body);
      else {
        const entry = this.timeline.add(c.id, {
          kind: 'ephemeral',
          text: String(body.text ?? ''),
          blocks: blocksOf(body),
        });
        if (target && entry) target.entryId = entry.id;
      }
    }
    return { ok: true };
  }

  /** A button click or a selection in a message. */
  async messageAction(entryId: string, input: ElementInput): Promise<Outcome> {
    const found = this.timeline.get(entryId);
    if (!found || (found.entry.kind !== 'channel' && found.entry.kind !== 'ephemeral')) {
      return { ok: false, message: 'That message is gone.' };
    }
    const { entry, conversation: c } = found;
    const action = actionFor(entry.blocks, input);
    if (!action) return { ok: false, message: 'That button is no longer in the message.' };
    const responseUrl = this.o.slack.responseUrl();
    this.follow(responseUrl.replace(RESPONSE_PATH_PREFIX, ''), { conversationId: c.id, entryId: entry.id });
    const ephemeral = entry.kind === 'ephemeral';
    const answer = await this.o.side.blockAction(this.o.actor, {
      action,
      triggerId: this.o.slack.triggerId(),
      container: {
        kind: 'message',
        channelId: c.id,
        channelName: c.kind === 'im' ? 'directmessage' : c.name,
        ts: entry.ts,
        ephemeral,
        message: ephemeral ? undefined : this.messageJson(entry),
        responseUrl,
      },
    });
    return answer.status === 200 ? { ok: true } : this.failed(c.id, answer);
  }

  /** A click or selection inside a modal or the App Home. */
  async viewAction(viewId: string, input: ElementInput, inputs: ElementInput[]): Promise<Outcome> {
    const stored = this.o.slack.views.get(viewId);
    if (!stored) return { ok: false, message: 'That view is gone.' };
    const action = actionFor(stored.view.blocks, input);
    if (!action) return { ok: false, message: 'That control is no longer in the view.' };
    const answer = await this.o.side.blockAction(this.o.actor, {
      action,
      triggerId: this.o.slack.triggerId(),
      container: {
        kind: 'view',
        view: this.viewJson(viewId),
        stateValues: stateValuesFor(stored.view.blocks, inputs, (id) => this.fileJson(id)),
      },
    });
    return answer.status === 200 ? { ok: true } : this.failed(undefined, answer);
  }

  /** The top modal's submit button. */
  async submit(viewId: string, inputs: ElementInput[]): Promise<Outcome> {
    const stored = this.o.slack.views.get(viewId);
    if (!stored) return { ok: false, message: 'That form is gone.' };
    const answer = await this.o.side.viewSubmission(
      this.o.actor,
      this.viewJson(viewId),
      stateValuesFor(stored.view.blocks, inputs, (id) => this.fileJson(id)),
      this.o.slack.triggerId(),
    );
    if (answer.status !== 200) return this.failed(undefined, answer);
    const body = answer.body ?? {};
    this.viewErrors.delete(viewId);
    if (body.response_action === 'errors' && isRecord(body.errors)) {
      const errors: Record<string, string> = {};
      for (const [k, v] of Object.entries(body.errors)) errors[k] = String(v);
      this.viewErrors.set(viewId, errors);
    } else if (
      (body.response_action === 'update' || body.response_action === 'push') &&
      isRecord(body.view)
    ) {
      stored.view = body.view;
    } else if (body.response_action === 'clear') {
      this.modals.length = 0;
    } else {
      this.closeTop(viewId);
    }
    this.modalRev = this.timeline.bump();
    return { ok: true };
  }

  /** The modal's close button: Slack tells the app only when the view asked for it. */
  async close(viewId: string): Promise<Outcome> {
    const stored = this.o.slack.views.get(viewId);
    this.closeTop(viewId);
    this.modalRev = this.timeline.bump();
    if (stored?.view.notify_on_close === true) {
      const answer = await this.o.side.viewClosed(this.o.actor, this.viewJson(viewId));
      if (answer.status !== 200) return this.failed(undefined, answer);
    }
    return { ok: true };
  }

  /** Opening the App Home tab sends app_home_opened, as Slack does. */
  async openHome(): Promise<Outcome> {
    const answer = await this.o.side.appHomeOpened(this.o.actor, this.o.botUserId);
    return answer.status === 200 ? { ok: true } : this.failed(undefined, answer);
  }

  homeViewId(): string | undefined {
    return this.o.slack.homeView(this.o.actor.userId, this.o.actor.teamId)?.id;
  }

  /** A line from the playground itself (not from Vigil) in a conversation, the first one by default. */
  note(message: string, conversationId?: string): void {
    const id = conversationId ?? this.o.conversations[0]?.id ?? '';
    this.timeline.add(id, { kind: 'note', text: message, blocks: undefined });
  }

  stop(): void {
    this.stopFollowing();
  }

  private follow(path: string, target: Target): void {
    this.targets.set(path, target);
    for (const key of this.targets.keys()) {
      if (this.targets.size <= MAX_TARGETS) break;
      this.targets.delete(key);
    }
  }

  private onPost(post: ResponseUrlPost): void {
    const target = this.targets.get(post.path);
    if (!target) return;
    if (post.status !== 200) {
      this.note(
        `Slack refused a reply from Vigil: ${String(post.response.error ?? post.status)}`,
        target.conversationId,
      );
      return;
    }
    this.applyResponse(target, post.body);
  }

  private onCall(call: RecordedCall): void {
    if (call.response.ok !== true) return;
    const { body, response } = call;
    switch (call.method) {
      case 'chat.postEphemeral':
        if (body.user === this.o.actor.userId) {
          this.timeline.add(String(body.channel), {
            kind: 'ephemeral',
            text: String(body.text ?? ''),
            blocks: blocksOf(body),
          });
        }
        return;
      case 'chat.postMessage': {
        const message = isRecord(response.message) ? response.message : {};
        this.timeline.add(String(response.channel), {
          id: `m${String(response.ts)}`,
          ts: String(response.ts),
          kind: 'channel',
          text: String(message.text ?? ''),
          blocks: blocksOf(message),
          ...(typeof body.thread_ts === 'string' ? { thread: body.thread_ts } : {}),
        });
        return;
      }
      case 'chat.update': {
        const found = this.timeline.get(`m${String(response.ts)}`);
        const message = isRecord(response.message) ? response.message : {};
        if (found) {
          this.timeline.update(found.entry, {
            text: String(message.text ?? ''),
            blocks: blocksOf(message),
            edited: true,
          });
        }
        return;
      }
      case 'chat.delete':
        this.timeline.remove(`m${String(response.ts)}`);
        return;
      case 'files.completeUploadExternal':
        for (const f of Array.isArray(response.files) ? response.files.filter(isRecord) : []) {
          this.timeline.add(String(body.channel_id), {
            kind: 'file',
            text: typeof body.initial_comment === 'string' ? body.initial_comment : '',
            blocks: undefined,
            file: sharedFile(f),
          });
        }
        return;
      case 'views.open':
      case 'views.push': {
        const view = response.view;
        if (isRecord(view) && typeof view.id === 'string') {
          this.modals.push(view.id);
          this.modalRev = this.timeline.bump();
        }
        return;
      }
      case 'views.update':
        this.modalRev = this.timeline.bump();
        return;
      case 'views.publish':
        if (body.user_id === this.o.actor.userId) this.homeRev = this.timeline.bump();
        return;
      default:
        return;
    }
  }

  private applyResponse(target: Target, body: Json): void {
    const found = target.entryId === undefined ? undefined : this.timeline.get(target.entryId);
    if (body.delete_original === true || body.delete_original === 'true') {
      if (found) this.timeline.remove(found.entry.id);
      return;
    }
    const replace = body.replace_original === true || body.replace_original === 'true';
    if (replace && found) {
      this.timeline.update(found.entry, { text: String(body.text ?? ''), blocks: blocksOf(body) });
      if (found.entry.kind === 'channel') this.updateChannelMessage(found.conversation.id, found.entry);
      return;
    }
    if (body.response_type === 'in_channel') {
      this.postInChannel(target.conversationId, body);
      return;
    }
    const entry = this.timeline.add(target.conversationId, {
      kind: 'ephemeral',
      text: String(body.text ?? ''),
      blocks: blocksOf(body),
    });
    if (target.entryId === undefined && entry) target.entryId = entry.id;
  }

  private updateChannelMessage(channelId: string, entry: Entry): void {
    const stored = this.o.slack.messages(channelId).find((m) => m.ts === entry.ts);
    if (!stored) return;
    stored.text = entry.text;
    stored.blocks = entry.blocks;
    stored.edited = { user: this.o.botUserId, ts: entry.ts };
    this.timeline.update(entry, { edited: true });
  }

  /** A response_url reply `in_channel`: Slack posts it as the app; so does the fake. */
  private postInChannel(channelId: string, body: Json): void {
    const m = this.o.slack.addMessage({
      channel: channelId,
      text: String(body.text ?? ''),
      blocks: blocksOf(body),
    });
    this.timeline.add(channelId, {
      id: `m${m.ts}`,
      ts: m.ts,
      kind: 'channel',
      text: m.text,
      blocks: m.blocks,
    });
  }

  private closeTop(viewId: string): void {
    const i = this.modals.lastIndexOf(viewId);
    if (i >= 0) this.modals.splice(i, 1);
    this.viewErrors.delete(viewId);
  }

  private failed(conversationId: string | undefined, answer: SlackAnswer): Outcome {
    const message = `Vigil answered HTTP ${answer.status}; the details are in Vigil's log.`;
    this.note(message, conversationId);
    return { ok: false, message };
  }

  private fileJson(id: string): Json | undefined {
    const f = this.o.slack.files.get(id);
    if (!f) return undefined;
    return {
      id: f.fileId,
      name: f.filename,
      title: f.title ?? f.filename,
      mimetype: f.mimetype ?? 'application/octet-stream',
      size: f.bytes?.length ?? 0,
    };
  }

  private messageJson(entry: Entry): Json {
    return {
      type: 'message',
      user: this.o.botUserId,
      ts: entry.ts,
      app_id: this.o.actor.appId,
      text: entry.text,
      team: this.o.actor.teamId,
      blocks: entry.blocks ?? [],
    };
  }

  private viewJson(viewId: string): Json {
    const stored = this.o.slack.views.get(viewId);
    const v = stored?.view ?? {};
    return {
      id: viewId,
      team_id: this.o.actor.teamId,
      type: v.type ?? 'modal',
      blocks: v.blocks ?? [],
      private_metadata: v.private_metadata ?? '',
      callback_id: v.callback_id ?? '',
      hash: stored?.hash ?? '',
      title: v.title ?? { type: 'plain_text', text: 'Vigil' },
      clear_on_close: v.clear_on_close ?? false,
      notify_on_close: v.notify_on_close ?? false,
      close: v.close ?? null,
      submit: v.submit ?? null,
      previous_view_id: null,
      root_view_id: viewId,
      app_id: this.o.actor.appId,
      external_id: v.external_id ?? '',
      app_installed_team_id: this.o.actor.teamId,
    };
  }
}

function blocksOf(body: Json): unknown[] | undefined {
  return Array.isArray(body.blocks) ? body.blocks : undefined;
}

function sharedFile(f: Json): SharedFile {
  const s = (v: unknown, fallback = '') => (typeof v === 'string' ? v : fallback);
  return {
    id: s(f.id),
    name: s(f.name, 'file'),
    title: s(f.title, s(f.name, 'file')),
    size: typeof f.size === 'number' ? f.size : 0,
    mimetype: s(f.mimetype, 'application/octet-stream'),
  };
}
