/**
 * Work Objects in the playground: a message the person writes in a channel is posted as theirs, and each
 * link in it is sent to Vigil as Slack sends it (`link_shared`); the cards Vigil unfurls it to
 * (`chat.unfurl`) appear under the message. Clicking a card sends `entity_details_requested` for this
 * person, and the side panel Vigil presents (`entity.presentDetails`) opens beside the conversation; its
 * buttons are clicks with an `entity_detail` container, as in Slack. Everything goes the signed Slack path.
 */
import type { FakeSlack, RecordedCall } from '../sim/slack/index.js';
import type { Timeline } from './conversations.js';
import type { Json } from './render/blocks.js';
import { isRecord } from './render/elements.js';
import type { Actor, SlackSide } from './slack-side.js';

type Outcome = { ok: true } | { ok: false; message: string };

/** Links of one message sent to Vigil: Slack sends a handful at most. */
const MAX_LINKS = 5;
const LINK = /https?:\/\/[^\s<>"]+/g;
/** Panel requests awaiting Vigil's answer. */
const MAX_PENDING = 50;

/** The side panel as Vigil presented it: an entity, or the error saying why there is none. */
interface Panel {
  entity: Json | undefined;
  error: Json | undefined;
  /** Where the card was opened from, for the panel's buttons. */
  channelId: string;
  ts: string;
}

interface PlaygroundWorkObjectsOptions {
  slack: FakeSlack;
  side: SlackSide;
  actor: Actor;
  timeline: Timeline;
  botUserId: string;
}

export class PlaygroundWorkObjects {
  panel: Panel | undefined;
  /** The version of the last change to the panel. */
  panelRev = 0;
  /** Unfurl id → the message entry whose links it unfurls. */
  private readonly unfurlIds = new Map<string, string>();
  /** Triggers of this person's panel requests → where the card was opened from. */
  private readonly asked = new Map<string, { channelId: string; ts: string }>();
  private readonly stopFollowing: () => void;

  constructor(private readonly o: PlaygroundWorkObjectsOptions) {
    this.stopFollowing = o.slack.observe({ call: (call) => this.onCall(call), post: () => undefined });
  }

  /** Posts what the person wrote in a channel as their message; its links go to Vigil as `link_shared`. */
  async share(conversationId: string, text: string): Promise<Outcome> {
    const { slack, actor, timeline } = this.o;
    const m = slack.addMessage({ channel: conversationId, text, user: actor.userId, bot_id: undefined });
    const entry = timeline.add(conversationId, {
      id: `u${m.ts}`,
      ts: m.ts,
      kind: 'message',
      text,
      blocks: undefined,
    });
    const links = [...new Set(text.match(LINK) ?? [])].slice(0, MAX_LINKS);
    if (!entry || links.length === 0) return { ok: true };
    const unfurlId = `${conversationId}.${m.ts}`;
    this.unfurlIds.set(unfurlId, entry.id);
    const answer = await this.o.side.event(actor, this.o.botUserId, {
      type: 'link_shared',
      channel: conversationId,
      is_bot_user_member: true,
      user: actor.userId,
      message_ts: m.ts,
      unfurl_id: unfurlId,
      source: 'conversations_history',
      links: links.map((url) => ({ domain: hostOf(url), url })),
    });
    return answer.status === 200
      ? { ok: true }
      : { ok: false, message: `Vigil answered HTTP ${answer.status}.` };
  }

  /** A click on a card: asks Vigil for this person's side panel of that entity. */
  async open(entryId: string, index: number): Promise<Outcome> {
    const found = this.o.timeline.get(entryId);
    const entity = found?.entry.entities?.[index];
    if (!found || !isRecord(entity)) return { ok: false, message: 'That card is gone.' };
    const triggerId = this.o.slack.triggerId();
    const at = { channelId: found.conversation.id, ts: found.entry.ts };
    this.ask(triggerId, at);
    const url = typeof entity.app_unfurl_url === 'string' ? entity.app_unfurl_url : String(entity.url ?? '');
    const answer = await this.o.side.event(this.o.actor, this.o.botUserId, {
      type: 'entity_details_requested',
      user: this.o.actor.userId,
      trigger_id: triggerId,
      link: { url, domain: hostOf(url) },
      entity_url: entity.url,
      app_unfurl_url: url,
      user_locale: 'en-US',
      external_ref: entity.external_ref,
      channel: at.channelId,
      message_ts: at.ts,
    });
    return answer.status === 200
      ? { ok: true }
      : { ok: false, message: `Vigil answered HTTP ${answer.status}.` };
  }

  /** A button of the side panel, sent as Slack sends one; Vigil presents the panel again. */
  async act(actionId: string, value: string): Promise<Outcome> {
    const panel = this.panel;
    if (!panel?.entity) return { ok: false, message: 'No side panel is open.' };
    const triggerId = this.o.slack.triggerId();
    this.ask(triggerId, { channelId: panel.channelId, ts: panel.ts });
    const answer = await this.o.side.blockAction(this.o.actor, {
      action: {
        type: 'button',
        action_id: actionId,
        block_id: 'entity',
        value,
        text: { type: 'plain_text', text: actionId },
      },
      triggerId,
      container: { kind: 'entity', channelId: panel.channelId, ts: panel.ts, entity: panel.entity },
    });
    return answer.status === 200
      ? { ok: true }
      : { ok: false, message: `Vigil answered HTTP ${answer.status}.` };
  }

  close(): void {
    this.panel = undefined;
    this.panelRev = this.o.timeline.bump();
  }

  stop(): void {
    this.stopFollowing();
  }

  /** Remembers a pending panel request; a request Vigil never answers is forgotten after a while. */
  private ask(triggerId: string, at: { channelId: string; ts: string }): void {
    this.asked.set(triggerId, at);
    for (const key of this.asked.keys()) {
      if (this.asked.size <= MAX_PENDING) break;
      this.asked.delete(key);
    }
  }

  private onCall(call: RecordedCall): void {
    if (call.response.ok !== true) return;
    const { body } = call;
    if (call.method === 'chat.unfurl') {
      const entryId =
        typeof body.unfurl_id === 'string' ? this.unfurlIds.get(body.unfurl_id) : `u${String(body.ts ?? '')}`;
      const found = entryId === undefined ? undefined : this.o.timeline.get(entryId);
      const metadata = parsed(body.metadata);
      const entities = Array.isArray(metadata?.entities) ? metadata.entities.filter(isRecord) : [];
      if (found && entities.length > 0) this.o.timeline.update(found.entry, { entities });
      return;
    }
    if (call.method === 'entity.presentDetails') {
      const at = this.asked.get(String(body.trigger_id ?? ''));
      if (!at) return;
      this.asked.delete(String(body.trigger_id));
      this.panel = { entity: parsed(body.metadata), error: parsed(body.error), ...at };
      this.panelRev = this.o.timeline.bump();
    }
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

/** A Web API argument that may arrive as a JSON string (form-encoded calls) or as an object. */
function parsed(value: unknown): Json | undefined {
  if (isRecord(value)) return value;
  if (typeof value !== 'string') return undefined;
  try {
    const v: unknown = JSON.parse(value);
    return isRecord(v) ? v : undefined;
  } catch {
    return undefined;
  }
}
