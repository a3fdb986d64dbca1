/**
 * Vigil over Socket Mode (SLACK_APP_TOKEN set, no signing secret) against the fake Slack: it opens the socket
 * with its app-level token, answers envelopes in their acks, posts late answers to the response_url, acts on
 * events, reconnects when Slack asks, and closes the socket when stopped.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { createLogger } from '../../../src/logger.js';
import { type SimApi, startSimApi } from '../../../src/sim/api/index.js';
import {
  DEFAULT_APP_TOKEN,
  DEFAULT_BOT_TOKEN,
  DEFAULT_TEAM_ID,
  type FakeSlack,
  SEEDED_USERS,
  type SocketAck,
  startFakeSlack,
} from '../../../src/sim/slack/index.js';
import { SUBCOMMANDS, toMrkdwn, usageOf } from '../../../src/slack/parser/index.js';
import { type RunningVigil, startVigil } from '../../../src/start.js';
import { eventEnvelope, slashCommandBody, textOf } from '../../harness/index.js';

let sim: SimApi;
let slack: FakeSlack;
let vigil: RunningVigil;
let dataDir: string;
const logs: string[] = [];

beforeAll(async () => {
  sim = await startSimApi();
  slack = await startFakeSlack();
  dataDir = await mkdtemp(join(tmpdir(), 'vigil-socket-'));
  const config = loadConfig({
    SLACK_BOT_TOKEN: DEFAULT_BOT_TOKEN,
    SLACK_APP_TOKEN: DEFAULT_APP_TOKEN,
    SLACK_API_URL: slack.apiUrl,
    PORT: '0',
    VIGIL_STORE: `sqlite://${join(dataDir, 'vigil.sqlite')}`,
    VIGIL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    VIGIL_API_URL: sim.url,
    LOG_LEVEL: 'debug',
  });
  const logger = createLogger({ level: 'debug', write: (line) => logs.push(line) });
  vigil = await startVigil({ config, logger, host: '127.0.0.1' });
  await connectWorkspace();
});

afterAll(async () => {
  await vigil?.stop();
  await Promise.allSettled([sim?.close(), slack?.close()]);
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Connects T0001 to the first simulated key, as test/support/stack.ts does. */
async function connectWorkspace(): Promise<void> {
  const key = sim.keys[0];
  if (!key) throw new Error('the simulated API has no keys');
  await vigil.deps.repos.workspaces.put(DEFAULT_TEAM_ID, {
    teamId: DEFAULT_TEAM_ID,
    apiHost: new URL(sim.url).host,
    apiKey: key.apiKey,
    apiKeyId: key.apiKeyId,
    organizationId: key.organizationId,
    tenantId: key.defaultTenantId,
    tenantName: 'Default tenant',
    scopes: key.scopes,
    connectedBy: SEEDED_USERS.admin,
  });
}

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
    expect(await vigil.deps.repos.workspaces.get(DEFAULT_TEAM_ID)).toBeDefined();
    const payload = eventEnvelope({ type: 'app_uninstalled' }, Math.floor(Date.now() / 1000));
    const ack = await slack.socket.send({ type: 'events_api', payload });
    expect(ack.payload ?? {}).toEqual({});
    await expect
      .poll(() => vigil.deps.repos.workspaces.get(DEFAULT_TEAM_ID), { timeout: 5_000 })
      .toBeUndefined();
    await connectWorkspace();
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
