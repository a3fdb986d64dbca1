/**
 * The playground's view of one person in one channel, built from what Vigil sent to the fake Slack: channel
 * messages (chat.postMessage/update/delete), ephemeral replies (slash-command acks, response_url posts,
 * chat.postEphemeral), modals (views.open/push/update) and the App Home (views.publish). Every request to
 * Vigil goes through the signed Slack path (`SlackSide`).
 */
import type { FakeSlack, StoredMessage } from '../sim/slack/index.js';
import { actionFor, type ElementInput, stateValuesFor } from './inputs.js';
import type { Json } from './render/blocks.js';
import { isRecord } from './render/elements.js';
import type { Actor, SlackAnswer, SlackSide } from './slack-side.js';

export type EntryKind = 'channel' | 'ephemeral' | 'command' | 'note' | 'welcome';

export interface Entry {
  id: string;
  kind: EntryKind;
  /** Slack ts: the channel message's, or one made up for an ephemeral message (Slack does the same). */
  ts: string;
  text: string;
  blocks: unknown[] | undefined;
  edited: boolean;
}

export interface SessionOptions {
  slack: FakeSlack;
  side: SlackSide;
  actor: Actor;
  channel: { id: string; name: string };
  botUserId: string;
  nowMs: () => number;
  welcome: { text: string; blocks: unknown[] };
}

export type Outcome = { ok: true } | { ok: false; message: string };

const RESPONSE_PATH_PREFIX = /^https?:\/\/[^/]+/;

export class PlaygroundSession {
  readonly entries: Entry[] = [];
  /** Open modals, top last. */
  readonly modals: string[] = [];
  /** Validation errors Vigil answered for a view, by view id then block id. */
  readonly viewErrors = new Map<string, Record<string, string>>();
  /** response_url path → the entry it replaces (undefined until the command's first reply). */
  private readonly targets = new Map<string, string | undefined>();
  /** Channel messages removed through a response_url (`delete_original`). */
  private readonly deleted = new Set<string>();
  private seq = 0;
  private postsSeen = 0;
  private callsSeen = 0;

  constructor(private readonly o: SessionOptions) {
    this.push('welcome', o.welcome.text, o.welcome.blocks);
  }

  /** `/vigil <text>` typed in the composer. */
  async command(text: string): Promise<Outcome> {
    this.push('command', `/vigil ${text}`, undefined);
    const responseUrl = this.o.slack.responseUrl();
    const path = responseUrl.replace(RESPONSE_PATH_PREFIX, '');
    this.targets.set(path, undefined);
    const answer = await this.o.side.slashCommand(this.o.actor, {
      text,
      channelId: this.o.channel.id,
      channelName: this.o.channel.name,
      responseUrl,
      triggerId: this.o.slack.triggerId(),
    });
    if (answer.status !== 200) return this.failed(answer);
    const body = answer.body;
    if (body && (typeof body.text === 'string' || Array.isArray(body.blocks))) {
      if (body.response_type === 'in_channel') this.postInChannel(body);
      else this.targets.set(path, this.push('ephemeral', String(body.text ?? ''), blocksOf(body)).id);
    }
    this.sync();
    return { ok: true };
  }

  /** A button click or a selection in a message of the timeline. */
  async messageAction(entryId: string, input: ElementInput): Promise<Outcome> {
    this.sync();
    const entry = this.entries.find((e) => e.id === entryId);
    if (!entry || (entry.kind !== 'channel' && entry.kind !== 'ephemeral')) {
      return { ok: false, message: 'That message is gone.' };
    }
    const action = actionFor(entry.blocks, input);
    if (!action) return { ok: false, message: 'That button is no longer in the message.' };
    const responseUrl = this.o.slack.responseUrl();
    this.targets.set(responseUrl.replace(RESPONSE_PATH_PREFIX, ''), entry.id);
    const ephemeral = entry.kind === 'ephemeral';
    const answer = await this.o.side.blockAction(this.o.actor, {
      action,
      triggerId: this.o.slack.triggerId(),
      container: {
        kind: 'message',
        channelId: this.o.channel.id,
        channelName: this.o.channel.name,
        ts: entry.ts,
        ephemeral,
        message: ephemeral ? undefined : this.messageJson(entry),
        responseUrl,
      },
    });
    this.sync();
    return answer.status === 200 ? { ok: true } : this.failed(answer);
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
        stateValues: stateValuesFor(stored.view.blocks, inputs),
      },
    });
    this.sync();
    return answer.status === 200 ? { ok: true } : this.failed(answer);
  }

  /** The top modal's submit button. */
  async submit(viewId: string, inputs: ElementInput[]): Promise<Outcome> {
    const stored = this.o.slack.views.get(viewId);
    if (!stored) return { ok: false, message: 'That form is gone.' };
    const answer = await this.o.side.viewSubmission(
      this.o.actor,
      this.viewJson(viewId),
      stateValuesFor(stored.view.blocks, inputs),
      this.o.slack.triggerId(),
    );
    if (answer.status !== 200) return this.failed(answer);
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
    this.sync();
    return { ok: true };
  }

  /** The modal's close button: Slack tells the app only when the view asked for it. */
  async close(viewId: string): Promise<Outcome> {
    const stored = this.o.slack.views.get(viewId);
    this.closeTop(viewId);
    if (stored?.view.notify_on_close === true) {
      const answer = await this.o.side.viewClosed(this.o.actor, this.viewJson(viewId));
      if (answer.status !== 200) return this.failed(answer);
    }
    return { ok: true };
  }

  /** Opening the App Home tab sends app_home_opened, as Slack does. */
  async openHome(): Promise<Outcome> {
    const answer = await this.o.side.appHomeOpened(this.o.actor, this.o.botUserId);
    this.sync();
    return answer.status === 200 ? { ok: true } : this.failed(answer);
  }

  homeViewId(): string | undefined {
    return this.o.slack.homeView(this.o.actor.userId, this.o.actor.teamId)?.id;
  }

  note(message: string): void {
    this.push('note', message, undefined);
  }

  /** Takes in what Vigil sent to the fake Slack since the last call. */
  sync(): void {
    const { slack, channel, actor } = this.o;
    const posts = slack.responseUrlPosts;
    for (; this.postsSeen < posts.length; this.postsSeen++) {
      const post = posts[this.postsSeen];
      if (!post || !this.targets.has(post.path)) continue;
      if (post.status !== 200) {
        this.note(`Slack refused a reply from Vigil: ${String(post.response.error ?? post.status)}`);
        continue;
      }
      this.applyResponse(post.path, post.body);
    }
    const calls = slack.calls;
    for (; this.callsSeen < calls.length; this.callsSeen++) {
      const call = calls[this.callsSeen];
      if (call?.response.ok !== true) continue;
      if (
        call.method === 'chat.postEphemeral' &&
        call.body.channel === channel.id &&
        call.body.user === actor.userId
      ) {
        this.push('ephemeral', String(call.body.text ?? ''), blocksOf(call.body));
      } else if (call.method === 'views.open' || call.method === 'views.push') {
        const view = call.response.view;
        if (isRecord(view) && typeof view.id === 'string') this.modals.push(view.id);
      }
    }
    this.syncChannel(slack.messages(channel.id));
  }

  private syncChannel(messages: StoredMessage[]): void {
    const shown = messages.filter((m) => !this.deleted.has(m.ts));
    const present = new Set(shown.map((m) => m.ts));
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i];
      if (e?.kind === 'channel' && !present.has(e.ts)) this.entries.splice(i, 1);
    }
    for (const m of shown) {
      const existing = this.entries.find((e) => e.kind === 'channel' && e.ts === m.ts);
      if (existing) {
        existing.text = m.text;
        existing.blocks = m.blocks;
        existing.edited = m.edited !== undefined;
      } else {
        this.entries.push({
          id: `m${m.ts}`,
          kind: 'channel',
          ts: m.ts,
          text: m.text,
          blocks: m.blocks,
          edited: false,
        });
      }
    }
  }

  private applyResponse(path: string, body: Json): void {
    const targetId = this.targets.get(path);
    const target = this.entries.find((e) => e.id === targetId);
    if (body.delete_original === true || body.delete_original === 'true') {
      if (target?.kind === 'channel') this.deleted.add(target.ts);
      const i = this.entries.findIndex((e) => e.id === targetId);
      if (i >= 0) this.entries.splice(i, 1);
      return;
    }
    const replace = body.replace_original === true || body.replace_original === 'true';
    if (replace && target) {
      target.text = String(body.text ?? '');
      target.blocks = blocksOf(body);
      if (target.kind === 'channel') this.updateChannelMessage(target);
      return;
    }
    if (body.response_type === 'in_channel') {
      this.postInChannel(body);
      return;
    }
    const entry = this.push('ephemeral', String(body.text ?? ''), blocksOf(body));
    if (target === undefined) this.targets.set(path, entry.id);
  }

  private updateChannelMessage(entry: Entry): void {
    const stored = this.o.slack.messages(this.o.channel.id).find((m) => m.ts === entry.ts);
    if (!stored) return;
    stored.text = entry.text;
    stored.blocks = entry.blocks;
    stored.edited = { user: this.o.botUserId, ts: entry.ts };
  }

  private postInChannel(body: Json): void {
    this.o.slack.addMessage({
      channel: this.o.channel.id,
      text: String(body.text ?? ''),
      blocks: blocksOf(body),
    });
  }

  private closeTop(viewId: string): void {
    const i = this.modals.lastIndexOf(viewId);
    if (i >= 0) this.modals.splice(i, 1);
    this.viewErrors.delete(viewId);
  }

  private push(kind: EntryKind, text: string, blocks: unknown[] | undefined): Entry {
    this.seq += 1;
    const ts = `${Math.floor(this.o.nowMs() / 1000)}.${String(this.seq).padStart(6, '0')}`;
    const entry: Entry = { id: `e${this.seq}`, kind, ts, text, blocks, edited: false };
    this.entries.push(entry);
    return entry;
  }

  private failed(answer: SlackAnswer): Outcome {
    const message = `Vigil answered HTTP ${answer.status}; the details are in Vigil's log.`;
    this.note(message);
    return { ok: false, message };
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
