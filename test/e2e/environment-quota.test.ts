/**
 * A workspace connected from the environment (VIGIL_API_KEY) has no stored connection, yet its search quota
 * outlives a restart as a stored connection's does: a credentials search reports it, Vigil stops, a new
 * instance on the same store file tells it in `status` before any search.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSimApi } from '../../packages/playground/src/sim/api/index.js';
import { command, SEEDED_USERS } from '../features/events/support/events-stack.js';
import { textOf } from '../harness/index.js';
import { type Stack, startStack } from '../support/stack.js';

let folder: string;
let env: Record<string, string>;
const stacks: Stack[] = [];

beforeAll(async () => {
  // The simulated API's keys are seeded: a first instance tells the key each stack's simulator will have.
  const probe = await startSimApi();
  const key = probe.keys[0];
  await probe.close();
  if (!key) throw new Error('no simulated key');
  folder = await mkdtemp(join(tmpdir(), 'vigil-env-quota-'));
  env = {
    VIGIL_API_KEY: key.apiKey,
    VIGIL_TENANT_ID: String(key.defaultTenantId),
    VIGIL_STORE: `sqlite://${join(folder, 'vigil.sqlite')}`,
    VIGIL_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  };
});
afterAll(async () => {
  for (const s of stacks) await s.close().catch(() => {});
  await rm(folder, { recursive: true, force: true });
});

const QUOTA = /\*Global searches left:\* (\d+) · as of <!date\^(\d+)\^/;

async function start(): Promise<Stack> {
  const stack = await startStack({ connect: false, env });
  stacks.push(stack);
  return stack;
}

it('tells the search quota last seen after a restart, before any new search', async () => {
  const first = await start();
  const searched = await command(first, 'creds domain acme.example', { userId: SEEDED_USERS.admin });
  expect(textOf(searched.post.body)).toMatch(/acme\.example/);
  const before = QUOTA.exec(textOf((await command(first, 'status')).post.body));
  expect(before).not.toBeNull();
  await first.close();
  stacks.length = 0;

  const second = await start();
  const status = textOf((await command(second, 'status')).post.body);
  expect(status).not.toContain('not reported yet');
  const after = QUOTA.exec(status);
  // The same figure, as of the same moment: read from the store, not asked again.
  expect(after?.[1]).toBe(before?.[1]);
  expect(after?.[2]).toBe(before?.[2]);
  expect(second.sim.log.entries.filter((e) => /_search$/.test(e.path))).toHaveLength(0);
});
