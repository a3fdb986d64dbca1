/**
 * The API key, once pasted on the connect page, is nowhere else: not in the SQLite files (main, -wal,
 * -shm) byte for byte, not in any log line, not in anything sent to Slack. The bot token is not logged.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimKey } from '../../packages/playground/src/sim/api/index.js';
import { DEFAULT_BOT_TOKEN, SEEDED_USERS } from '../../packages/playground/src/sim/slack/index.js';
import { type Stack, startStack } from '../support/stack.js';
import {
  connectThroughPage,
  linkOf,
  reachable,
  requestConnect,
  simHost,
  submitKey,
} from './support/connect.js';

let stack: Stack;
let key: SimKey;
/** A key of the other organization, tried and refused on the way: it must not stick anywhere either. */
let otherKey: SimKey;

beforeAll(async () => {
  stack = await startStack({ connect: false });
  const [first, , third] = stack.sim.keys;
  if (!first || !third) throw new Error('the simulated API needs three keys');
  key = first;
  otherKey = third;

  // A refused attempt (wrong region) and a failed one (a wrong key), then the real connection.
  const { post } = await requestConnect(stack, SEEDED_USERS.admin);
  const url = reachable(stack, linkOf(post));
  expect((await submitKey(url, otherKey.apiKey, 'api.example.invalid')).status).toBe(400);
  expect((await submitKey(url, `${key.apiKey}x`, simHost(stack))).status).toBe(400);
  await connectThroughPage(stack, { userId: SEEDED_USERS.admin, apiKey: key.apiKey, tenantId: 2001 });

  // A few commands that use the key.
  const identifier = stack.sim.state.identifiers.find((i) => i.tenantId === 2001);
  if (!identifier) throw new Error('tenant 2001 has no identifiers');
  for (const [text, userId] of [
    ['status', SEEDED_USERS.member],
    ['tenants', SEEDED_USERS.member],
    ['tenant 2002', SEEDED_USERS.admin],
    ['audit', SEEDED_USERS.admin],
    [`events ${identifier.id}`, SEEDED_USERS.member],
  ] as const) {
    const responseUrl = stack.slack.responseUrl();
    await stack.sender.slashCommand({ text, userId, responseUrl });
    await stack.slack.waitForPost(
      (p) => p.path === new URL(responseUrl).pathname && p.body.replace_original !== undefined,
    );
  }
  await stack.sender.event({ type: 'app_home_opened', userId: SEEDED_USERS.admin });
  await stack.slack.waitFor('views.publish');
});
afterAll(async () => {
  await stack?.close();
});

/** The SQLite database and its journal files, as bytes. */
async function databaseFiles(): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const name of await readdir(stack.dataDir)) {
    if (name.startsWith('vigil.sqlite')) files.set(name, await readFile(join(stack.dataDir, name)));
  }
  return files;
}

describe('the API key leaves no trace', () => {
  it('was used: the workspace is connected and the API was called with it', async () => {
    expect(await stack.repos.workspaces.apiKey(stack.workspaceId)).toBe(key.apiKey);
    expect((await stack.repos.workspaces.get(stack.workspaceId))?.tenantId).toBe(2002);
    expect(stack.sim.log.entries.length).toBeGreaterThan(5);
  });

  it('is not in the SQLite files (main, -wal, -shm) while Vigil runs', async () => {
    const files = await databaseFiles();
    expect([...files.keys()]).toContain('vigil.sqlite');
    for (const [name, bytes] of files) {
      for (const secret of [key.apiKey, otherKey.apiKey]) {
        expect(bytes.indexOf(secret), `${secret.slice(0, 8)}… in ${name}`).toBe(-1);
        expect(bytes.indexOf(Buffer.from(secret, 'utf16le')), name).toBe(-1);
      }
    }
  });

  it('is not in any log line, nor is the bot token', () => {
    expect(stack.logs.length).toBeGreaterThan(10);
    const all = stack.logs.join('\n');
    expect(all).not.toContain(key.apiKey);
    expect(all).not.toContain(otherKey.apiKey);
    expect(all).not.toContain(DEFAULT_BOT_TOKEN);
    // Nor the bearer tokens the API issued for it.
    const bearers = stack.sim.log.entries
      .map((e) => /^Bearer (.+)$/.exec(String(e.headers.authorization ?? ''))?.[1])
      .filter((t): t is string => t !== undefined);
    expect(bearers.length).toBeGreaterThan(0);
    for (const bearer of new Set(bearers)) expect(all).not.toContain(bearer);
  });

  it('is not in anything sent to Slack', () => {
    const sent = stack.slack.allText();
    expect(sent).toContain('key id 501');
    expect(sent).not.toContain(key.apiKey);
    expect(sent).not.toContain(otherKey.apiKey);
  });

  it('is not in the SQLite files after shutdown either (WAL checkpointed)', async () => {
    await stack.vigil.stop();
    for (const [name, bytes] of await databaseFiles()) {
      expect(bytes.indexOf(key.apiKey), name).toBe(-1);
      expect(bytes.indexOf(otherKey.apiKey), name).toBe(-1);
    }
  });
});
