/**
 * A portal link to an event Vigil never showed in the workspace, through the real HTTP stack: Vigil looks the
 * link's uid up (`GET …/v4/events/?uid=`, checked by the contract-validating simulated API). The published
 * operation names no tenant and its answer carries none, so the card says the event cannot be vouched for
 * and shows none of its content, whichever tenant's it is; a uid the API does not know gets no card.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEntityPanel } from '../../support/entity-panel.js';
import type { Stack } from '../../support/stack.js';
import { until } from '../../support/until.js';
import { IDENTIFIER, SEEDED_USERS, startEventsStack } from '../events/support/events-stack.js';

type Json = Record<string, unknown>;
let stack: Stack;

beforeAll(async () => {
  stack = await startEventsStack();
});
afterAll(async () => {
  await stack?.close();
});

const asJson = (v: unknown): Json => (typeof v === 'string' ? (JSON.parse(v) as Json) : (v as Json));
const unfurls = () => stack.slack.callsTo('chat.unfurl');
const lookups = (uid: string) =>
  stack.sim.log.entries.filter(
    (e) => e.method === 'GET' && e.path.endsWith('/v4/events/') && e.query.uid === uid,
  );

/** Shares `url` in a message; the card Vigil unfurled it with, or undefined once Vigil decided on none. */
async function share(url: string): Promise<Json | undefined> {
  const before = unfurls().length;
  const decided = decisions();
  const res = await stack.sender.event({
    type: 'link_shared',
    fields: {
      channel: 'C0GENERAL',
      is_bot_user_member: true,
      message_ts: '1764000000.000300',
      links: [{ domain: new URL(url).hostname, url }],
    },
  });
  expect(res.status).toBe(200);
  // Vigil logs its decision on every portal link: unfurled as not verified, or not unfurled.
  await until('Vigil decided on the link', () => decisions() > decided);
  await stack.vigil.deps.tracker.idle();
  const call = unfurls()[before];
  if (call === undefined) return undefined;
  expect(call.response.ok).toBe(true);
  return (asJson(call.body.metadata).entities as Json[])[0];
}

const decisions = () =>
  stack.logs.filter((l) => /portal link (unfurled as not verified|not unfurled)/.test(l)).length;
const payloadOf = (entity: Json | undefined) => (entity?.entity_payload ?? {}) as Json;

describe('links to events Vigil never showed', () => {
  it('looks the uid up and unfurls a card that vouches for nothing: none of the event’s content', async () => {
    const uid = 'paste/wobj/unseen-1';
    const title = 'Unseen paste naming the acme admin';
    stack.sim.state.addEvent({
      tenantId: 2001,
      identifierIds: [IDENTIFIER.domain],
      createdAt: Date.now(),
      severity: 'critical',
      type: 'paste',
      title,
      uid,
    });
    const url = `https://app.flare.io/#/feed/2001/event/${encodeURIComponent(uid)}`;
    const card = await share(url);
    expect(lookups(uid).length).toBe(1);
    expect(card?.app_unfurl_url).toBe(url);
    expect(card?.external_ref).toEqual({ id: uid, type: 'flare_event' });
    const attributes = payloadOf(card).attributes as Json;
    expect((attributes.title as Json).text).toBe('Event not in this workspace’s feed');
    expect(Object.keys(payloadOf(card).fields as Json)).toEqual(['status']);
    expect(JSON.stringify(card)).not.toContain(title);
    expect(JSON.stringify(card)).not.toMatch(/critical/i);
  });

  it('shows another tenant’s event the API answers for no more than that', async () => {
    const foreign = stack.sim.state.events.find(
      (e) => e.tenantId === 2002 && !['stealer_log', 'bot'].includes(e.item.metadata.type),
    );
    if (!foreign) throw new Error('no seeded event of tenant 2002');
    const uid = foreign.item.metadata.uid;
    const card = await share(`https://app.flare.io/events/${encodeURIComponent(uid)}`);
    expect(lookups(uid).length).toBe(1);
    expect((payloadOf(card).attributes as Json).title).toEqual({
      text: 'Event not in this workspace’s feed',
    });
    const text = JSON.stringify(card);
    for (const fragments of Object.values(foreign.item.highlights))
      for (const f of fragments) expect(text).not.toContain(f.replace(/<\/?mark>/g, ''));
    expect(text).not.toContain(
      foreign.item.metadata.severity === 'info' ? 'Info' : foreign.item.metadata.severity,
    );
    // Its side panel is the not-known error, never data.
    const panel = await openEntityPanel(stack, {
      userId: SEEDED_USERS.member,
      url: `https://app.flare.io/events/${encodeURIComponent(uid)}`,
      uid,
    });
    expect(panel.body.metadata).toBeUndefined();
    expect(asJson(panel.body.error).status).toBe('not_found');
  });

  it('unfurls nothing for a uid the API does not know', async () => {
    const card = await share('https://app.flare.io/#/feed/2001/event/leak%2Fnowhere%2Fnever-1');
    expect(lookups('leak/nowhere/never-1').length).toBe(1);
    expect(card).toBeUndefined();
  });
});
