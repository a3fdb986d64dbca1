/**
 * Containment end to end through the receiver (signed requests), against the simulated Entra ID holding every
 * call to Graph's published document: connect through the form (the secret nowhere else), the card of the one
 * directory user a leak maps to (or none), a second approver in the channel, once however many clicks, expiry
 * on the injected clock, provider down and throttling, refusals with no provider call, audit and remediation.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_USERS } from '../../../packages/playground/src/sim/slack/index.js';
import { textOf } from '../../harness/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import { click, command, waitPostTo } from '../events/support/events-stack.js';
import {
  ADA,
  type ContainStack,
  connectThroughForm,
  GRACE,
  GUEST,
  openCard,
  rowOf,
  searchLeaks,
  startContainStack,
} from './support/contain-stack.js';

const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0));
let c: ContainStack;
let page: { blocks?: unknown[] };

const writes = () =>
  c.entra.calls.filter(
    (call) =>
      !call.operationId.startsWith('user.Get') &&
      call.operationId !== 'user.ListUser' &&
      call.operationId !== 'identityProtection.GetRiskyUsers',
  );
/** What a message says: its fallback text and its blocks. */
const said = (body: unknown) => `${(body as { text?: string }).text ?? ''}\n${textOf(body)}`;
const audit = async (n = 30) => c.stack.repos.audit.recent(c.stack.workspaceId, n);

const rowOfPage = (identity: string) => rowOf(page, identity);

/** Clicks `button` of Ada's card as the admin: the approval message posted in the channel. */
async function askFor(button: string, identity = ADA.mail ?? ''): Promise<{ blocks: unknown[]; ts: string }> {
  const card = await openCard(c, page, identity, SEEDED_USERS.admin);
  const before = c.stack.slack.callsTo('chat.postMessage').length;
  const clicked = await click(c.stack, card, button, { userId: SEEDED_USERS.admin });
  const told = await waitPostTo(c.stack, clicked.responseUrl);
  expect(said(told.body)).toContain('Asked in the channel');
  await c.stack.slack.waitFor(
    (call) => call.method === 'chat.postMessage' && c.stack.slack.callsTo('chat.postMessage').length > before,
  );
  const posted = c.stack.slack.callsTo('chat.postMessage').at(-1);
  if (!posted) throw new Error('nothing posted');
  const ts = String((posted.response as { ts?: string } | undefined)?.ts ?? '');
  return { blocks: posted.body.blocks as unknown[], ts };
}

async function decide(message: { blocks: unknown[]; ts: string }, button: string, userId: string) {
  const clicked = await click(c.stack, message, button, { userId, container: 'message' });
  return waitPostTo(c.stack, clicked.responseUrl);
}

beforeAll(async () => {
  c = await startContainStack({ clock });
});
afterAll(async () => {
  await c?.close();
});

describe('connecting Entra ID', () => {
  it('takes the client secret only through the form, checks it with a sign-in and a read-only call, and seals it', async () => {
    const logsBefore = c.stack.logs.length;
    const status = await connectThroughForm(c);
    expect(textOf(status)).toContain('Microsoft Entra ID');
    expect(textOf(status)).toContain('User.RevokeSessions.All');
    expect(textOf(status)).toContain('GET /v1.0/users?$top=1');
    const sent = c.stack.slack.calls
      .filter((call) => call.method !== 'views.open')
      .map((call) => call.rawBody)
      .join('\n');
    expect(sent).not.toContain(c.entra.clientSecret);
    expect(c.stack.logs.slice(logsBefore).join('\n')).not.toContain(c.entra.clientSecret);
    expect((await audit(3)).find((e) => e.action === 'idp.connect')).toMatchObject({ target: 'entra' });
    // Sealed in the store: the secret's bytes are in no file of it.
    for (const f of (await readdir(c.stack.dataDir)).filter((n) => n.startsWith('vigil.sqlite'))) {
      expect((await readFile(join(c.stack.dataDir, f))).includes(Buffer.from(c.entra.clientSecret)), f).toBe(
        false,
      );
    }
  });

  it('refuses a secret Entra ID refuses, in words, and keeps nothing', async () => {
    const answer = await connectThroughForm(c, 'not-the-secret');
    expect(textOf(answer)).toContain('refused the client secret');
    const { post } = await command(c.stack, 'idp status', { userId: SEEDED_USERS.admin });
    expect(textOf(post.body)).toContain('Listing one user');
  });

  it('`idp status` names the provider and the permissions, and tests the connection', async () => {
    const { post } = await command(c.stack, 'idp status', { userId: SEEDED_USERS.admin });
    expect(textOf(post.body)).toContain(c.entra.tenantId);
    expect(textOf(post.body)).toContain('Listing one user');
  });
});

describe('the card', () => {
  beforeAll(async () => {
    page = await searchLeaks(c);
  });

  it('shows the one directory user, their state, and buttons whose confirmation names the person', async () => {
    const card = await openCard(c, page, 'ada@contain.example', SEEDED_USERS.admin);
    const text = textOf(card);
    expect(text).toContain('Ada Lovelace');
    expect(text).toContain('Account enabled');
    expect(text).toContain('last sign-in');
    expect(JSON.stringify(card)).toContain('disable the account of Ada Lovelace (ada@contain.example)');
    expect(JSON.stringify(card)).toMatch(/Revoke sessions.*Mark compromised.*Disable account/s);
  });

  it('maps by mail as well as by sign-in name, with the risk', async () => {
    const card = await openCard(c, page, 'g.hopper@contain.example', SEEDED_USERS.admin);
    expect(textOf(card)).toContain('Grace Hopper');
    expect(textOf(card)).toContain('risk medium, atRisk');
  });

  it('says so when the identity matches nobody, and offers nothing to act on', async () => {
    const card = await openCard(c, page, 'nobody@contain.example', SEEDED_USERS.admin);
    expect(textOf(card)).toContain(
      'No Microsoft Entra ID user has the e-mail or sign-in name `nobody@contain.example`',
    );
    expect(JSON.stringify(card)).not.toContain('contain_disable');
  });

  it('refuses a member without `contain` and a guest, with no provider call, and audits the refusals', async () => {
    const card = await openCard(c, page, 'ada@contain.example', SEEDED_USERS.admin);
    const calls = c.entra.calls.length;
    const tokens = c.entra.tokenCalls;
    for (const userId of [SEEDED_USERS.member, GUEST]) {
      for (const button of ['Disable account', 'Revoke sessions']) {
        const clicked = await click(c.stack, card, button, { userId });
        const answer = await waitPostTo(c.stack, clicked.responseUrl);
        expect(said(answer.body)).toMatch(/only workspace admins|guest/i);
      }
      const opened = await click(c.stack, rowOfPage('ada@contain.example'), 'Contain…', { userId });
      expect(said((await waitPostTo(c.stack, opened.responseUrl)).body)).toMatch(
        /only workspace admins|guest/i,
      );
    }
    expect(c.entra.calls.length).toBe(calls);
    expect(c.entra.tokenCalls).toBe(tokens);
    const refused = (await audit(10)).filter(
      (e) => e.action === 'permission.refused' && e.target === 'contain',
    );
    expect(refused).toHaveLength(6);
  });
});

describe('a second approver', () => {
  it('asks in the channel; the requester cannot approve; another holder approves once however many clicks', async () => {
    const ask = await askFor('Disable account');
    expect(textOf({ blocks: ask.blocks })).toContain(
      `<@${SEEDED_USERS.admin}> asks to disable the account of *Ada Lovelace*`,
    );
    const own = await decide(ask, 'Approve', SEEDED_USERS.admin);
    expect(said(own.body)).toContain('another holder of `contain` must approve');
    expect(writes()).toHaveLength(0);

    const clicks = await Promise.all(
      [1, 2, 3, 4, 5].map(() =>
        click(c.stack, ask, 'Approve', { userId: SEEDED_USERS.owner, container: 'message' }),
      ),
    );
    const answers = await Promise.all(clicks.map((k) => waitPostTo(c.stack, k.responseUrl)));
    expect(writes().map((w) => w.operationId)).toEqual(['user.UpdateUser']);
    expect(c.entra.users.find((u) => u.id === ADA.id)?.accountEnabled).toBe(false);
    const done = answers.map((a) => textOf(a.body)).find((t) => t.includes('was done'));
    expect(done).toContain(`by <@${SEEDED_USERS.owner}>`);
    const lines = (await audit(40)).filter((e) => e.action.startsWith('contain.'));
    expect(lines.find((e) => e.action === 'contain.disable' && e.outcome === 'done')?.detail).toContain(
      `approver ${SEEDED_USERS.owner}`,
    );
    expect(lines.find((e) => e.action === 'contain.request')?.detail).toContain(`directory user ${ADA.id}`);
    expect(JSON.stringify(lines)).not.toContain(c.entra.clientSecret);

    // Then: mark the credential remediated in Flare, and re-enable.
    const decided = answers.find((a) => textOf(a.body).includes('was done'));
    if (!decided) throw new Error('no decision');
    const message = { blocks: (decided.body as { blocks: unknown[] }).blocks, ts: ask.ts };
    const remediated = await decide(message, 'Mark remediated in Flare', SEEDED_USERS.owner);
    expect(textOf(remediated.body)).toContain('marked remediated in Flare');
    expect(c.stack.sim.log.entries.filter((e) => e.path.endsWith('/v4/credentials/actions'))).toHaveLength(1);
    expect(JSON.stringify(message)).toContain('Re-enable account');
  });

  it('rejects: nothing reaches the provider', async () => {
    const before = writes().length;
    const ask = await askFor('Revoke sessions');
    const rejected = await decide(ask, 'Reject', SEEDED_USERS.owner);
    expect(textOf(rejected.body)).toContain('was rejected');
    const late = await decide(ask, 'Approve', SEEDED_USERS.owner);
    expect(textOf(late.body)).toContain('was rejected');
    expect(writes()).toHaveLength(before);
  });

  it('expires after VIGIL_CONTAIN_APPROVAL_TTL on the injected clock, and says so', async () => {
    const before = writes().length;
    const ask = await askFor('Revoke sessions');
    clock.advance(3_600_000 + 1);
    const late = await decide(ask, 'Approve', SEEDED_USERS.owner);
    expect(textOf(late.body)).toContain('expired without approval');
    expect(writes()).toHaveLength(before);
    expect((await audit(5)).some((e) => e.action === 'contain.expire')).toBe(true);
  });

  it('keeps the request open when the provider is down mid-approval, and runs it once when it is back', async () => {
    const ask = await askFor('Revoke sessions');
    const before = writes().length;
    c.entra.setDown(true);
    const down = await decide(ask, 'Approve', SEEDED_USERS.owner);
    expect(textOf(down.body)).toContain('did not answer, so nothing was done');
    c.entra.setDown(false);
    const again = await decide(ask, 'Approve', SEEDED_USERS.owner);
    expect(textOf(again.body)).toContain('was done');
    expect(
      writes()
        .slice(before)
        .map((w) => w.operationId),
    ).toEqual(['user.revokeSignInSessions']);
  });

  it('tells a 429 in words with when to retry, and a missing permission with what to grant', async () => {
    const ask = await askFor('Mark compromised');
    c.entra.failNext(429, { retryAfter: 7 });
    const throttled = await decide(ask, 'Approve', SEEDED_USERS.owner);
    expect(textOf(throttled.body)).toContain('throttling');
    expect(textOf(throttled.body)).toContain('in 7 s');
    c.entra.roles = c.entra.roles.filter((r) => r !== 'IdentityRiskyUser.ReadWrite.All');
    // A new token carries the roles as granted now.
    await command(c.stack, 'idp status', { userId: SEEDED_USERS.admin });
    const refused = await decide(ask, 'Approve', SEEDED_USERS.owner);
    expect(textOf(refused.body)).toContain(
      'Grant the application permission IdentityRiskyUser.ReadWrite.All',
    );
    expect(GRACE.risk?.riskState).toBe('atRisk');
  });
});
