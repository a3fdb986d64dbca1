/**
 * A command that acks with a progress line ("Searching…", "Asking…", "Listing…") has that line replaced by
 * its answer, whether the answer is a result or an error: the placeholder never stays above an error.
 * Commands without a placeholder (the audit log) add their answer as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { command, IDENTIFIER, SEEDED_USERS } from '../features/events/support/events-stack.js';
import { textOf } from '../harness/index.js';
import { type Stack, startStack } from '../support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

describe('a progress placeholder', () => {
  it('is replaced by an upstream error, as a result replaces it', async () => {
    // 501 is the one server error that is not retried: the first answer is the outcome.
    stack.sim.faults.add({ path: /\/_search$/, response: { status: 501, body: 'boom' } });
    try {
      const { ack, post } = await command(stack, `events ${IDENTIFIER.domain}`);
      expect(JSON.stringify(ack)).toContain('Searching the events of identifier');
      expect(post.body).toMatchObject({ response_type: 'ephemeral', replace_original: true });
      expect(String(post.body.text)).toMatch(/\(ref [0-9A-F]{8}\)$/);
    } finally {
      stack.sim.faults.clear();
    }
  });

  it('is replaced by an error of explain and of policies too', async () => {
    const explained = await command(stack, 'explain leak/nowhere/1');
    expect(JSON.stringify(explained.ack)).toContain('Asking the threat-intel service');
    expect(explained.post.body.replace_original).toBe(true);
    stack.sim.faults.add({ path: /matching-policies/, response: { status: 500, body: 'boom' } });
    try {
      const listed = await command(stack, 'policies');
      expect(JSON.stringify(listed.ack)).toContain('Listing matching policies');
      expect(listed.post.body.replace_original).toBe(true);
    } finally {
      stack.sim.faults.clear();
    }
  });

  it('is replaced by a refusal', async () => {
    const { ack, post } = await command(stack, 'tenant 2002', { userId: SEEDED_USERS.member });
    expect(JSON.stringify(ack)).toContain('Switching to tenant 2002');
    expect(post.body.replace_original).toBe(true);
    expect(textOf(post)).toContain('Only workspace admins can switch the tenant.');
  });

  it('is not there for a command without one: its refusal is a new message', async () => {
    const { ack, post } = await command(stack, 'audit', { userId: SEEDED_USERS.member });
    expect(ack).toBeFalsy();
    expect(post.body.replace_original).toBe(false);
  });
});
