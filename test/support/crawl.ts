/**
 * Drives Vigil like a curious admin, through the real HTTP stack: runs slash commands, then clicks every
 * kind of button and overflow option it finds in whatever reached Slack (response_url posts, channel and
 * ephemeral messages, modals, App Home) and submits every modal with plausible values, until nothing new
 * appears. Each kind of element is clicked once per surface kind, so the crawl stays bounded; actions that
 * end the session (disconnect) wait for the end. What came back is for the caller to judge.
 */
import { randomBytes } from 'node:crypto';
import {
  DEFAULT_TEAM_ID,
  type RecordedCall,
  type ResponseUrlPost,
  SEEDED_CHANNELS,
  SEEDED_USERS,
} from '../../packages/playground/src/sim/slack/index.js';
import { interactionBody, newTriggerId, VERIFICATION_TOKEN } from '../harness/index.js';
import type { Stack } from './stack.js';

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

type SurfaceKind = 'ack' | 'response_url' | 'channel' | 'ephemeral' | 'view' | 'home';

export interface Surface {
  kind: SurfaceKind;
  blocks: unknown[];
  /** Where it came from, for failure messages. */
  origin: string;
  channelId?: string;
  ts?: string;
  view?: Json;
  viewId?: string;
}

interface Element {
  actionId: string;
  blockId: string | undefined;
  type: string;
  value: string | undefined;
  option?: { text: string; value: string };
}

export interface CrawlOptions {
  userId?: string;
  /** Plain text input values by block id (anything else gets its initial value or `sample`). */
  textInputs?: Record<string, string>;
  /** Most interactions per crawl (a guard against a loop; the crawl normally ends well before). */
  maxInteractions?: number;
}

export class Crawler {
  /** Every kind of element clicked or modal submitted, as `surface|action` keys. */
  readonly done = new Set<string>();
  /** Every interaction made, in order (commands, clicks, submissions), for coverage assertions. */
  readonly interactions: string[] = [];
  private readonly queue: Surface[] = [];
  private readonly deferred: (() => Promise<void>)[] = [];
  private callsSeen = 0;
  private postsSeen = 0;
  private readonly userId: string;

  constructor(
    private readonly stack: Stack,
    private readonly opts: CrawlOptions = {},
  ) {
    this.userId = opts.userId ?? SEEDED_USERS.admin;
  }

  /** Runs `/vigil <text>` and crawls everything it leads to. */
  async command(text: string): Promise<void> {
    this.interactions.push(`command ${text}`);
    const res = await this.stack.sender.slashCommand({
      text,
      userId: this.userId,
      responseUrl: this.stack.slack.responseUrl(),
      triggerId: newTriggerId(),
    });
    if (res.status !== 200) throw new Error(`/vigil ${text}: HTTP ${res.status}`);
    // The ack's message is what Slack shows at once: hand it to the fake Slack like any message, so it is
    // checked the same way, and crawl its buttons.
    if (isRecord(res.body) && (res.body.blocks !== undefined || res.body.text !== undefined)) {
      const url = this.stack.slack.responseUrl();
      await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(res.body),
      });
    }
    await this.crawl();
  }

  /** An Events API callback (App Home opened), then the crawl. */
  async homeOpened(): Promise<void> {
    this.interactions.push('event app_home_opened');
    await this.stack.sender.event({ type: 'app_home_opened', userId: this.userId });
    await this.crawl();
  }

  /** The message shortcut `callbackId` on a message carrying a file the user shared. */
  async messageShortcut(callbackId: string): Promise<void> {
    this.interactions.push(`shortcut ${callbackId}`);
    const file = this.sharedFile('shortcut.bin');
    const ts = `${Math.floor(Date.now() / 1000)}.000300`;
    const payload = {
      type: 'message_action',
      token: VERIFICATION_TOKEN,
      action_ts: `${Math.floor(Date.now() / 1000)}.000001`,
      team: { id: DEFAULT_TEAM_ID, domain: DEFAULT_TEAM_ID.toLowerCase() },
      user: {
        id: this.userId,
        username: this.userId.toLowerCase(),
        team_id: DEFAULT_TEAM_ID,
        name: this.userId,
      },
      channel: { id: SEEDED_CHANNELS.general, name: 'general' },
      is_enterprise_install: false,
      enterprise: null,
      callback_id: callbackId,
      trigger_id: newTriggerId(),
      response_url: this.stack.slack.responseUrl(),
      message_ts: ts,
      message: { type: 'message', ts, user: this.userId, text: 'have a look', files: [file] },
    };
    await this.stack.sender.send({
      body: interactionBody(payload),
      contentType: 'application/x-www-form-urlencoded',
    });
    await this.crawl();
  }

  /** Runs what was held back (disconnecting) and crawls what it shows. */
  async finish(): Promise<void> {
    while (this.deferred.length > 0) {
      const next = this.deferred.shift();
      await next?.();
      await this.crawl();
    }
  }

  /** Waits for Vigil's follow-up work, then works through every new surface until none is left. */
  async crawl(): Promise<void> {
    const max = this.opts.maxInteractions ?? 400;
    await this.settle();
    for (let surface = this.queue.shift(); surface; surface = this.queue.shift()) {
      for (const element of elementsOf(surface.blocks)) {
        if (this.interactions.length >= max) throw new Error(`crawl: more than ${max} interactions`);
        const key = `${surface.kind}|${normalise(element)}`;
        if (this.done.has(key)) continue;
        this.done.add(key);
        const click = () => this.click(surface, element);
        if (/disconnect/i.test(element.actionId)) this.deferred.push(click);
        else await click();
      }
      if (surface.view) await this.submit(surface);
    }
  }

  /** Every surface Vigil produced since the last look, in order. */
  private collect(): void {
    const calls = this.stack.slack.calls.slice(this.callsSeen);
    this.callsSeen += calls.length;
    for (const c of calls) {
      const s = surfaceOfCall(c);
      if (s) this.queue.push(s);
    }
    const posts = this.stack.slack.responseUrlPosts.slice(this.postsSeen);
    this.postsSeen += posts.length;
    for (const p of posts) {
      const s = surfaceOfPost(p);
      if (s) this.queue.push(s);
    }
  }

  private async settle(): Promise<void> {
    // Follow-ups may start more follow-ups (a post, then an update): wait until a pass finds nothing new.
    for (;;) {
      await this.stack.tracker.idle();
      await new Promise((resolve) => setImmediate(resolve));
      const before = this.stack.slack.calls.length + this.stack.slack.responseUrlPosts.length;
      await this.stack.tracker.idle();
      if (before === this.stack.slack.calls.length + this.stack.slack.responseUrlPosts.length) break;
    }
    this.collect();
  }

  private async click(surface: Surface, element: Element): Promise<void> {
    this.interactions.push(
      `click ${surface.kind} ${element.actionId}${element.option ? ` → ${element.option.value}` : ''}`,
    );
    const common = {
      actionId: element.actionId,
      userId: this.userId,
      triggerId: newTriggerId(),
      ...(element.blockId !== undefined ? { blockId: element.blockId } : {}),
      ...(element.value !== undefined ? { value: element.value } : {}),
      ...(element.option ? { selectedOption: element.option } : {}),
    };
    if (surface.kind === 'view' || surface.kind === 'home') {
      await this.stack.sender.blockAction({
        ...common,
        container: 'view',
        view: { ...(surface.view ?? {}), id: surface.viewId },
      });
    } else {
      const ephemeral = surface.kind !== 'channel';
      await this.stack.sender.blockAction({
        ...common,
        container: ephemeral ? 'ephemeral' : 'message',
        responseUrl: this.stack.slack.responseUrl(),
        channelId: surface.channelId ?? SEEDED_CHANNELS.general,
        ...(surface.ts !== undefined ? { messageTs: surface.ts } : {}),
        message: { ts: surface.ts ?? `${Math.floor(Date.now() / 1000)}.000100`, blocks: surface.blocks },
      });
    }
    await this.settle();
  }

  /** Submits a modal once per form (callback id and inputs), with plausible values. */
  private async submit(surface: Surface): Promise<void> {
    const view = surface.view;
    if (view?.type !== 'modal' || !isRecord(view.submit)) return;
    const inputs = surface.blocks.filter((b): b is Json => isRecord(b) && b.type === 'input');
    const key = `submit|${String(view.callback_id)}|${inputs.map((b) => String(b.block_id)).join(',')}`;
    if (this.done.has(key)) return;
    this.done.add(key);
    this.interactions.push(`submit ${String(view.callback_id)}`);
    const values: Json = {};
    for (const block of inputs) {
      const element = isRecord(block.element) ? block.element : {};
      const blockId = String(block.block_id);
      values[blockId] = { [String(element.action_id)]: this.inputValue(blockId, element) };
    }
    await this.stack.sender.viewSubmission({
      callbackId: String(view.callback_id),
      view,
      ...(surface.viewId !== undefined ? { viewId: surface.viewId } : {}),
      userId: this.userId,
      values,
    });
    await this.settle();
  }

  private inputValue(blockId: string, element: Json): Json {
    const type = String(element.type);
    const options = Array.isArray(element.options) ? element.options.filter(isRecord) : [];
    switch (type) {
      case 'plain_text_input':
        return {
          type,
          value:
            this.opts.textInputs?.[blockId] ??
            (typeof element.initial_value === 'string' ? element.initial_value : 'sample'),
        };
      case 'static_select':
      case 'radio_buttons':
        return { type, selected_option: element.initial_option ?? options[0] ?? null };
      case 'multi_static_select':
      case 'checkboxes':
        return { type, selected_options: element.initial_options ?? options.slice(0, 1) };
      case 'conversations_select':
        return { type, selected_conversation: element.initial_conversation ?? SEEDED_CHANNELS.general };
      case 'channels_select':
        return { type, selected_channel: element.initial_channel ?? SEEDED_CHANNELS.general };
      case 'users_select':
        return { type, selected_user: element.initial_user ?? SEEDED_USERS.member };
      case 'timepicker':
        return { type, selected_time: element.initial_time ?? '09:00' };
      case 'datepicker':
        return { type, selected_date: element.initial_date ?? '2026-11-01' };
      case 'number_input':
        return { type, value: element.initial_value ?? '10' };
      case 'file_input':
        return { type, files: [this.sharedFile('sample.exe')] };
      default:
        return { type, value: 'sample' };
    }
  }

  private sharedFile(filename: string): Json {
    return this.stack.slack.addFile({
      filename,
      bytes: randomBytes(2048),
      user: this.userId,
      mimetype: 'application/octet-stream',
    });
  }
}

function surfaceOfCall(c: RecordedCall): Surface | undefined {
  if (c.response.ok !== true) return undefined;
  const body = c.body;
  const blocks = Array.isArray(body.blocks) ? body.blocks : [];
  switch (c.method) {
    case 'chat.postMessage':
    case 'chat.update':
      return {
        kind: 'channel',
        blocks,
        origin: c.method,
        channelId: String(c.response.channel ?? body.channel),
        ts: String(c.response.ts ?? body.ts),
      };
    case 'chat.postEphemeral':
      return { kind: 'ephemeral', blocks, origin: c.method, channelId: String(body.channel) };
    case 'views.open':
    case 'views.push':
    case 'views.update':
    case 'views.publish': {
      const view = isRecord(body.view) ? body.view : {};
      const returned = isRecord(c.response.view) ? c.response.view : {};
      return {
        kind: c.method === 'views.publish' ? 'home' : 'view',
        blocks: Array.isArray(view.blocks) ? view.blocks : [],
        origin: c.method,
        view,
        viewId: String(returned.id ?? body.view_id ?? ''),
      };
    }
    default:
      return undefined;
  }
}

function surfaceOfPost(p: ResponseUrlPost): Surface | undefined {
  if (p.status >= 400) return undefined;
  const blocks = Array.isArray(p.body.blocks) ? p.body.blocks : [];
  if (blocks.length === 0) return undefined;
  return {
    kind: p.body.response_type === 'in_channel' ? 'channel' : 'response_url',
    blocks,
    origin: `response_url ${p.path}`,
  };
}

/** Buttons and overflow options with an action id, wherever they sit (actions, section accessories). */
function elementsOf(blocks: unknown[]): Element[] {
  const out: Element[] = [];
  const visit = (node: unknown, blockId: string | undefined) => {
    if (Array.isArray(node)) {
      for (const n of node) visit(n, blockId);
      return;
    }
    if (!isRecord(node)) return;
    if (node.type === 'input') return;
    const block = typeof node.block_id === 'string' && node.type !== 'button' ? node.block_id : blockId;
    if (typeof node.action_id === 'string') {
      if (node.type === 'button') {
        out.push({
          actionId: node.action_id,
          blockId: block,
          type: 'button',
          value: typeof node.value === 'string' ? node.value : undefined,
        });
        return;
      }
      if (node.type === 'overflow' && Array.isArray(node.options)) {
        for (const o of node.options.filter(isRecord)) {
          const text = isRecord(o.text) && typeof o.text.text === 'string' ? o.text.text : '';
          out.push({
            actionId: node.action_id,
            blockId: block,
            type: 'overflow',
            value: undefined,
            option: { text, value: String(o.value) },
          });
        }
        return;
      }
    }
    for (const v of Object.values(node)) visit(v, block);
  };
  visit(blocks, undefined);
  return out;
}

/** An element's kind, without the row numbers and ids that make every instance unique. */
function normalise(e: Element): string {
  const option = e.option ? `→${e.option.value.replace(/[:|].*$/, '')}` : '';
  return `${e.actionId.replace(/\d+/g, '#')}${option}`;
}
