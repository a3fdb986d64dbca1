/**
 * Okta as an OAuth 2.0 service app, end to end through the receiver against the simulated org, which checks
 * the private_key_jwt assertion against the app's registered public key, demands DPoP (a nonce first), and
 * refuses an access token lacking an operation's scope: the private key only through the form (JWK or PEM,
 * never echoed), status naming the auth and the scopes granted, the token reused until it expires on the
 * injected clock, a missing scope told in words, and a key that is not the app's refused at sign-in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimOkta } from '../../../packages/playground/src/sim/identity/okta-sim.js';
import { SEEDED_USERS } from '../../../packages/playground/src/sim/slack/index.js';
import { textOf } from '../../harness/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import { type Stack, startStack } from '../../support/stack.js';
import { addCredential } from '../credentials/support/creds-stack.js';
import { click, command, waitPostTo } from '../events/support/events-stack.js';
import { rowOf } from './support/contain-stack.js';

type SimOkta = Awaited<ReturnType<typeof startSimOkta>>;
const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0));
const admin = { userId: SEEDED_USERS.admin };
const said = (body: unknown) => `${(body as { text?: string }).text ?? ''}\n${textOf(body)}`;
const LINUS = {
  id: '00u1linus',
  status: 'ACTIVE' as const,
  lastLogin: '2026-11-20T08:00:00.000Z',
  profile: { login: 'linus@okta.example', email: 'linus@okta.example', firstName: 'Linus', lastName: 'T' },
};

let stack: Stack;
let full: SimOkta;
let readOnly: SimOkta;
const sims: SimOkta[] = [];

beforeAll(async () => {
  const now = () => clock.now();
  full = await startSimOkta({ users: [{ ...LINUS }], now });
  readOnly = await startSimOkta({
    users: [{ ...LINUS }],
    now,
    serviceApp: { scopes: ['okta.users.read'], dpop: false, keyType: 'ec' },
  });
  sims.push(full, readOnly);
  stack = await startStack({ clock, open: ['creds'] });
  addCredential(stack, { identity_name: 'linus@okta.example', credential_hash: 'e'.repeat(64) });
  await command(stack, 'settings contain-approval off', admin);
});
afterAll(async () => {
  await stack?.close();
  for (const sim of sims) await sim.close();
  for (const sim of sims) expect(sim.violations).toEqual([]);
});

/** `/vigil idp connect okta org:… client:…` then the form with `key`: the form's answer and what was posted. */
async function connect(sim: SimOkta, key: string) {
  const triggerId = stack.slack.triggerId();
  await stack.sender.slashCommand({
    text: `idp connect okta org:${sim.url} client:${sim.serviceApp.clientId}`,
    responseUrl: stack.slack.responseUrl(),
    triggerId,
    ...admin,
  });
  const opened = await stack.slack.waitFor(
    (c) => c.method === 'views.open' && c.body.trigger_id === triggerId,
  );
  const view = opened.body.view as Record<string, unknown>;
  const before = stack.slack.callsTo('chat.postEphemeral').length;
  const submitted = await stack.sender.viewSubmission({
    callbackId: String(view.callback_id),
    privateMetadata: String(view.private_metadata),
    view,
    values: { secret: { value: { type: 'plain_text_input', value: key } } },
    ...admin,
  });
  return {
    view,
    submitted,
    status: async () =>
      textOf(
        (
          await stack.slack.waitFor(
            (c) =>
              c.method === 'chat.postEphemeral' && stack.slack.callsTo('chat.postEphemeral').length > before,
          )
        ).body,
      ),
  };
}

/** Clicks `button` on Linus's card (approval is off: it runs at once); what the click was answered. */
async function act(button: string): Promise<string> {
  const { post } = await command(stack, 'creds domain okta.example', admin);
  const opened = await click(
    stack,
    rowOf(post.body as { blocks?: unknown[] }, 'linus@okta.example'),
    'Contain…',
    admin,
  );
  const card = (await waitPostTo(stack, opened.responseUrl)).body as { blocks?: unknown[] };
  const clicked = await click(stack, card, button, admin);
  return said((await waitPostTo(stack, clicked.responseUrl)).body);
}

const tokenRequests = (sim: SimOkta) => sim.calls.filter((c) => c.operationId === 'token').length;

describe('Okta OAuth 2.0 service app', () => {
  it('connects with the private key (JWK) through the form, with DPoP, and says so in status', async () => {
    const { view, status } = await connect(full, full.serviceApp.privateJwk);
    expect(JSON.stringify(view)).toContain('Private key (JWK or PEM)');
    const text = await status();
    expect(text).toContain('OAuth 2.0 service app');
    expect(text).toContain(full.serviceApp.clientId);
    expect(text).toContain('DPoP-bound tokens');
    expect(text).toContain('okta.users.manage');
    expect(text).toContain('GET /api/v1/users?limit=1');
    // Without a proof, then without the nonce, then a token: the org's DPoP demands, learnt once.
    expect(tokenRequests(full)).toBe(3);
    const sent = stack.slack.calls.map((c) => c.rawBody).join('\n');
    const d = (JSON.parse(full.serviceApp.privateJwk) as { d: string }).d;
    expect(sent).not.toContain(d);
    expect(stack.logs.join('\n')).not.toContain(d);
  });

  it('acts with a DPoP-bound token, reused until it expires on the injected clock', async () => {
    const before = tokenRequests(full);
    expect(await act('Disable account')).toContain('was done');
    expect(full.users[0]?.status).toBe('SUSPENDED');
    expect(await act('Re-enable account')).toContain('was done');
    expect(tokenRequests(full)).toBe(before);
    clock.advance(3600_000);
    expect(await act('Revoke sessions')).toContain('was done');
    // A new token, asked at once with a proof and the nonce the org gave.
    expect(tokenRequests(full)).toBe(before + 1);
    expect(full.calls.map((c) => c.operationId)).toEqual(
      expect.arrayContaining(['suspendUser', 'unsuspendUser', 'revokeUserSessions']),
    );
  });

  it('with only okta.users.read granted (a P-256 PEM, no DPoP): shows the card, names the missing scope, and the org refuses the action', async () => {
    const { status } = await connect(readOnly, readOnly.serviceApp.privatePem);
    const text = await status();
    expect(text).toContain('okta.users.read');
    expect(text).not.toContain('DPoP-bound');
    expect(text).toMatch(/Missing:.*okta\.users\.manage/s);
    const answer = await act('Disable account');
    expect(answer).toContain('lacks the scope okta.users.manage');
    expect(readOnly.users[0]?.status).toBe('ACTIVE');
    expect(readOnly.calls.some((c) => c.operationId === 'suspendUser')).toBe(false);
  });

  it('refuses a key that is not a private key in the form, and a key that is not the app’s at sign-in', async () => {
    const { submitted } = await connect(full, 'not a key at all');
    expect(JSON.stringify(submitted.body)).toContain('not a private key Vigil can sign with');
    const other = await startSimOkta({ users: [] });
    sims.push(other);
    const { status } = await connect(full, other.serviceApp.privatePem);
    expect(await status()).toContain('invalid_client');
  });
});
