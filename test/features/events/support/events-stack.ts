/**
 * The shared end-to-end stack (test/support/stack.ts), plus the steps every events test takes: run a
 * command, click a button, read what reached Slack and the simulated API.
 */

import type { LoggedRequest, SimOptions } from '../../../../packages/playground/src/sim/api/index.js';
import {
  type ResponseUrlPost,
  SEEDED_CHANNELS,
  SEEDED_USERS,
} from '../../../../packages/playground/src/sim/slack/index.js';
import type { Clock } from '../../../../src/kernel/clock.js';
import type { Permission } from '../../../../src/kernel/permission-rules.js';
import { findButton, getButton, type MenuOption, menuOptions } from '../../../harness/index.js';
import { type Stack, startStack } from '../../../support/stack.js';

export { SEEDED_CHANNELS, SEEDED_USERS };

export interface EventsStackOptions {
  sim?: Partial<SimOptions> & { emptyPageEvery?: number };
  clock?: Clock;
  connect?: boolean;
  /** Permissions opened to everyone before the test (default `act`). */
  open?: Permission[];
}

/** The shared stack, with no empty pages unless a test asks for them. */
export function startEventsStack(opts: EventsStackOptions = {}): Promise<Stack> {
  return startStack({
    sim: { emptyPageEvery: opts.sim?.emptyPageEvery ?? 0 },
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.connect === undefined ? {} : { connect: opts.connect }),
    // The tests act on events as a plain member: `act` is opened to everyone, as an admin would.
    open: opts.open ?? ['act'],
  });
}

// ── Steps ─────────────────────────────────────────────────────────────────────────────────────────────

/** The identifiers of the first simulated key's default tenant (2001). */
export const IDENTIFIER = { domain: 3001, keyword: 3002, email: 3003 } as const;

export interface Sent {
  responseUrl: string;
  ack: unknown;
  /** The first post to the response_url (the results, or the error). */
  post: ResponseUrlPost;
}

export async function command(
  stack: Stack,
  text: string,
  opts: { userId?: string; channelId?: string; triggerId?: string } = {},
): Promise<Sent> {
  const responseUrl = stack.slack.responseUrl();
  const res = await stack.sender.slashCommand({
    text,
    responseUrl,
    ...(opts.userId ? { userId: opts.userId } : {}),
    ...(opts.channelId ? { channelId: opts.channelId } : {}),
    ...(opts.triggerId ? { triggerId: opts.triggerId } : {}),
  });
  if (res.status !== 200) throw new Error(`slash command answered ${res.status}`);
  const post = await stack.slack.waitForPost((p) => `${stack.slack.url}${p.path}` === responseUrl);
  return { responseUrl, ack: res.body, post };
}

export interface Clicked {
  responseUrl: string;
  status: number;
}

/**
 * The overflow option standing for `name`: the action id it names (`event_undo:0`, before the `|` of its
 * value) or its text.
 */
export function findOption(source: unknown, name: string): MenuOption | undefined {
  const all = menuOptions(source);
  return (
    all.find((o) => o.value.split('|')[0] === name) ??
    all.find((o) => o.text === name) ??
    all.find((o) => o.text.toLowerCase().includes(name.toLowerCase()))
  );
}

/**
 * Clicks a button of an ephemeral message (the blocks the test holds) or of a channel message; an action
 * that sits in an event's overflow menu is chosen there, as Slack sends it (`type: 'overflow'`).
 */
export async function click(
  stack: Stack,
  source: { blocks?: unknown[] | undefined; ts?: string },
  button: string,
  opts: { userId?: string; container?: 'ephemeral' | 'message'; channelId?: string; triggerId?: string } = {},
): Promise<Clicked> {
  const option = findButton(source, button) === undefined ? findOption(source, button) : undefined;
  if (option !== undefined) return choose(stack, source, option, opts);
  const b = getButton(source, button);
  if (b.action_id === undefined) throw new Error(`button ${button} has no action_id`);
  const responseUrl = stack.slack.responseUrl();
  const container = opts.container ?? 'ephemeral';
  const res = await stack.sender.blockAction({
    actionId: b.action_id,
    ...(b.value !== undefined ? { value: b.value } : {}),
    ...(b.block_id !== undefined ? { blockId: b.block_id } : {}),
    container,
    responseUrl,
    channelId: opts.channelId ?? SEEDED_CHANNELS.general,
    message: { ts: source.ts ?? '1700000000.000100', blocks: source.blocks ?? [] },
    ...(opts.userId ? { userId: opts.userId } : {}),
    ...(opts.triggerId ? { triggerId: opts.triggerId } : {}),
  });
  return { responseUrl, status: res.status };
}

async function choose(
  stack: Stack,
  source: { blocks?: unknown[] | undefined; ts?: string },
  option: MenuOption,
  opts: { userId?: string; container?: 'ephemeral' | 'message'; channelId?: string; triggerId?: string },
): Promise<Clicked> {
  if (option.action_id === undefined) throw new Error(`menu of ${option.text} has no action_id`);
  const responseUrl = stack.slack.responseUrl();
  const res = await stack.sender.blockAction({
    actionId: option.action_id,
    ...(option.block_id !== undefined ? { blockId: option.block_id } : {}),
    selectedOption: { text: option.text, value: option.value },
    container: opts.container ?? 'ephemeral',
    responseUrl,
    channelId: opts.channelId ?? SEEDED_CHANNELS.general,
    message: { ts: source.ts ?? '1700000000.000100', blocks: source.blocks ?? [] },
    ...(opts.userId ? { userId: opts.userId } : {}),
    ...(opts.triggerId ? { triggerId: opts.triggerId } : {}),
  });
  return { responseUrl, status: res.status };
}

export function waitPostTo(stack: Stack, responseUrl: string, n = 1): Promise<ResponseUrlPost> {
  let seen = 0;
  return stack.slack.waitForPost((p) => `${stack.slack.url}${p.path}` === responseUrl && ++seen >= n);
}

export function searchBodies(stack: Stack): unknown[] {
  return stack.sim.log.entries.filter((e) => e.path.endsWith('/_search')).map((e) => e.body);
}

export function actionCalls(stack: Stack): LoggedRequest[] {
  return stack.sim.log.entries.filter((e) => e.path.endsWith('/v4/events/actions'));
}

let added = 0;
/**
 * Adds `n` open events to identifier `identifierId`, newer than any other, so the next page of
 * `status:open size:n` shows exactly them: production ignores a status filter, so Vigil applies it to the
 * rows it gets, and a page of the seed's newest events may hold fewer open ones than asked.
 */
export function addOpenEvents(stack: Stack, identifierId: number, n: number): string[] {
  const identifier = stack.sim.state.identifiers.find((i) => i.id === identifierId);
  if (!identifier) throw new Error(`no identifier ${identifierId}`);
  return Array.from({ length: n }, () => {
    added += 1;
    return stack.sim.state.addEvent({
      tenantId: identifier.tenantId,
      identifierIds: [identifierId],
      // Minutes after the seed's newest event, later each call.
      createdAt: stack.sim.state.seededAt + added * 60_000,
      type: 'paste',
      severity: 'high',
      title: `Fresh paste ${added} mentioning ${identifier.name}`,
    }).item.metadata.uid;
  });
}
