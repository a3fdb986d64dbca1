/**
 * Steps the list features' end-to-end tests share (policies, assignments, recommendations, tenants,
 * reports, sandbox): run a command, click a button, read what reached Slack and the simulated API.
 */
import type { LoggedRequest } from '../../../packages/playground/src/sim/api/index.js';
import {
  DEFAULT_TEAM_ID,
  type ResponseUrlPost,
  SEEDED_CHANNELS,
} from '../../../packages/playground/src/sim/slack/index.js';
import { getButton, interactionBody, newTriggerId, VERIFICATION_TOKEN } from '../../harness/index.js';
import type { Stack } from '../../support/stack.js';

export async function command(
  stack: Stack,
  text: string,
  opts: { userId?: string; triggerId?: string } = {},
): Promise<{ responseUrl: string; ack: unknown; post: ResponseUrlPost }> {
  const responseUrl = stack.slack.responseUrl();
  const res = await stack.sender.slashCommand({
    text,
    responseUrl,
    ...(opts.userId ? { userId: opts.userId } : {}),
    ...(opts.triggerId ? { triggerId: opts.triggerId } : {}),
  });
  if (res.status !== 200) throw new Error(`slash command answered ${res.status}`);
  const post = await waitPostTo(stack, responseUrl);
  return { responseUrl, ack: res.body, post };
}

/** The n-th post (1-based) to a response_url, past or future. */
export function waitPostTo(stack: Stack, responseUrl: string, n = 1): Promise<ResponseUrlPost> {
  let seen = 0;
  return stack.slack.waitForPost((p) => `${stack.slack.url}${p.path}` === responseUrl && ++seen >= n);
}

/** Clicks a button of an ephemeral message the test holds; returns the click's own response_url. */
export async function click(
  stack: Stack,
  source: unknown,
  actionId: string,
  opts: { userId?: string; triggerId?: string } = {},
): Promise<{ responseUrl: string; status: number }> {
  const b = getButton(source, actionId);
  const responseUrl = stack.slack.responseUrl();
  const res = await stack.sender.blockAction({
    actionId: b.action_id ?? actionId,
    ...(b.value !== undefined ? { value: b.value } : {}),
    ...(b.block_id !== undefined ? { blockId: b.block_id } : {}),
    container: 'ephemeral',
    responseUrl,
    channelId: SEEDED_CHANNELS.general,
    ...(opts.userId ? { userId: opts.userId } : {}),
    ...(opts.triggerId ? { triggerId: opts.triggerId } : {}),
  });
  return { responseUrl, status: res.status };
}

/** The requests the simulated API received whose path ends with `suffix`. */
export function apiCalls(stack: Stack, suffix: string | RegExp, method = 'GET'): LoggedRequest[] {
  return stack.sim.log.entries.filter(
    (e) =>
      e.method === method && (typeof suffix === 'string' ? e.path.endsWith(suffix) : suffix.test(e.path)),
  );
}

/** A message shortcut (`message_action`) on a message, signed and posted like Slack does. */
export async function messageShortcut(
  stack: Stack,
  input: { callbackId: string; message: Record<string, unknown>; userId: string; responseUrl: string },
): Promise<{ status: number }> {
  const payload = {
    type: 'message_action',
    token: VERIFICATION_TOKEN,
    action_ts: `${Math.floor(Date.now() / 1000)}.000001`,
    team: { id: DEFAULT_TEAM_ID, domain: 't0001' },
    user: {
      id: input.userId,
      username: input.userId.toLowerCase(),
      team_id: DEFAULT_TEAM_ID,
      name: input.userId,
    },
    channel: { id: SEEDED_CHANNELS.general, name: 'general' },
    is_enterprise_install: false,
    enterprise: null,
    callback_id: input.callbackId,
    trigger_id: newTriggerId(),
    response_url: input.responseUrl,
    message_ts: input.message.ts,
    message: input.message,
  };
  const res = await stack.sender.send({
    body: interactionBody(payload),
    contentType: 'application/x-www-form-urlencoded',
  });
  return { status: res.status };
}
