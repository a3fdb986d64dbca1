/**
 * Containment through Okta, end to end through the receiver against the simulated Okta org holding every call
 * to the published management API document: the API token only through the form, the card of the one user,
 * suspend after a second approver (once), sessions and OAuth tokens revoked, a 429 told with when to retry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimOkta } from '../../../packages/playground/src/sim/identity/okta-sim.js';
import { SEEDED_USERS } from '../../../packages/playground/src/sim/slack/index.js';
import { textOf } from '../../harness/index.js';
import { type Stack, startStack } from '../../support/stack.js';
import { addCredential } from '../credentials/support/creds-stack.js';
import { click, command, waitPostTo } from '../events/support/events-stack.js';
import { rowOf } from './support/contain-stack.js';

let okta: Awaited<ReturnType<typeof startSimOkta>>;
let stack: Stack;
let page: { blocks?: unknown[] };
const said = (body: unknown) => `${(body as { text?: string }).text ?? ''}\n${textOf(body)}`;

beforeAll(async () => {
  okta = await startSimOkta({
    users: [
      {
        id: '00u1linus',
        status: 'ACTIVE',
        lastLogin: '2026-11-20T08:00:00.000Z',
        profile: {
          login: 'linus@okta.example',
          email: 'linus@okta.example',
          firstName: 'Linus',
          lastName: 'Torvalds',
        },
      },
    ],
  });
  stack = await startStack({ open: ['creds'] });
  addCredential(stack, { identity_name: 'linus@okta.example', credential_hash: 'd'.repeat(64) });
});
afterAll(async () => {
  await stack?.close();
  await okta?.close();
  expect(okta.violations).toEqual([]);
});

async function ask(button: string): Promise<{ blocks: unknown[]; ts: string }> {
  const opened = await click(stack, rowOf(page, 'linus@okta.example'), 'Contain…', {
    userId: SEEDED_USERS.admin,
  });
  const card = (await waitPostTo(stack, opened.responseUrl)).body as { blocks?: unknown[] };
  const before = stack.slack.callsTo('chat.postMessage').length;
  await click(stack, card, button, { userId: SEEDED_USERS.admin });
  await stack.slack.waitFor(
    (c) => c.method === 'chat.postMessage' && stack.slack.callsTo('chat.postMessage').length > before,
  );
  const posted = stack.slack.callsTo('chat.postMessage').at(-1);
  return {
    blocks: (posted?.body.blocks ?? []) as unknown[],
    ts: String((posted?.response as { ts?: string })?.ts ?? ''),
  };
}

async function approve(message: { blocks: unknown[]; ts: string }) {
  const clicked = await click(stack, message, 'Approve', {
    userId: SEEDED_USERS.owner,
    container: 'message',
  });
  return said((await waitPostTo(stack, clicked.responseUrl)).body);
}

describe('Okta', () => {
  it('connects with the API token through the form only', async () => {
    const triggerId = stack.slack.triggerId();
    await stack.sender.slashCommand({
      text: `idp connect okta org:${okta.url}`,
      responseUrl: stack.slack.responseUrl(),
      triggerId,
      userId: SEEDED_USERS.admin,
    });
    const opened = await stack.slack.waitFor(
      (c) => c.method === 'views.open' && c.body.trigger_id === triggerId,
    );
    const view = opened.body.view as Record<string, unknown>;
    await stack.sender.viewSubmission({
      callbackId: String(view.callback_id),
      privateMetadata: String(view.private_metadata),
      view,
      values: { secret: { value: { type: 'plain_text_input', value: okta.token } } },
      userId: SEEDED_USERS.admin,
    });
    const status = await stack.slack.waitFor('chat.postEphemeral');
    expect(textOf(status.body)).toContain('Okta, org');
    expect(textOf(status.body)).toContain('GET /api/v1/users?limit=1');
    expect(
      stack.slack.calls
        .filter((c) => c.method !== 'views.open')
        .map((c) => c.rawBody)
        .join('\n'),
    ).not.toContain(okta.token);
    expect(stack.logs.join('\n')).not.toContain(okta.token);
  });

  it('suspends the one user once after a second approver, then revokes sessions with OAuth tokens', async () => {
    const { post } = await command(stack, 'creds domain okta.example', { userId: SEEDED_USERS.admin });
    page = post.body as { blocks?: unknown[] };
    const suspend = await ask('Disable account');
    const answers = await Promise.all([approve(suspend), approve(suspend), approve(suspend)]);
    expect(answers.some((a) => a.includes('was done'))).toBe(true);
    expect(okta.calls.filter((c) => c.operationId === 'suspendUser')).toHaveLength(1);
    expect(okta.users[0]?.status).toBe('SUSPENDED');

    const revoke = await ask('Revoke sessions');
    okta.failNext(429);
    expect(await approve(revoke)).toMatch(/rate-limiting.*in \d+ s/s);
    expect(await approve(revoke)).toContain('was done');
    expect(okta.calls.filter((c) => c.operationId === 'revokeUserSessions').map((c) => c.query)).toEqual([
      '?oauthTokens=true',
    ]);
  });
});
