/**
 * Slack's side of the conversation, for the playground: the bodies Slack sends (slash commands,
 * block_actions, view_submission, view_closed, app_home_opened, link_shared, entity_details_requested), signed with the app's signing secret and
 * POSTed to Vigil's `/slack/events` like Slack would. Vigil cannot tell the playground from Slack.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Json } from './render/blocks.js';

export interface Actor {
  teamId: string;
  teamDomain: string;
  userId: string;
  userName: string;
  appId: string;
}

export interface SlackAnswer {
  status: number;
  /** The JSON Vigil answered with (an ack body), when it answered JSON. */
  body: Json | undefined;
}

export interface SlackSideOptions {
  /** Vigil's `/slack/events`; a function because it is known only once Vigil listens. */
  receiverUrl: () => string;
  signingSecret: string;
  nowMs: () => number;
}

const sign = (secret: string, ts: number, body: string) =>
  `v0=${createHmac('sha256', secret).update(`v0:${ts}:`).update(body).digest('hex')}`;

async function postSigned(
  options: SlackSideOptions,
  body: string,
  contentType: string,
): Promise<SlackAnswer> {
  const ts = Math.floor(options.nowMs() / 1000);
  const res = await fetch(options.receiverUrl(), {
    method: 'POST',
    headers: {
      'content-type': contentType,
      'x-slack-request-timestamp': String(ts),
      'x-slack-signature': sign(options.signingSecret, ts, body),
    },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  let parsed: Json | undefined;
  if ((res.headers.get('content-type') ?? '').includes('json') && text !== '') {
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) parsed = value as Json;
    } catch {
      parsed = undefined;
    }
  }
  return { status: res.status, body: parsed };
}

const team = (a: Actor) => ({ id: a.teamId, domain: a.teamDomain });
const user = (a: Actor) => ({ id: a.userId, username: a.userName, name: a.userName, team_id: a.teamId });

export function createSlackSide(options: SlackSideOptions) {
  const nowSec = () => Math.floor(options.nowMs() / 1000);
  const form = (fields: Record<string, string>) =>
    postSigned(options, new URLSearchParams(fields).toString(), 'application/x-www-form-urlencoded');
  const interaction = (payload: Json) => form({ payload: JSON.stringify(payload) });
  return {
    slashCommand: (a: Actor, input: Parameters<typeof slashCommandFields>[1]) =>
      form(slashCommandFields(a, input)),
    /** A click or a selection; `container` says where the element lives. */
    blockAction: (a: Actor, input: Parameters<typeof blockActionPayload>[2]) =>
      interaction(blockActionPayload(a, nowSec(), input)),
    viewSubmission: (a: Actor, view: Json, stateValues: Json, triggerId: string) =>
      interaction(viewSubmissionPayload(a, view, stateValues, triggerId)),
    viewClosed: (a: Actor, view: Json) => interaction(viewClosedPayload(a, view)),
    appHomeOpened: (a: Actor, botUserId: string) =>
      postSigned(options, appHomeOpenedBody(a, botUserId, nowSec()), 'application/json'),
    /** Any other event of the Events API (`link_shared`, `entity_details_requested`), as Slack wraps it. */
    event: (a: Actor, botUserId: string, event: Json) =>
      postSigned(options, eventCallbackBody(a, botUserId, event, nowSec()), 'application/json'),
  };
}

function eventCallbackBody(a: Actor, botUserId: string, event: Json, now: number): string {
  return JSON.stringify({
    token: 'playground',
    team_id: a.teamId,
    context_team_id: a.teamId,
    context_enterprise_id: null,
    api_app_id: a.appId,
    event: { ...event, event_ts: `${now}.000100` },
    type: 'event_callback',
    event_id: `Ev${randomBytes(5).toString('hex').toUpperCase()}`,
    event_time: now,
    authorizations: [
      {
        enterprise_id: null,
        team_id: a.teamId,
        user_id: botUserId,
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
    is_ext_shared_channel: false,
  });
}

function slashCommandFields(
  a: Actor,
  input: { text: string; channelId: string; channelName: string; responseUrl: string; triggerId: string },
): Record<string, string> {
  return {
    token: 'playground',
    team_id: a.teamId,
    team_domain: a.teamDomain,
    channel_id: input.channelId,
    channel_name: input.channelName,
    user_id: a.userId,
    user_name: a.userName,
    command: '/vigil',
    text: input.text,
    api_app_id: a.appId,
    is_enterprise_install: 'false',
    response_url: input.responseUrl,
    trigger_id: input.triggerId,
  };
}

/** A click or a selection; `container` says where the element lives. */
function blockActionPayload(
  a: Actor,
  nowSec: number,
  input: {
    action: Json;
    triggerId: string;
    container:
      | {
          kind: 'message';
          channelId: string;
          channelName: string;
          ts: string;
          ephemeral: boolean;
          message: Json | undefined;
          responseUrl: string;
        }
      | { kind: 'view'; view: Json; stateValues: Json }
      /** A button of a Work Object's side panel: the entity it shows and the message it was opened from. */
      | { kind: 'entity'; channelId: string; ts: string; entity: Json };
  },
) {
  const base: Json = {
    type: 'block_actions',
    user: user(a),
    api_app_id: a.appId,
    token: 'playground',
    trigger_id: input.triggerId,
    team: team(a),
    enterprise: null,
    is_enterprise_install: false,
    actions: [{ ...input.action, action_ts: `${nowSec}.${randomBytes(3).readUIntBE(0, 3)}` }],
  };
  const c = input.container;
  if (c.kind === 'entity') {
    const e = c.entity;
    return {
      ...base,
      container: {
        type: 'entity_detail',
        message_ts: c.ts,
        channel_id: c.channelId,
        external_ref: e.external_ref,
        entity_url: e.url,
        ...(e.app_unfurl_url === undefined ? {} : { app_unfurl_url: e.app_unfurl_url }),
      },
    };
  }
  if (c.kind === 'view') {
    return {
      ...base,
      container: { type: 'view', view_id: c.view.id },
      view: { ...c.view, state: { values: c.stateValues } },
    };
  }
  return {
    ...base,
    container: { type: 'message', message_ts: c.ts, channel_id: c.channelId, is_ephemeral: c.ephemeral },
    channel: { id: c.channelId, name: c.channelName },
    // Slack does not echo ephemeral messages back.
    ...(c.message ? { message: c.message } : {}),
    state: { values: {} },
    response_url: c.responseUrl,
  };
}

function viewSubmissionPayload(a: Actor, view: Json, stateValues: Json, triggerId: string): Json {
  return {
    type: 'view_submission',
    team: team(a),
    user: user(a),
    api_app_id: a.appId,
    token: 'playground',
    trigger_id: triggerId,
    view: { ...view, state: { values: stateValues } },
    response_urls: [],
    is_enterprise_install: false,
    enterprise: null,
  };
}

function viewClosedPayload(a: Actor, view: Json): Json {
  return {
    type: 'view_closed',
    team: team(a),
    user: user(a),
    api_app_id: a.appId,
    token: 'playground',
    view: { ...view, state: { values: {} } },
    is_cleared: false,
    is_enterprise_install: false,
    enterprise: null,
  };
}

function appHomeOpenedBody(a: Actor, botUserId: string, now: number): string {
  return eventCallbackBody(
    a,
    botUserId,
    { type: 'app_home_opened', user: a.userId, channel: 'D0HOME0001', tab: 'home' },
    now,
  );
}

export type SlackSide = ReturnType<typeof createSlackSide>;
