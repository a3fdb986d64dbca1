/**
 * Messages posted before events contexts had kinds: their contexts, stored as release 0.4.0 wrote them
 * (`v: 1`), still work through the running receiver. An alert stays an alert after a click, a digest a
 * digest, a page of "+N more" a page of results; a search pages on and shares as before.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { V1_ALERT, V1_DIGEST, V1_REST_PAGE, V1_TENANT_SEARCH } from '../../domain/events/v1-contexts.js';
import { textOf } from '../../harness/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import type { Stack } from '../../support/stack.js';
import {
  actionCalls,
  click,
  command,
  SEEDED_CHANNELS,
  SEEDED_USERS,
  startEventsStack,
  waitPostTo,
} from './support/events-stack.js';

const DAY = 24 * 3600_000;
const Loose = z.looseObject({ workspaceId: z.string() });

describe('events contexts stored before they had kinds', () => {
  let stack: Stack;
  const clock = new ManualClock(Date.UTC(2026, 10, 23, 9, 0));

  beforeEach(async () => {
    stack = await startEventsStack({ clock });
    // The events the old messages show, as the API still has them.
    for (const record of [V1_ALERT, V1_DIGEST, V1_REST_PAGE, V1_TENANT_SEARCH]) {
      const uid = record.events[0]?.event.metadata.uid ?? '';
      if (stack.sim.state.eventByUid(uid) !== undefined) continue;
      stack.sim.state.addEvent({
        tenantId: 2001,
        identifierIds: [3001],
        createdAt: clock.now() - 3600_000,
        severity: 'critical',
        type: 'stealer_log',
        uid,
      });
    }
  });
  afterEach(async () => {
    await stack.close();
  });

  /** Writes `record` into the store as it was, and gives a message whose buttons point at it. */
  async function posted(
    record: { workspaceId: string } & Record<string, unknown>,
    buttons: { actionId: string; index?: number }[],
  ) {
    const ctxId = await stack.repos.searchContexts(Loose).save(record, 30 * DAY);
    const elements = buttons.map((b) => ({
      type: 'button',
      action_id: b.actionId,
      text: { type: 'plain_text', text: b.actionId },
      value: b.index === undefined ? ctxId : `${ctxId}:${b.index}`,
    }));
    const block = buttons[0]?.index === undefined ? 'events:tail' : 'event:0';
    return { blocks: [{ type: 'actions', block_id: block, elements }] };
  }

  async function clicked(source: { blocks: unknown[] }, actionId: string) {
    const sent = await click(stack, source, actionId, { userId: SEEDED_USERS.member });
    expect(sent.status).toBe(200);
    return waitPostTo(stack, sent.responseUrl);
  }

  /** The context the buttons of a reply now point at, as stored. */
  async function storedBehind(reply: { body: unknown }) {
    const value = /"value":"([A-Za-z0-9_-]{12}):\d+"/.exec(JSON.stringify(reply.body))?.[1];
    return value === undefined ? undefined : stack.repos.searchContexts(Loose).get(value);
  }

  it('an alert is ignored and drawn again as an alert, its context now of kind alert', async () => {
    const reply = await clicked(
      await posted(V1_ALERT, [{ actionId: 'event_ignore:0', index: 0 }]),
      'event_ignore:0',
    );
    expect(actionCalls(stack)).toHaveLength(1);
    expect(JSON.stringify(reply.body)).toContain('"block_id":"alert:about"');
    expect(textOf(reply.body)).toContain(`Ignored by <@${SEEDED_USERS.member}>`);
    expect(await storedBehind(reply)).toMatchObject({ v: 2, kind: 'alert', heading: V1_ALERT.alert });
  });

  it('a digest is drawn again as a digest after a click', async () => {
    const reply = await clicked(
      await posted(V1_DIGEST, [{ actionId: 'event_ignore:0', index: 0 }]),
      'event_ignore:0',
    );
    expect(JSON.stringify(reply.body)).toContain('"block_id":"digest:header"');
    expect(textOf(reply.body)).toContain(`Ignored by <@${SEEDED_USERS.member}>`);
    expect(await storedBehind(reply)).toMatchObject({ v: 2, kind: 'digest', heading: V1_DIGEST.digest });
  });

  it('Share and Next page, which only results offer, are refused on a digest', async () => {
    const share = await clicked(
      await posted(V1_DIGEST, [{ actionId: 'share_in_channel' }]),
      'share_in_channel',
    );
    expect(textOf(share.body)).toContain('no longer points at a search');
    const next = await clicked(
      await posted(V1_DIGEST, [{ actionId: 'events_next_page' }]),
      'events_next_page',
    );
    expect(String(next.body.text)).toBe('This is the last page of these results.');
    expect(await stack.repos.audit.recent(stack.workspaceId, 1)).toEqual([]);
  });

  it('a page of "+N more" stays a page of results', async () => {
    const reply = await clicked(
      await posted(V1_REST_PAGE, [{ actionId: 'event_ignore:0', index: 0 }]),
      'event_ignore:0',
    );
    expect(JSON.stringify(reply.body)).not.toContain('"block_id":"alert:about"');
    expect(textOf(reply.body)).toContain(`Ignored by <@${SEEDED_USERS.member}>`);
    expect(await storedBehind(reply)).toMatchObject({ v: 2, kind: 'search', identifierId: 3001 });
  });

  it('a tenant-wide search pages on from its stored cursor, and shares in the channel', async () => {
    // The cursor the API gives today for the first page of the same search.
    const first = await command(stack, 'events all sort:severity', { userId: SEEDED_USERS.member });
    const cursor = ((await storedBehind(first.post)) as { cursor?: string } | undefined)?.cursor;
    expect(cursor).toBeDefined();
    const { message: _shared, ...unshared } = V1_TENANT_SEARCH;
    const next = await clicked(
      await posted({ ...unshared, cursor }, [{ actionId: 'events_next_page' }]),
      'events_next_page',
    );
    // Page 2 of the tenant-wide feed, after the one event the stored page showed.
    expect(String(next.body.text)).toMatch(/^Events 2–/);
    const search = stack.sim.log.entries.filter((e) => e.path.endsWith('/_search')).at(-1);
    expect(search?.path).toMatch(/\/events\/tenant\/_search$/);
    expect(search?.body).toMatchObject({ from: cursor });

    await clicked(await posted(unshared, [{ actionId: 'share_in_channel' }]), 'share_in_channel');
    const message = stack.slack.messages(SEEDED_CHANNELS.general).at(-1);
    expect(textOf(message)).toContain(V1_TENANT_SEARCH.events[0]?.event.metadata.uid ?? '-');
    const [shared] = await stack.repos.audit.recent(stack.workspaceId, 1);
    expect(shared).toMatchObject({ action: 'events.share', target: 'all' });
  });
});
