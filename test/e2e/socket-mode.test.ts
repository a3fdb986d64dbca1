/**
 * Vigil over Socket Mode (SLACK_APP_TOKEN set, no signing secret) against the fake Slack: it opens the socket
 * with its app-level token, answers envelopes in their acks, posts late answers to the response_url, acts on
 * events, reconnects when Slack asks, and closes the socket when stopped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_APP_TOKEN,
  DEFAULT_TEAM_ID,
  type FakeSlack,
  SEEDED_USERS,
  type SocketAck,
} from '../../packages/playground/src/sim/slack/index.js';
import type { RunningVigil } from '../../src/app/start.js';
import { toMrkdwn } from '../../src/slack/grammar/index.js';
import { eventEnvelope, slashCommandBody, textOf, viewSubmissionPayload } from '../harness/index.js';
import { SUBCOMMANDS, usageOf } from '../support/grammar.js';
import { type Stack, startStack } from '../support/stack.js';

let stack: Stack;
let slack: FakeSlack;
let vigil: RunningVigil;
let logs: string[];

beforeAll(async () => {
  // The shared stack, switched to Socket Mode: an app-level token and no signing secret.
  stack = await startStack({ env: { SLACK_APP_TOKEN: DEFAULT_APP_TOKEN, SLACK_SIGNING_SECRET: '' } });
  ({ slack, vigil, logs } = stack);
});

afterAll(async () => {
  await stack?.close();
});

/** A `/vigil` command as Socket Mode carries it: the fields of the HTTP form, as a JSON object. */
function command(text: string, responseUrl: string): Promise<SocketAck> {
  const payload = Object.fromEntries(
    new URLSearchParams(slashCommandBody({ text, userId: SEEDED_USERS.member, responseUrl })),
  );
  return slack.socket.send({ type: 'slash_commands', payload });
}

describe('Vigil over Socket Mode', () => {
  it('opened one socket with its app-level token at start-up, and serves no HTTP Slack endpoint', async () => {
    expect(slack.callsTo('apps.connections.open').map((c) => c.token)).toEqual([DEFAULT_APP_TOKEN]);
    expect(slack.socket.open.map((c) => c.appToken)).toEqual([DEFAULT_APP_TOKEN]);
    expect(logs.some((l) => l.includes('vigil started') && l.includes('"transport":"socket"'))).toBe(true);
    const res = await fetch(`${vigil.url}/slack/events`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(404);
  });

  it('answers `/vigil help` in the ack of the envelope', async () => {
    const responseUrl = slack.responseUrl();
    const ack = await command('help', responseUrl);
    expect(ack.payload?.response_type).toBe('ephemeral');
    const shown = `${String(ack.payload?.text)}\n${textOf(ack.payload ?? {})}`;
    for (const sub of SUBCOMMANDS) expect(shown).toContain(toMrkdwn(usageOf(sub)));
    expect(ack.refusal).toBeUndefined();
    expect(slack.postsTo(responseUrl)).toHaveLength(0);
  });

  it('acks `/vigil status` and posts the answer to the response_url', async () => {
    const responseUrl = slack.responseUrl();
    const ack = await command('status', responseUrl);
    expect(ack.refusal).toBeUndefined();
    const post = await slack.waitForPost((p) => `${slack.url}${p.path}` === responseUrl);
    expect(post.status).toBe(200);
    expect(textOf(post.body as never)).toContain('Organization');
  });

  it('answers a form submitted from another workspace in the ack, with the refusal in the modal', async () => {
    const before = stack.sim.log.entries.length;
    const payload = viewSubmissionPayload({
      teamId: 'T0OTHER01',
      userId: 'U0OTHER01',
      callbackId: 'creds_password_search',
      privateMetadata: JSON.stringify({ c: 'C0GENERAL' }),
      values: { password: { value: { type: 'plain_text_input', value: 'P@ssw0rd-1' } } },
    });
    const ack = await slack.socket.send({ type: 'interactive', payload });
    // Not a bare ack (which closes the modal without a word): the modal says why.
    expect(ack.payload?.response_action).toBe('update');
    expect(textOf(ack.payload?.view ?? {})).toMatch(/serves another Slack workspace/);
    expect(stack.sim.log.entries.length).toBe(before);
  });

  it('reconnects after a disconnect message and still answers', async () => {
    const [first] = slack.socket.open;
    if (first === undefined) throw new Error('Vigil has no open socket');
    expect(slack.socket.disconnect('refresh_requested')).toEqual([first]);
    expect((await slack.socket.waitForClose(first.id)).closeCode).toBe(1000);
    // The SDK waits clientPingTimeout (5 s by default, which Vigil keeps) before reconnecting.
    const second = await slack.socket.waitForConnection((c) => c.id !== first.id, 15_000);
    expect(slack.callsTo('apps.connections.open')).toHaveLength(2);
    const ack = await command('help', slack.responseUrl());
    expect(ack.connectionId).toBe(second.id);
    expect(String(ack.payload?.text)).toContain('/vigil');
  });

  it('deletes the workspace connection on an app_uninstalled event', async () => {
    expect(await stack.repos.workspaces.get(DEFAULT_TEAM_ID)).toBeDefined();
    const payload = eventEnvelope({ type: 'app_uninstalled' }, Math.floor(Date.now() / 1000));
    const ack = await slack.socket.send({ type: 'events_api', payload });
    expect(ack.payload ?? {}).toEqual({});
    await expect.poll(() => stack.repos.workspaces.get(DEFAULT_TEAM_ID), { timeout: 5_000 }).toBeUndefined();
  });

  it('closes the socket when stopped, and does not reconnect', async () => {
    const [open] = slack.socket.open;
    if (open === undefined) throw new Error('Vigil has no open socket');
    const opens = slack.callsTo('apps.connections.open').length;
    await vigil.stop();
    const closed = await slack.socket.waitForClose(open.id);
    expect(closed.closeCode).toBe(1000);
    expect(slack.socket.open).toHaveLength(0);
    expect(slack.callsTo('apps.connections.open')).toHaveLength(opens);
  });
});
