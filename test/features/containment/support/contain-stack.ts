/**
 * The whole stack with a simulated Microsoft Entra ID beside the simulated threat-intel API: Vigil is pointed at
 * it (VIGIL_ENTRA_LOGIN_URL, VIGIL_GRAPH_URL) and connected through the real form; leaked credentials are
 * added for directory users; helpers search them and open their containment card.
 */
import { randomUUID } from 'node:crypto';
import {
  type SimDirectoryUser,
  type SimEntra,
  startSimEntra,
} from '../../../../packages/playground/src/sim/identity/index.js';
import { SEEDED_USERS } from '../../../../packages/playground/src/sim/slack/index.js';
import type { Clock } from '../../../../src/kernel/clock.js';
import { type Stack, type StackOptions, startStack } from '../../../support/stack.js';
import { addCredential } from '../../credentials/support/creds-stack.js';
import { click, command, waitPostTo } from '../../events/support/events-stack.js';

export const GUEST = 'U0GUEST01';

export const ADA: SimDirectoryUser = {
  id: randomUUID(),
  displayName: 'Ada Lovelace',
  userPrincipalName: 'ada@contain.example',
  mail: 'ada@contain.example',
  accountEnabled: true,
  userType: 'Member',
  lastSignInDateTime: '2026-11-20T08:00:00Z',
};
export const GRACE: SimDirectoryUser = {
  id: randomUUID(),
  displayName: 'Grace Hopper',
  userPrincipalName: 'grace@contain.example',
  mail: 'g.hopper@contain.example',
  accountEnabled: true,
  userType: 'Member',
  risk: { riskLevel: 'medium', riskState: 'atRisk' },
};

export interface ContainStack {
  stack: Stack;
  entra: SimEntra;
  close(): Promise<void>;
}

export async function startContainStack(
  opts: { clock?: Clock; env?: Record<string, string>; store?: StackOptions } = {},
): Promise<ContainStack> {
  const entra = await startSimEntra({
    users: [{ ...ADA }, { ...GRACE }],
    ...(opts.clock ? { now: () => opts.clock?.now() ?? 0 } : {}),
  });
  const stack = await startStack({
    ...opts.store,
    ...(opts.clock ? { clock: opts.clock } : {}),
    env: { VIGIL_ENTRA_LOGIN_URL: entra.url, VIGIL_GRAPH_URL: entra.url, ...opts.env },
    open: ['creds'],
  });
  stack.slack.addUser({ id: GUEST, name: 'gus', is_restricted: true });
  for (const identity of ['ada@contain.example', 'g.hopper@contain.example', 'nobody@contain.example'])
    addCredential(stack, { identity_name: identity, credential_hash: identity.padEnd(64, '0').slice(0, 64) });
  return {
    stack,
    entra,
    async close() {
      await stack.close();
      await entra.close();
      if (entra.violations.length > 0)
        throw new Error(`Vigil broke the published Graph contract: ${JSON.stringify(entra.violations)}`);
    },
  };
}

/** `/vigil idp connect entra …` then the form, as an admin would. */
export async function connectThroughForm(c: ContainStack, secret = c.entra.clientSecret): Promise<unknown> {
  const triggerId = c.stack.slack.triggerId();
  await c.stack.sender.slashCommand({
    text: `idp connect entra tenant:${c.entra.tenantId} client:${c.entra.clientId}`,
    responseUrl: c.stack.slack.responseUrl(),
    triggerId,
    userId: SEEDED_USERS.admin,
  });
  const opened = await c.stack.slack.waitFor(
    (call) => call.method === 'views.open' && call.body.trigger_id === triggerId,
  );
  const view = opened.body.view as Record<string, unknown>;
  const before = c.stack.slack.callsTo('chat.postEphemeral').length;
  const submitted = await c.stack.sender.viewSubmission({
    callbackId: String(view.callback_id),
    privateMetadata: String(view.private_metadata),
    view,
    values: { secret: { value: { type: 'plain_text_input', value: secret } } },
    userId: SEEDED_USERS.admin,
  });
  if (submitted.status !== 200) throw new Error(`the form answered ${submitted.status}`);
  const answer = await c.stack.slack.waitFor(
    (call) =>
      call.method === 'chat.postEphemeral' && c.stack.slack.callsTo('chat.postEphemeral').length > before,
  );
  return answer.body;
}

/** The credentials page for the test domain, as the admin sees it. */
export async function searchLeaks(c: ContainStack): Promise<{ blocks?: unknown[] }> {
  const { post } = await command(c.stack, 'creds domain contain.example', { userId: SEEDED_USERS.admin });
  return post.body as { blocks?: unknown[] };
}

type Block = { type: string; block_id?: string; text?: { text?: string } };

/** The blocks of the row showing `identity`. */
export function rowOf(message: { blocks?: unknown[] }, identity: string): { blocks: unknown[] } {
  const blocks = (message.blocks ?? []) as Block[];
  const at = blocks.findIndex((b) => b.type === 'section' && b.text?.text?.includes(`\`${identity}`));
  const index = /creds:row:(\d+)/.exec(blocks[at]?.block_id ?? '')?.[1];
  if (index === undefined) throw new Error(`no row for ${identity}`);
  return {
    blocks: blocks.filter((b) => b.block_id?.startsWith('creds:') && b.block_id.endsWith(`:${index}`)),
  };
}

/** Clicks *Contain…* on the row of `identity` as `userId`; the answer posted to the click's response_url. */
export async function openCard(
  c: ContainStack,
  page: { blocks?: unknown[] },
  identity: string,
  userId: string,
) {
  const clicked = await click(c.stack, rowOf(page, identity), 'Contain…', { userId });
  return (await waitPostTo(c.stack, clicked.responseUrl)).body as { blocks?: unknown[]; text?: string };
}
