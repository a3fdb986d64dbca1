import { afterAll, beforeAll, it } from 'vitest';
import { SEEDED_USERS } from '../../../packages/playground/src/sim/slack/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import { type Stack, startStack } from '../../support/stack.js';
import { connectMcp } from './support/mcp-client.js';

const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0));
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ clock, env: { VIGIL_MCP: '1' } });
});
afterAll(async () => {
  await stack?.close();
});
it('probe', async () => {
  const c = await connectMcp(stack, clock, { userId: SEEDED_USERS.admin, blockKit: true });
  const tools = await c.listTools();
  console.log(JSON.stringify(tools.tools[0], null, 1));
  for (const [name, args] of [['search_events', { identifier: 3001 }], ['get_status', {}], ['search_leaked_credentials', {by:'domain', value:'acme.example'}], ['list_identifiers', {}], ['snooze_event', {event_uid: 'leak/x/1'}]] as const) {
    const r = await c.callTool({ name, arguments: args });
    console.log(name, JSON.stringify(r).slice(0, 1500));
  }
  await c.close();
});
