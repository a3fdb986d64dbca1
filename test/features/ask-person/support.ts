/**
 * A stack for asking the person: alerts with `ask-person:on` made through the receiver, the company's
 * members in the simulated Slack (a member, a guest, a bot, a deactivated member), leaked credentials added
 * to the simulated API, and the DMs and alert threads read back from the simulated Slack.
 */
import { DEFAULT_TEAM_ID } from '../../../packages/playground/src/sim/slack/index.js';
import type { StoredMessage } from '../../../packages/playground/src/sim/slack/types.js';
import type { Clock } from '../../../src/kernel/clock.js';
import { type Stack, startStack } from '../../support/stack.js';
import { command, IDENTIFIER, SEEDED_CHANNELS, SEEDED_USERS } from '../events/support/events-stack.js';

export { SEEDED_CHANNELS, SEEDED_USERS };

/** The company's people, by what they are. */
export const PEOPLE = {
  dana: { id: 'U0DANA001', email: 'dana.smith@acme.example' },
  guest: { id: 'U0GUEST01', email: 'gus@acme.example' },
  bot: { id: 'U0BOTUSR1', email: 'robot@acme.example' },
  left: { id: 'U0LEFT001', email: 'lee@acme.example' },
  unknown: { email: 'nobody@acme.example' },
  outside: { email: 'sam@other.example' },
} as const;

export const GROUP = 'S0SECOPS1';
const manual = { every: () => ({ cancel() {} }) };

export async function askStack(
  clock: Clock,
  env: Record<string, string> = {},
  dataDir?: string,
): Promise<Stack> {
  const stack = await startStack({
    sim: { emptyPageEvery: 0 },
    clock,
    alertTicker: manual,
    open: ['subscribe', 'act'],
    env: { ...env, ...(dataDir ? { VIGIL_STORE: `sqlite://${dataDir}/vigil.sqlite` } : {}) },
  });
  addPeople(stack);
  return stack;
}

function addPeople(stack: Stack): void {
  const team = DEFAULT_TEAM_ID;
  stack.slack.addUser({ id: PEOPLE.dana.id, team_id: team, name: 'dana', email: PEOPLE.dana.email });
  stack.slack.addUser({ id: PEOPLE.guest.id, name: 'gus', email: PEOPLE.guest.email, is_restricted: true });
  stack.slack.addUser({ id: PEOPLE.bot.id, name: 'robot', email: PEOPLE.bot.email, is_bot: true });
  stack.slack.addUser({ id: PEOPLE.left.id, name: 'lee', email: PEOPLE.left.email, deleted: true });
}

/** `/vigil alerts add … ask-person:on` mentioning the security group, through the receiver. */
export async function subscribe(stack: Stack, extra = 'ask-person:on'): Promise<string> {
  const { post } = await command(
    stack,
    `alerts add identifiers:${IDENTIFIER.domain} severity:info type:leaked_credential,stealer_log mention:<!subteam^${GROUP}|@secops> mention-on:all ${extra}`,
    { userId: SEEDED_USERS.member },
  );
  return JSON.stringify(post.body);
}

let added = 0;

/** A leaked credential of `email` in the simulated API's feed: its uid. */
export function leak(stack: Stack, clock: Clock, email: string, source = 'combolist_q3'): string {
  added++;
  const uid = `leaked_credential/${source}/${added}`;
  stack.sim.state.addEvent({
    tenantId: stack.sim.keys[0]?.defaultTenantId ?? 0,
    identifierIds: [IDENTIFIER.domain],
    createdAt: clock.now(),
    severity: 'high',
    type: 'leaked_credential',
    title: `Credentials of ${email} in ${source}`,
    uid,
  });
  return uid;
}

const isAsk = (m: StoredMessage) =>
  (m.metadata as { event_type?: string } | undefined)?.event_type === 'vigil_ask_person';

/** Vigil's DMs to `userId` (the asks). */
export function dmsTo(stack: Stack, userId: string): StoredMessage[] {
  return stack.slack.messages(stack.slack.openDm(userId).id).filter(isAsk);
}

/** Every ask DM Vigil sent to the company's people and the seeded ones. */
export function allDms(stack: Stack): StoredMessage[] {
  const ids = [
    PEOPLE.dana.id,
    PEOPLE.guest.id,
    PEOPLE.bot.id,
    PEOPLE.left.id,
    ...Object.values(SEEDED_USERS),
  ];
  return ids.flatMap((id) => dmsTo(stack, id));
}

export function alertOf(stack: Stack, uid: string): StoredMessage | undefined {
  return stack.slack
    .messages(SEEDED_CHANNELS.general)
    .find(
      (m) =>
        (m.metadata as { event_type?: string } | undefined)?.event_type === 'vigil_alert' &&
        JSON.stringify(m.blocks).includes(uid),
    );
}

export function threadOf(stack: Stack, ts: string): StoredMessage[] {
  return stack.slack.messages(SEEDED_CHANNELS.general).filter((m) => m.thread_ts === ts && m.ts !== ts);
}

/** Clicks one of the DM's answers as `userId`, from the DM. */
export async function answer(
  stack: Stack,
  dm: StoredMessage,
  actionId: string,
  userId: string,
): Promise<number> {
  const button = JSON.stringify(dm.blocks).includes(actionId)
    ? ((dm.blocks as { elements?: { action_id?: string; value?: string }[] }[])
        .flatMap((b) => b.elements ?? [])
        .find((e) => e.action_id === actionId) ?? {})
    : {};
  const res = await stack.sender.blockAction({
    actionId,
    value: button.value ?? '',
    blockId: 'ask_person',
    container: 'message',
    responseUrl: stack.slack.responseUrl(),
    channelId: dm.channel,
    message: { ts: dm.ts, blocks: dm.blocks ?? [] },
    userId,
  });
  return res.status;
}
