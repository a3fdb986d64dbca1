/**
 * Request bodies exactly as Slack sends them: slash commands (form fields), interactions (form field `payload`
 * holding JSON) and the Events API (JSON envelope). Defaults match the fake Slack's seeded workspace.
 */
import { randomBytes } from 'node:crypto';
import {
  DEFAULT_APP_ID,
  DEFAULT_BOT_USER_ID,
  DEFAULT_TEAM_ID,
  SEEDED_CHANNELS,
  SEEDED_USERS,
} from '../../packages/playground/src/sim/slack/index.js';
import { type Button, buttons } from './block-kit.js';

export type Json = Record<string, unknown>;

/** The legacy verification token Slack still includes in payloads; Vigil must not rely on it. */
export const VERIFICATION_TOKEN = 'xyzz0WbapA4vBCDEFasx0q6G';

interface Actor {
  teamId?: string;
  teamDomain?: string;
  enterpriseId?: string;
  enterpriseName?: string;
  isEnterpriseInstall?: boolean;
  userId?: string;
  userName?: string;
}

/** A trigger_id in Slack's shape (`<digits>.<digits>.<hex>`). */
export function newTriggerId(): string {
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join('');
  return `${digits(12)}.${digits(11)}.${randomBytes(16).toString('hex')}`;
}

function actor(a: Actor) {
  const teamId = a.teamId ?? DEFAULT_TEAM_ID;
  const userId = a.userId ?? SEEDED_USERS.member;
  return {
    teamId,
    teamDomain: a.teamDomain ?? teamId.toLowerCase(),
    enterpriseId: a.enterpriseId,
    enterpriseName: a.enterpriseName ?? (a.enterpriseId !== undefined ? `Org ${a.enterpriseId}` : undefined),
    isEnterpriseInstall: a.isEnterpriseInstall ?? false,
    userId,
    userName: a.userName ?? userId.toLowerCase(),
  };
}

function teamObject(a: ReturnType<typeof actor>): Json {
  return {
    id: a.teamId,
    domain: a.teamDomain,
    ...(a.enterpriseId !== undefined
      ? { enterprise_id: a.enterpriseId, enterprise_name: a.enterpriseName }
      : {}),
  };
}

function userObject(a: ReturnType<typeof actor>): Json {
  return { id: a.userId, username: a.userName, name: a.userName, team_id: a.teamId };
}

function enterpriseObject(a: ReturnType<typeof actor>): Json | null {
  return a.enterpriseId !== undefined ? { id: a.enterpriseId, name: a.enterpriseName } : null;
}

// ── Slash commands ──────────────────────────────────────────────────────────────────────────────

export interface SlashCommandInput extends Actor {
  text: string;
  responseUrl: string;
  command?: string;
  channelId?: string;
  channelName?: string;
  triggerId?: string;
  apiAppId?: string;
  token?: string;
}

/** The form-encoded body of a slash command, fields in Slack's order. */
export function slashCommandBody(input: SlashCommandInput): string {
  const a = actor(input);
  const fields: [string, string][] = [
    ['token', input.token ?? VERIFICATION_TOKEN],
    ['team_id', a.teamId],
    ['team_domain', a.teamDomain],
  ];
  if (a.enterpriseId !== undefined) {
    fields.push(['enterprise_id', a.enterpriseId], ['enterprise_name', a.enterpriseName ?? '']);
  }
  fields.push(
    ['channel_id', input.channelId ?? SEEDED_CHANNELS.general],
    ['channel_name', input.channelName ?? 'general'],
    ['user_id', a.userId],
    ['user_name', a.userName],
    ['command', input.command ?? '/vigil'],
    ['text', input.text],
    ['api_app_id', input.apiAppId ?? DEFAULT_APP_ID],
    ['is_enterprise_install', String(a.isEnterpriseInstall)],
    ['response_url', input.responseUrl],
    ['trigger_id', input.triggerId ?? newTriggerId()],
  );
  return new URLSearchParams(fields).toString();
}

// ── Interactions ────────────────────────────────────────────────────────────────────────────────

/** A message as a block_actions payload carries it; a fake Slack StoredMessage fits. */
interface MessageLike {
  ts: string;
  text?: string;
  blocks?: unknown[] | undefined;
  user?: string;
  bot_id?: string | undefined;
  thread_ts?: string | undefined;
}

export interface BlockActionInput extends Actor {
  actionId: string;
  /** Defaults to the value of the button with this action_id in the message or view. */
  value?: string;
  blockId?: string;
  container: 'message' | 'ephemeral' | 'view' | 'entity_detail';
  /** An entity action in a Work Object's side panel: the entity the panel shows (entity_detail container). */
  entity?: { externalRef: { id: string; type?: string }; entityUrl?: string; appUnfurlUrl?: string };
  channelId?: string;
  channelName?: string;
  /** Required for message/ephemeral containers: Slack always sends one there. */
  responseUrl?: string;
  messageTs?: string;
  /** The clicked message (message container): its blocks supply button text, value and block_id. */
  message?: MessageLike;
  /** The view holding the button (view container), e.g. `views.open`'s `view`. */
  view?: Json;
  triggerId?: string;
  apiAppId?: string;
  token?: string;
  /** Input values when the action comes from a modal: `state.values`. */
  stateValues?: Json;
  /** An overflow menu choice: the action is sent as Slack sends one (`type: 'overflow'`). */
  selectedOption?: { text: string; value: string };
  /** A button a workflow step posted: the step's run, as Slack adds it (`function_data`, its token). */
  functionRun?: { executionId: string; callbackId: string; inputs: Json; token: string };
}

function viewBlocks(view: Json | undefined): unknown[] {
  return Array.isArray(view?.blocks) ? view.blocks : [];
}

function clickedButton(input: BlockActionInput): Button | undefined {
  const blocks = input.container === 'view' ? viewBlocks(input.view) : (input.message?.blocks ?? []);
  return buttons(blocks).find(
    (b) => b.action_id === input.actionId && (input.blockId === undefined || b.block_id === input.blockId),
  );
}

/** A view as Slack sends it inside interaction payloads. */
function viewPayload(view: Json, a: ReturnType<typeof actor>, stateValues: Json = {}): Json {
  const id = typeof view.id === 'string' ? view.id : 'V0FAKE0001';
  return {
    id,
    team_id: a.teamId,
    type: view.type ?? 'modal',
    blocks: view.blocks ?? [],
    private_metadata: view.private_metadata ?? '',
    callback_id: view.callback_id ?? '',
    state: { values: stateValues },
    hash: view.hash ?? '1700000000.abcdEFGH',
    title: view.title ?? { type: 'plain_text', text: 'Vigil', emoji: true },
    clear_on_close: view.clear_on_close ?? false,
    notify_on_close: view.notify_on_close ?? false,
    close: view.close ?? null,
    submit: view.submit ?? null,
    previous_view_id: view.previous_view_id ?? null,
    root_view_id: view.root_view_id ?? id,
    app_id: view.app_id ?? DEFAULT_APP_ID,
    external_id: view.external_id ?? '',
    app_installed_team_id: a.teamId,
    bot_id: view.bot_id ?? 'B0001',
    // A Work Object's side panel submits its edits as a view carrying the entity.
    ...Object.fromEntries(
      ['entity_url', 'external_ref', 'app_unfurl_url', 'message_ts', 'thread_ts', 'channel']
        .filter((k) => view[k] !== undefined)
        .map((k) => [k, view[k]]),
    ),
  };
}

export function blockActionPayload(input: BlockActionInput, nowSec: number): Json {
  const a = actor(input);
  const button = clickedButton(input);
  const value = input.value ?? button?.value;
  const actionTs = `${nowSec}.${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`;
  const chosen = input.selectedOption;
  const action: Json =
    chosen !== undefined
      ? {
          type: 'overflow',
          action_id: input.actionId,
          block_id: input.blockId ?? 'vigil_actions',
          selected_option: {
            text: { type: 'plain_text', text: chosen.text, emoji: true },
            value: chosen.value,
          },
          action_ts: actionTs,
        }
      : {
          action_id: input.actionId,
          block_id: input.blockId ?? button?.block_id ?? 'vigil_actions',
          text: { type: 'plain_text', text: button?.text ?? input.actionId, emoji: true },
          ...(value !== undefined ? { value } : {}),
          ...(button?.style !== undefined ? { style: button.style } : {}),
          type: 'button',
          action_ts: actionTs,
        };
  const payload: Json = {
    type: 'block_actions',
    user: userObject(a),
    api_app_id: input.apiAppId ?? DEFAULT_APP_ID,
    token: input.token ?? VERIFICATION_TOKEN,
  };
  const run = input.functionRun;
  if (run !== undefined) {
    payload.function_data = {
      execution_id: run.executionId,
      function: { callback_id: run.callbackId },
      inputs: run.inputs,
    };
    payload.bot_access_token = run.token;
  }
  if (input.container === 'view') {
    const view = viewPayload(input.view ?? {}, a, input.stateValues);
    payload.container = { type: 'view', view_id: view.id };
    Object.assign(payload, {
      trigger_id: input.triggerId ?? newTriggerId(),
      team: teamObject(a),
      enterprise: enterpriseObject(a),
      is_enterprise_install: a.isEnterpriseInstall,
      view,
      actions: [action],
    });
    return payload;
  }
  if (input.container === 'entity_detail') {
    // A button of a Work Object's side panel: no view, no response_url; the container names the entity and
    // the message it was opened from (HubSpot/slack-client EntityDetailContainerIF, a production Slack
    // client's model of this payload: type `entity_detail`, message_ts, channel_id, external_ref,
    // entity_url, app_unfurl_url).
    const e = input.entity;
    if (e === undefined) throw new Error('blockAction: an entity_detail container needs its entity');
    payload.container = {
      type: 'entity_detail',
      message_ts: input.messageTs ?? `${nowSec}.000100`,
      channel_id: input.channelId ?? SEEDED_CHANNELS.general,
      external_ref: e.externalRef,
      ...(e.entityUrl !== undefined ? { entity_url: e.entityUrl } : {}),
      ...(e.appUnfurlUrl !== undefined ? { app_unfurl_url: e.appUnfurlUrl } : {}),
    };
    Object.assign(payload, {
      trigger_id: input.triggerId ?? newTriggerId(),
      team: teamObject(a),
      enterprise: enterpriseObject(a),
      is_enterprise_install: a.isEnterpriseInstall,
      actions: [action],
    });
    return payload;
  }
  if (input.responseUrl === undefined)
    throw new Error('blockAction: a message container needs a responseUrl');
  const channelId = input.channelId ?? SEEDED_CHANNELS.general;
  const messageTs = input.messageTs ?? input.message?.ts ?? `${nowSec}.000100`;
  const ephemeral = input.container === 'ephemeral';
  payload.container = {
    type: 'message',
    message_ts: messageTs,
    channel_id: channelId,
    is_ephemeral: ephemeral,
  };
  Object.assign(payload, {
    trigger_id: input.triggerId ?? newTriggerId(),
    team: teamObject(a),
    enterprise: enterpriseObject(a),
    is_enterprise_install: a.isEnterpriseInstall,
    channel: { id: channelId, name: input.channelName ?? 'general' },
  });
  // Slack does not echo ephemeral messages back: only channel messages come with `message`.
  if (!ephemeral) {
    const m = input.message;
    payload.message = {
      type: 'message',
      user: m?.user ?? DEFAULT_BOT_USER_ID,
      ts: messageTs,
      bot_id: m?.bot_id ?? 'B0001',
      app_id: input.apiAppId ?? DEFAULT_APP_ID,
      text: m?.text ?? '',
      team: a.teamId,
      blocks: m?.blocks ?? [],
      ...(m?.thread_ts !== undefined ? { thread_ts: m.thread_ts } : {}),
    };
  }
  Object.assign(payload, {
    state: { values: input.stateValues ?? {} },
    response_url: input.responseUrl,
    actions: [action],
  });
  return payload;
}

export interface ViewSubmissionInput extends Actor {
  callbackId: string;
  /** `view.state.values`: { [block_id]: { [action_id]: { type, value | selected_option | files… } } }. */
  values: Json;
  privateMetadata?: string;
  viewId?: string;
  hash?: string;
  /** The submitted view as Vigil opened it (`views.open`'s `view`); its blocks and title are kept. */
  view?: Json;
  triggerId?: string;
  apiAppId?: string;
  token?: string;
}

function submittedView(input: ViewSubmissionInput, a: ReturnType<typeof actor>): Json {
  const base = input.view ?? {};
  return viewPayload(
    {
      ...base,
      id: input.viewId ?? base.id,
      hash: input.hash ?? base.hash,
      callback_id: input.callbackId,
      private_metadata: input.privateMetadata ?? base.private_metadata ?? '',
    },
    a,
    input.values,
  );
}

export function viewSubmissionPayload(input: ViewSubmissionInput): Json {
  const a = actor(input);
  return {
    type: 'view_submission',
    team: teamObject(a),
    user: userObject(a),
    api_app_id: input.apiAppId ?? DEFAULT_APP_ID,
    token: input.token ?? VERIFICATION_TOKEN,
    trigger_id: input.triggerId ?? newTriggerId(),
    view: submittedView(input, a),
    response_urls: [],
    is_enterprise_install: a.isEnterpriseInstall,
    enterprise: enterpriseObject(a),
  };
}

export type ViewClosedInput = Omit<ViewSubmissionInput, 'values'> & { values?: Json; isCleared?: boolean };

export function viewClosedPayload(input: ViewClosedInput): Json {
  const a = actor(input);
  return {
    type: 'view_closed',
    team: teamObject(a),
    user: userObject(a),
    api_app_id: input.apiAppId ?? DEFAULT_APP_ID,
    token: input.token ?? VERIFICATION_TOKEN,
    view: submittedView({ ...input, values: input.values ?? {} }, a),
    is_cleared: input.isCleared ?? false,
    is_enterprise_install: a.isEnterpriseInstall,
    enterprise: enterpriseObject(a),
  };
}

/** `state.values` entry of a plain text input. */
export function textInputValue(value: string | null): Json {
  return { type: 'plain_text_input', value };
}

/** The interaction body: the payload as JSON in the form field `payload`. */
export function interactionBody(payload: Json): string {
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

// ── Events API ──────────────────────────────────────────────────────────────────────────────────

type EventType =
  | 'app_uninstalled'
  | 'tokens_revoked'
  | 'app_home_opened'
  | 'member_joined_channel'
  | 'function_executed'
  | (string & {});

export interface EventInput extends Actor {
  type: EventType;
  botUserId?: string;
  apiAppId?: string;
  token?: string;
  eventId?: string;
  /** Fields of the inner event, over the defaults for its type. */
  fields?: Json;
}

function innerEvent(input: EventInput, a: ReturnType<typeof actor>, botUserId: string, nowSec: number): Json {
  const eventTs = `${nowSec}.000200`;
  switch (input.type) {
    case 'app_uninstalled':
      return { type: 'app_uninstalled', event_ts: eventTs };
    case 'tokens_revoked':
      return { type: 'tokens_revoked', tokens: { oauth: [], bot: [botUserId] }, event_ts: eventTs };
    case 'function_executed':
      // The step's run is in `fields` (FakeSlack.startFunction gives the whole inner event).
      return { type: 'function_executed', event_ts: eventTs };
    case 'app_home_opened':
      return {
        type: 'app_home_opened',
        user: a.userId,
        channel: 'D0HOME0001',
        tab: 'home',
        event_ts: eventTs,
      };
    default:
      return { type: input.type, user: a.userId, event_ts: eventTs };
  }
}

export function eventEnvelope(input: EventInput, nowSec: number): Json {
  const a = actor(input);
  const botUserId = input.botUserId ?? DEFAULT_BOT_USER_ID;
  return {
    token: input.token ?? VERIFICATION_TOKEN,
    team_id: a.teamId,
    ...(a.enterpriseId !== undefined ? { enterprise_id: a.enterpriseId } : {}),
    context_team_id: a.teamId,
    context_enterprise_id: a.enterpriseId ?? null,
    api_app_id: input.apiAppId ?? DEFAULT_APP_ID,
    event: { ...innerEvent(input, a, botUserId, nowSec), ...input.fields },
    type: 'event_callback',
    event_id: input.eventId ?? `Ev${randomBytes(5).toString('hex').toUpperCase()}`,
    event_time: nowSec,
    authorizations: [
      {
        enterprise_id: a.enterpriseId ?? null,
        team_id: a.teamId,
        user_id: botUserId,
        is_bot: true,
        is_enterprise_install: a.isEnterpriseInstall,
      },
    ],
    is_ext_shared_channel: false,
    event_context: `4-${randomBytes(12).toString('base64url')}`,
  };
}

export function urlVerificationBody(challenge: string, token = VERIFICATION_TOKEN): Json {
  return { token, challenge, type: 'url_verification' };
}
