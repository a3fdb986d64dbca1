/**
 * Progress of a tool call: the official MCP client asks with `onprogress` (it sends a `progressToken` in the
 * call's `_meta`) and receives `notifications/progress` before the result — the permission checked, the API
 * asked, the answer ready — each a higher `progress`; a call without `onprogress` gets none, and a call refused
 * by permission stops after the check.
 */
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_USERS } from '../../../packages/playground/src/sim/slack/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import { type Stack, startStack } from '../../support/stack.js';
import { connectMcp, resultText } from './support/mcp-client.js';

const GUEST = 'U0GUEST01';
const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0));
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ clock, env: { VIGIL_MCP: '1' } });
  stack.slack.addUser({ id: GUEST, name: 'gus', is_restricted: true });
});
afterAll(async () => {
  await stack?.close();
});

describe('notifications/progress', () => {
  it('a search reports each step before its result, in order', async () => {
    const client = await connectMcp(stack, clock, { userId: SEEDED_USERS.admin });
    const seen: Progress[] = [];
    let resultAt = -1;
    const result = await client
      .callTool({ name: 'search_events', arguments: { identifier: 3001 } }, undefined, {
        onprogress: (p) => seen.push(p),
      })
      .then((r) => {
        resultAt = seen.length;
        return r;
      });
    expect(resultText(result)).toContain('acme.example');
    expect(seen.map((p) => p.message)).toEqual([
      'Permission checked',
      'Asking the threat-intel API',
      'The answer is ready',
    ]);
    expect(seen.map((p) => p.progress)).toEqual([1, 2, 3]);
    expect(resultAt).toBe(3);
    await client.close();
  });

  it('none without a progress token; a refused call stops before the API', async () => {
    const admin = await connectMcp(stack, clock, { userId: SEEDED_USERS.admin });
    const quiet: Progress[] = [];
    admin.fallbackNotificationHandler = async (n) => {
      if (n.method === 'notifications/progress') quiet.push(n.params as Progress);
    };
    await admin.callTool({ name: 'list_identifiers', arguments: {} });
    expect(quiet).toEqual([]);
    await admin.close();

    const guest = await connectMcp(stack, clock, { userId: GUEST });
    const seen: Progress[] = [];
    const refused = await guest.callTool({ name: 'search_events', arguments: {} }, undefined, {
      onprogress: (p) => seen.push(p),
    });
    expect(refused.isError).toBe(true);
    expect(seen.map((p) => p.message)).toEqual(['The answer is ready']);
    await guest.close();
  });
});
