/**
 * Work Objects through the real HTTP stack: signed `link_shared` and `entity_details_requested` events and
 * panel actions and edits (a view submission carrying the entity) into the receiver; the fake Slack holds
 * `chat.unfurl` and `entity.presentDetails` to the published shapes (its refusals fail the test). A link
 * unfurls only once Vigil has seen its event in this workspace's tenant; the panel differs by permission;
 * nothing of another tenant reaches any unfurl.
 */
import { join } from 'node:path';
import KeyvSqlite from '@keyv/sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEntityPanel } from '../../support/entity-panel.js';
import type { Stack } from '../../support/stack.js';
import { until } from '../../support/until.js';
import { command, IDENTIFIER, SEEDED_USERS, startEventsStack } from '../events/support/events-stack.js';

type Json = Record<string, unknown>;
let stack: Stack;
/** An event the search showed, and its portal link as the API gave it. */
let shown: { uid: string; url: string; severity: string };

beforeAll(async () => {
  stack = await startEventsStack();
  const { post } = await command(stack, `events ${IDENTIFIER.domain} size:3`);
  const text = JSON.stringify(post.body);
  const event = stack.sim.state.events.find(
    (e) => e.tenantId === 2001 && text.includes(e.item.metadata.uid.split('/').pop() ?? '\u0000'),
  );
  if (!event) throw new Error('the search showed no seeded event');
  shown = {
    uid: event.item.metadata.uid,
    url: event.item.metadata.flare_url,
    severity: String(event.item.metadata.severity),
  };
});
afterAll(async () => {
  await stack?.close();
});

const unfurls = () => stack.slack.callsTo('chat.unfurl');
const asJson = (v: unknown): Json => (typeof v === 'string' ? (JSON.parse(v) as Json) : (v as Json));

async function share(url: string, extra: Json = {}) {
  const before = unfurls().length;
  const res = await stack.sender.event({
    type: 'link_shared',
    fields: {
      channel: 'C0GENERAL',
      user: SEEDED_USERS.member,
      is_bot_user_member: true,
      message_ts: '1764000000.000100',
      links: [{ domain: new URL(url).hostname, url }],
      ...extra,
    },
  });
  expect(res.status).toBe(200);
  return before;
}

/** Links Vigil decided not to unfurl, as its log says (one line each, with the reason). */
const notUnfurled = (reason: string) =>
  stack.logs.filter((l) => l.includes('portal link not unfurled') && l.includes(reason)).length;

/** Waits until Vigil logged `n` more links not unfurled for `reason` than `from`. */
async function refused(reason: string, from: number, n = 1): Promise<void> {
  await until(`${n} link(s) not unfurled (${reason})`, () => notUnfurled(reason) >= from + n);
  await stack.tracker.idle();
}

/** Reconnects the workspace as the stack does (the first simulated key, tenant 2001). */
async function reconnect(): Promise<void> {
  const key = stack.sim.keys[0];
  if (!key) throw new Error('no simulated key');
  await stack.repos.workspaces.put(stack.workspaceId, {
    teamId: stack.workspaceId,
    apiHost: new URL(stack.sim.url).host,
    apiKey: key.apiKey,
    apiKeyId: key.apiKeyId,
    organizationId: key.organizationId,
    tenantId: key.defaultTenantId,
    tenantName: 'Default tenant',
    scopes: key.scopes,
    connectedBy: SEEDED_USERS.admin,
  });
}

async function openPanel(userId: string, extra: Json = {}) {
  const call = await openEntityPanel(stack, {
    userId,
    url: shown.url,
    uid: shown.uid,
    channel: 'C0GENERAL',
    ts: '1764000000.000100',
    extra: { app_unfurl_url: shown.url, ...extra },
  });
  expect(call.response.ok).toBe(true);
  return {
    metadata: call.body.metadata ? asJson(call.body.metadata) : undefined,
    error: call.body.error ? asJson(call.body.error) : undefined,
  };
}

/** Every record value in the stack's SQLite file, read through a connection of its own. */
async function storedValues(): Promise<string[]> {
  const adapter = new KeyvSqlite({
    uri: `sqlite://${join(stack.dataDir, 'vigil.sqlite')}`,
    busyTimeout: 5_000,
  });
  try {
    const rows = (await adapter.query('SELECT value FROM keyv')) as Array<{ value: string }>;
    return rows.map((r) => String(r.value));
  } finally {
    await adapter.disconnect();
  }
}

const payloadOf = (entity: Json | undefined) => (entity?.entity_payload ?? {}) as Json;
const actionIds = (entity: Json | undefined) => {
  const actions = (payloadOf(entity).actions ?? {}) as Json;
  return [
    ...((actions.primary_actions as Json[]) ?? []),
    ...((actions.overflow_actions as Json[]) ?? []),
  ].map((a) => String(a.action_id));
};
/**
 * Where a click in the side panel comes from, as Slack sends it: a block_actions payload whose container is
 * `{type: 'entity_detail', message_ts, channel_id, external_ref, entity_url, app_unfurl_url}`, with no view
 * and no response_url. Source: HubSpot/slack-client (a production Slack client), `models/interaction/
 * EntityDetailContainerIF.java` and `Container.java` (`entity_detail` among block actions' containers),
 * added with its Work Object flexpane actions (github.com/HubSpot/slack-client/pull/393); Slack's own SDKs
 * type only the buttons (@slack/types `EntityActionButton`) and the edit's view (@slack/bolt `ViewOutput`
 * with `entity_url`, `external_ref`).
 */
const panelClick = (uid = shown.uid) => ({
  container: 'entity_detail' as const,
  entity: { externalRef: { id: uid, type: 'flare_event' }, entityUrl: shown.url, appUnfurlUrl: shown.url },
});
const customKeys = (entity: Json | undefined) =>
  ((payloadOf(entity).custom_fields as Json[]) ?? []).map((f) => String(f.key));

describe('unfurls', () => {
  it('unfurls a sent portal link to an event Vigil showed as an incident entity, with the URL exactly as posted', async () => {
    const before = await share(shown.url);
    const call = await stack.slack.waitFor((c) => c.method === 'chat.unfurl' && unfurls().length > before);
    expect(call.response.ok).toBe(true);
    expect(call.body.channel).toBe('C0GENERAL');
    expect(call.body.ts).toBe('1764000000.000100');
    const entity = (asJson(call.body.metadata).entities as Json[])[0] as Json;
    expect(entity.entity_type).toBe('slack#/entities/incident');
    expect(entity.app_unfurl_url).toBe(shown.url);
    expect(entity.external_ref).toEqual({ id: shown.uid, type: 'flare_event' });
    const fields = payloadOf(entity).fields as Json;
    expect((fields.priority as Json).tag_color).toBeTypeOf('string');
    expect((fields.status as Json).value).toMatch(/Open|Ignored|Remediated/);
    // The card is seen by the whole conversation: no highlights, no AI text, no actions.
    expect(fields.description).toBeUndefined();
    expect(payloadOf(entity).actions).toBeUndefined();
  });

  it('unfurls a link still in the composer by its unfurl id', async () => {
    const before = await share(shown.url, { unfurl_id: 'C0GENERAL.1764000000.000200', source: 'composer' });
    const call = await stack.slack.waitFor((c) => c.method === 'chat.unfurl' && unfurls().length > before);
    expect(call.body.unfurl_id).toBe('C0GENERAL.1764000000.000200');
    expect(call.body.source).toBe('composer');
    expect(call.body.channel).toBeUndefined();
  });

  it('finds the event by the uid the link carries, whatever else the link says', async () => {
    const other = `https://app.eu.flare.io/#/feed/2001/event/${encodeURIComponent(shown.uid)}?from=slack`;
    const before = await share(other);
    const call = await stack.slack.waitFor((c) => c.method === 'chat.unfurl' && unfurls().length > before);
    const entity = (asJson(call.body.metadata).entities as Json[])[0] as Json;
    expect(entity.app_unfurl_url).toBe(other);
    expect((entity.external_ref as Json).id).toBe(shown.uid);
  });

  it('leaves alone an unknown event, another tenant’s link and a host that is not the portal', async () => {
    const before = unfurls().length;
    const [unknown, other] = [notUnfurled('unknown'), notUnfurled('other-tenant')];
    await share(`https://evil.example/#/feed/2001/event/${encodeURIComponent(shown.uid)}`);
    await share('https://app.flare.io/#/feed/2001/event/leak%2Fnowhere%2Fnever-seen');
    await refused('unknown', unknown);
    await share(`https://app.flare.io/#/feed/2002/event/${encodeURIComponent(shown.uid)}`);
    await refused('other-tenant', other);
    expect(unfurls().length).toBe(before);
  });

  it('shows nothing of an event once the workspace uses another tenant, and nothing when not connected', async () => {
    const before = unfurls().length;
    await stack.repos.workspaces.switchTenant(stack.workspaceId, { tenantId: 2002 });
    try {
      const other = notUnfurled('other-tenant');
      await share(shown.url);
      await refused('other-tenant', other);
      expect(unfurls().length).toBe(before);
      const panel = await openPanel(SEEDED_USERS.member);
      expect(panel.metadata).toBeUndefined();
      // The same answer as for a uid Vigil never saw: nothing tells it is another tenant's.
      expect(panel.error).toEqual({
        status: 'not_found',
        custom_title: 'Event not known to Vigil',
        custom_message:
          'Vigil has not shown this event in this workspace’s tenant. Search for it with /vigil events.',
      });
    } finally {
      await stack.repos.workspaces.switchTenant(stack.workspaceId, { tenantId: 2001 });
    }
    await stack.repos.workspaces.delete(stack.workspaceId);
    try {
      const unconnected = notUnfurled('not-connected');
      await share(shown.url);
      await refused('not-connected', unconnected);
      expect(unfurls().length).toBe(before);
      const panel = await openPanel(SEEDED_USERS.member);
      expect(panel.metadata).toBeUndefined();
      expect(panel.error?.custom_title).toMatch(/not connected/);
    } finally {
      await reconnect();
    }
  });
});

describe('the side panel', () => {
  it('differs by permission: who may act gets actions and editable fields, who may not gets neither', async () => {
    const admin = await openPanel(SEEDED_USERS.admin);
    expect(admin.metadata?.entity_type).toBe('slack#/entities/incident');
    expect(actionIds(admin.metadata)).toEqual(expect.arrayContaining(['vigil_entity_explain']));
    const adminActs = actionIds(admin.metadata).some((a) => /ignore|remediate/.test(a));
    expect(adminActs).toBe(true);
    await stack.repos.settings.setActors(stack.workspaceId, 'admins', SEEDED_USERS.admin);
    try {
      const member = await openPanel(SEEDED_USERS.member);
      expect(actionIds(member.metadata).some((a) => /ignore|remediate/.test(a))).toBe(false);
      const fields = payloadOf(member.metadata).fields as Json;
      expect((fields.priority as Json).edit).toBeUndefined();
    } finally {
      await stack.repos.settings.setActors(stack.workspaceId, 'everyone', SEEDED_USERS.admin);
    }
  });

  it('gives a member of another workspace an error panel, not data', async () => {
    const panel = await openPanel('U0OTHER01');
    expect(panel.metadata).toBeUndefined();
    expect(panel.error?.status).toBe('restricted');
  });

  it('gives someone who may not use Vigil here an error panel, not data', async () => {
    await stack.repos.settings.setPermission(stack.workspaceId, 'use', 'admins', SEEDED_USERS.admin);
    try {
      const panel = await openPanel(SEEDED_USERS.member);
      expect(panel.metadata).toBeUndefined();
      expect(panel.error).toMatchObject({ status: 'restricted', custom_title: 'Not available to you' });
    } finally {
      await stack.repos.settings.setPermission(stack.workspaceId, 'use', 'everyone', SEEDED_USERS.admin);
    }
  });

  it('ignores from the panel through act-once, audited, and presents the panel again with Undo and who acted', async () => {
    const before = stack.sim.log.entries.filter((e) => e.path.endsWith('/v4/events/actions')).length;
    const triggerId = stack.slack.triggerId();
    await stack.sender.blockAction({
      actionId: 'vigil_entity_ignore',
      value: shown.uid,
      ...panelClick(),
      userId: SEEDED_USERS.admin,
      triggerId,
    });
    const call = await stack.slack.waitFor(
      (c) => c.method === 'entity.presentDetails' && c.body.trigger_id === triggerId,
    );
    const entity = asJson(call.body.metadata);
    expect(((payloadOf(entity).fields as Json).status as Json).value).toBe('Ignored');
    expect(customKeys(entity)).toContain('state_by');
    expect(actionIds(entity)).toContain('vigil_entity_unignore');
    expect(stack.sim.log.entries.filter((e) => e.path.endsWith('/v4/events/actions')).length).toBe(
      before + 1,
    );
    const audit = await stack.repos.audit.recent(stack.workspaceId, 5);
    expect(audit.some((e) => e.action === 'event.ignore' && e.target === shown.uid)).toBe(true);
  });

  it('edits the severity override and tags through triage (a view submission carrying the entity), audited, re-presented', async () => {
    const [target, label] = shown.severity === 'info' ? ['low', 'Low'] : ['info', 'Info'];
    const triggerId = stack.slack.triggerId();
    const res = await stack.sender.viewSubmission({
      callbackId: '',
      triggerId,
      userId: SEEDED_USERS.admin,
      view: {
        type: 'entity_detail',
        external_ref: { id: shown.uid, type: 'flare_event' },
        entity_url: shown.url,
        app_unfurl_url: shown.url,
      },
      values: {
        severity_override: {
          severity_override: { type: 'static_select', selected_option: { value: target } },
        },
        tags: {
          tags: { type: 'multi_static_select', selected_options: [{ value: 'vip' }, { value: 'wobj' }] },
        },
      },
    });
    expect(res.status).toBe(200);
    const call = await stack.slack.waitFor(
      (c) => c.method === 'entity.presentDetails' && c.body.trigger_id === triggerId,
    );
    const entity = asJson(call.body.metadata);
    const priority = (payloadOf(entity).fields as Json).priority as Json;
    expect(String(priority.value)).toContain(`→ ${label}`);
    const tags = (payloadOf(entity).custom_fields as Json[]).find((f) => f.key === 'tags') as Json;
    expect((tags.value as Json[]).map((t) => t.value)).toEqual(expect.arrayContaining(['vip', 'wobj']));
    const patches = stack.sim.log.entries.filter(
      (e) => e.method === 'PATCH' && e.path.endsWith('/v4/events/tenant/metadata'),
    );
    expect(patches.length).toBeGreaterThan(0);
    const audit = await stack.repos.audit.recent(stack.workspaceId, 10);
    expect(audit.some((e) => e.action === 'event.severity' && e.target === shown.uid)).toBe(true);
    expect(audit.some((e) => e.action === 'event.tags' && e.target === shown.uid)).toBe(true);
  });

  it('refuses an edit by someone who may not act, beside the field, with no call upstream', async () => {
    await stack.repos.settings.setActors(stack.workspaceId, 'admins', SEEDED_USERS.admin);
    try {
      const patchesBefore = stack.sim.log.entries.filter((e) => e.method === 'PATCH').length;
      const res = await stack.sender.viewSubmission({
        callbackId: '',
        userId: SEEDED_USERS.member,
        view: {
          type: 'entity_detail',
          external_ref: { id: shown.uid, type: 'flare_event' },
          entity_url: shown.url,
        },
        values: {
          severity_override: {
            severity_override: { type: 'static_select', selected_option: { value: 'low' } },
          },
        },
      });
      expect(res.body).toMatchObject({ response_action: 'errors' });
      expect(JSON.stringify(res.body)).toContain('severity_override');
      await stack.tracker.idle();
      expect(stack.sim.log.entries.filter((e) => e.method === 'PATCH').length).toBe(patchesBefore);
    } finally {
      await stack.repos.settings.setActors(stack.workspaceId, 'everyone', SEEDED_USERS.admin);
    }
  });

  it('explains on request: the AI assistance text appears in the panel', async () => {
    const triggerId = stack.slack.triggerId();
    await stack.sender.blockAction({
      actionId: 'vigil_entity_explain',
      value: shown.uid,
      ...panelClick(),
      userId: SEEDED_USERS.member,
      triggerId,
    });
    const call = await stack.slack.waitFor(
      (c) => c.method === 'entity.presentDetails' && c.body.trigger_id === triggerId,
    );
    expect(customKeys(asJson(call.body.metadata))).toContain('ai_assistance');
  });
});

describe('snooze from the side panel', () => {
  /** A signed click of one of the panel's buttons; the panel presented again for its trigger, if any. */
  async function click(actionId: string, userId: string) {
    const triggerId = stack.slack.triggerId();
    const res = await stack.sender.blockAction({
      actionId,
      value: shown.uid,
      ...panelClick(),
      userId,
      triggerId,
    });
    expect(res.status).toBe(200);
    return triggerId;
  }
  const presented = (triggerId: string) =>
    stack.slack
      .waitFor((c) => c.method === 'entity.presentDetails' && c.body.trigger_id === triggerId)
      .then((c) => asJson(c.body.metadata));
  const running = () =>
    stack.repos.snoozes
      .active(stack.workspaceId, stack.clock.now())
      .then((all) => all.filter((s) => s.target.kind === 'event' && s.target.uid === shown.uid));

  it('offers Snooze to who may act; a click snoozes the event (audited) and presents the panel again with who snoozed it', async () => {
    const before = await openPanel(SEEDED_USERS.admin);
    expect(actionIds(before.metadata)).toEqual(
      expect.arrayContaining(['vigil_entity_snooze_1h', 'vigil_entity_snooze_1d', 'vigil_entity_snooze_7d']),
    );
    const clock = stack.clock;
    const from = clock.now();
    const entity = await presented(await click('vigil_entity_snooze_1d', SEEDED_USERS.admin));
    const [snooze] = await running();
    expect(snooze?.by).toBe(SEEDED_USERS.admin);
    expect(snooze?.until).toBeGreaterThanOrEqual(from + 24 * 3600_000);
    expect(snooze?.until).toBeLessThanOrEqual(clock.now() + 24 * 3600_000);
    expect(customKeys(entity)).toEqual(expect.arrayContaining(['snoozed_until', 'snoozed_by']));
    expect(actionIds(entity)).toContain('vigil_entity_unsnooze');
    expect(actionIds(entity)).not.toContain('vigil_entity_snooze_1d');
    const audit = await stack.repos.audit.recent(stack.workspaceId, 5);
    expect(audit.some((e) => e.action === 'snooze.add' && e.target === `event ${shown.uid}`)).toBe(true);

    const after = await presented(await click('vigil_entity_unsnooze', SEEDED_USERS.admin));
    expect(await running()).toEqual([]);
    expect(customKeys(after)).not.toContain('snoozed_until');
    expect(actionIds(after)).toContain('vigil_entity_snooze_1h');
  });

  it('refuses a snooze click by someone who may not act: nothing snoozed, told in their DM, no panel', async () => {
    await stack.repos.settings.setActors(stack.workspaceId, 'admins', SEEDED_USERS.admin);
    try {
      const offered = await openPanel(SEEDED_USERS.member);
      expect(actionIds(offered.metadata).some((a) => a.startsWith('vigil_entity_snooze_'))).toBe(false);
      const dms = () =>
        stack.slack.callsTo('chat.postMessage').filter((c) => c.body.channel === SEEDED_USERS.member).length;
      const dmsBefore = dms();
      const triggerId = await click('vigil_entity_snooze_7d', SEEDED_USERS.member);
      await until('the refusal in the DM', () => dms() > dmsBefore);
      await stack.tracker.idle();
      expect(await running()).toEqual([]);
      expect(stack.slack.callsTo('entity.presentDetails').some((c) => c.body.trigger_id === triggerId)).toBe(
        false,
      );
    } finally {
      await stack.repos.settings.setActors(stack.workspaceId, 'everyone', SEEDED_USERS.admin);
    }
  });
});

describe('masked values', () => {
  it('masks a password in the card and the panel; Reveal is offered to who may reveal, shows it to them alone, audited', async () => {
    const secret = 'Tr0ub4dor&3xyz!';
    const marked = 'S3cr3t!Pass';
    const added = stack.sim.state.addEvent({
      tenantId: 2001,
      identifierIds: [IDENTIFIER.domain],
      createdAt: Date.now(),
      severity: 'high',
      type: 'paste',
      title: `Paste lists admin login acme with ${secret}`,
      uid: 'paste/wobj/secret-1',
    });
    added.item.highlights.description = [`login for acme.example: admin / <mark>${marked}</mark>`];
    await command(stack, `events ${IDENTIFIER.domain} since:1h size:10`);
    // The search context and the portal-event record keep the highlights with those words masked.
    const held = await storedValues();
    expect(held.some((v) => v.includes('paste/wobj/secret-1'))).toBe(true);
    for (const word of [secret, marked]) expect(held.filter((v) => v.includes(word))).toEqual([]);
    const url = `https://app.flare.io/#/feed/2001/event/${encodeURIComponent('paste/wobj/secret-1')}`;
    const before = await share(url);
    const card = await stack.slack.waitFor((c) => c.method === 'chat.unfurl' && unfurls().length > before);
    expect(JSON.stringify(card.body)).not.toContain(secret);

    const open = (userId: string) => openEntityPanel(stack, { userId, url, uid: 'paste/wobj/secret-1' });
    const member = await open(SEEDED_USERS.member);
    expect(JSON.stringify(member.body)).not.toContain(secret);
    expect(actionIds(asJson(member.body.metadata))).not.toContain('vigil_entity_reveal');
    const admin = await open(SEEDED_USERS.admin);
    expect(JSON.stringify(admin.body)).not.toContain(secret);
    expect(actionIds(asJson(admin.body.metadata))).toContain('vigil_entity_reveal');

    const triggerId = stack.slack.triggerId();
    await stack.sender.blockAction({
      actionId: 'vigil_entity_reveal',
      value: 'paste/wobj/secret-1',
      container: 'entity_detail',
      entity: { externalRef: { id: 'paste/wobj/secret-1', type: 'flare_event' } },
      userId: SEEDED_USERS.admin,
      triggerId,
    });
    const revealed = await stack.slack.waitFor(
      (c) => c.method === 'entity.presentDetails' && c.body.trigger_id === triggerId,
    );
    expect(JSON.stringify(revealed.body)).toContain('Tr0ub4dor');
    expect(JSON.stringify(revealed.body)).toContain(marked);
    // Read live from the API, about the identifier the event matched; still nothing stored in clear.
    const asked = stack.sim.log.entries.filter((e) => e.path.endsWith('/paste/wobj/secret-1/highlights'));
    expect(asked.map((e) => [e.method, e.body])).toEqual([['POST', { identifier_ids: [IDENTIFIER.domain] }]]);
    for (const word of [secret, marked])
      expect((await storedValues()).filter((v) => v.includes(word))).toEqual([]);
    const audit = await stack.repos.audit.recent(stack.workspaceId, 5);
    expect(audit.some((e) => e.action === 'event.reveal' && e.target === 'paste/wobj/secret-1')).toBe(true);
  });
});
