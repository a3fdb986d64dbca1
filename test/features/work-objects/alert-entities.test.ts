/**
 * Vigil's own alert messages carry their events' entities (Work Objects), and the card of one opens the
 * same side panel as a pasted link: the real alert scheduler ticked by hand, through the fake Slack.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Ticker } from '../../../src/domain/subscriptions/ticker.js';
import { openEntityPanel } from '../../support/entity-panel.js';
import { ManualClock } from '../../support/manual-clock.js';
import { type Stack, startStack } from '../../support/stack.js';
import { command, SEEDED_CHANNELS, SEEDED_USERS } from '../events/support/events-stack.js';

type Json = Record<string, unknown>;
const START = Date.UTC(2026, 10, 23, 9, 0);
const manual: Ticker = { every: () => ({ cancel() {} }) };
let stack: Stack;
let clock: ManualClock;

beforeAll(async () => {
  clock = new ManualClock(START);
  stack = await startStack({ sim: { emptyPageEvery: 0 }, clock, alertTicker: manual, open: ['subscribe'] });
});
afterAll(async () => {
  await stack?.close();
});

it('posts an alert whose metadata holds the event’s entity, and opens its panel from the card', async () => {
  await command(stack, 'alerts add identifiers:3001 severity:critical');
  await stack.runAlerts();
  clock.advance(5_000);
  stack.sim.state.addEvent({
    tenantId: stack.sim.keys[0]?.defaultTenantId ?? 0,
    identifierIds: [3001],
    createdAt: clock.now(),
    severity: 'critical',
    type: 'stealer_log',
    title: 'Admin credentials for acme.example in a stealer log',
    uid: 'leak/wobj/1',
  });
  clock.advance(55_000);
  await stack.runAlerts();
  const alert = stack.slack
    .messages(SEEDED_CHANNELS.general)
    .find((m) => (m.metadata as Json | undefined)?.event_type === 'vigil_alert');
  if (!alert) throw new Error('no alert was posted');
  const entities = (alert.metadata as Json).entities as Json[];
  expect(entities).toHaveLength(1);
  const entity = entities[0] as Json;
  expect(entity).toMatchObject({
    entity_type: 'slack#/entities/incident',
    external_ref: { id: 'leak/wobj/1', type: 'flare_event' },
  });
  expect(String(entity.url)).toMatch(/^https:\/\/app\.flare\.io\//);

  const call = await openEntityPanel(stack, {
    userId: SEEDED_USERS.member,
    url: String(entity.url),
    uid: 'leak/wobj/1',
    channel: SEEDED_CHANNELS.general,
    ts: alert.ts,
  });
  expect(call.response.ok).toBe(true);
  const metadata = (
    typeof call.body.metadata === 'string' ? JSON.parse(call.body.metadata) : call.body.metadata
  ) as Json;
  expect((metadata.external_ref as Json).id).toBe('leak/wobj/1');
});
