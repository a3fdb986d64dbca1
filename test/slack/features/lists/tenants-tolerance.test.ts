/**
 * `/vigil tenants` when tenant items lack an id or a name (the specification shows no field of a tenant item,
 * and the Swagger document requires none): every item that arrived is listed, with a generic label for what
 * is missing, never "0 tenant(s)".
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_USERS } from '../../../../src/sim/slack/index.js';
import { textOf } from '../../../harness/index.js';
import { type Stack, startStack } from '../../../support/stack.js';
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
