/**
 * `/vigil tenants` when tenant items lack an id or a name (the specification shows no field of a tenant item,
 * and the Swagger document requires none): every item that arrived is listed, with a generic label for what
 * is missing, never "0 tenant(s)".
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_USERS } from '../../../packages/playground/src/sim/slack/index.js';
import { textOf } from '../../harness/index.js';
import { type Stack, startStack } from '../../support/stack.js';
import { command } from './support.js';

type Json = Record<string, unknown>;

describe('tenant items without id or name', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ sim: { emptyPageEvery: 0 } });
  });
  afterAll(async () => {
    await stack?.close();
  });
  afterEach(() => stack.sim.faults.clear());

  it('are listed with what they have and a label for the rest', async () => {
    stack.sim.faults.add({
      path: /\/tenants$/,
      response: {
        drift: (body) => {
          const items = (body as { items: Json[] }).items;
          // The first without its id, the second without its name, the third with neither.
          const [a, b, c] = items;
          if (a) delete a.id;
          if (b) delete b.name;
          if (c) {
            delete c.id;
            delete c.name;
          }
          return body;
        },
      },
    });
    const { post } = await command(stack, 'tenants', { userId: SEEDED_USERS.admin });
    expect(String(post.body.text)).toBe('3 tenant(s); tenant 2001 is in use.');
    const text = textOf(post.body);
    expect(text).toContain('*Acme Production* (no id given)');
    expect(text).toContain('*Unnamed tenant* (id 2002)');
    expect(text).toContain('*Unnamed tenant* (no id given)');
    expect(text).not.toContain('No tenants are visible');
  });
});

describe('lean answers (a tenant item with no field at all)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ sim: { emptyPageEvery: 0, answers: 'lean' } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('still lists every tenant that arrived', async () => {
    const { post } = await command(stack, 'tenants', { userId: SEEDED_USERS.admin });
    expect(String(post.body.text)).toBe('3 tenant(s); tenant 2001 is in use.');
    expect([...textOf(post.body).matchAll(/\*Unnamed tenant\* \(no id given\)/g)]).toHaveLength(3);
    expect(stack.sim.contractViolations).toEqual([]);
  });
});

describe('rich answers (names of 5,000 characters)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ sim: { emptyPageEvery: 0, answers: 'rich' } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('keep a tenant name as a label of at most 100 characters, which Slack accepts wherever it shows', async () => {
    const { post } = await command(stack, 'tenants', { userId: SEEDED_USERS.admin });
    expect(post.status).toBe(200);
    const names = [...textOf(post.body).matchAll(/\*([^*\n]+)\* \(id \d+\)/g)].map((m) => m[1] ?? '');
    expect(names).toHaveLength(3);
    for (const n of names) expect(n.endsWith('…')).toBe(true);
    // Switching stores the name; the disconnect prompt and App Home show it.
    await command(stack, 'tenant 2002', { userId: SEEDED_USERS.admin });
    const stored = await stack.repos.workspaces.get(stack.workspaceId);
    expect([...(stored?.tenantName ?? '')].length).toBe(100);
    const prompt = await command(stack, 'disconnect', { userId: SEEDED_USERS.admin });
    expect(prompt.post.status).toBe(200);
    expect(stack.slack.responseUrlPosts.filter((p) => p.status >= 400)).toEqual([]);
  });
});
