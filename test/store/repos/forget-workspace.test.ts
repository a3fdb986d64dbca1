/**
 * Forgetting a workspace as uninstall does it, proven on the raw data: data is written through every
 * repository for two workspaces, one is deleted, and the backend's own keys and values are searched for it.
 */
import type { Installation } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OAuthGrants } from '../../../src/features/mcp/oauth/grants.js';
import type { Store } from '../../../src/store/backend/store.js';
import { NAMESPACES } from '../../../src/store/repos/namespaces.js';
import {
  BACKENDS,
  type BackendKind,
  rawEntries,
  type StoreFixture,
  useStoreFixture,
} from '../support/backends.js';
import { reposFor } from '../support/repos.js';

const GONE = 'TGONE0001';
const KEPT = 'TKEPT0002';
const Anything = z.object({ note: z.string() });
const Context = z.object({ workspaceId: z.string(), query: z.string() });

async function writeEverything(store: Store, repos: ReturnType<typeof reposFor>['repos'], ws: string) {
  // Both workspaces of one organization's org-wide install: its list names each.
  await repos.orgTeams.remember(ws, 'E0FORGET1');
  await repos.workspaces.put(ws, {
    teamId: ws,
    apiHost: 'api.flare.io',
    apiKey: `fw_live_key_of_${ws}`,
    apiKeyId: 1,
    organizationId: 2,
    tenantId: 3,
    scopes: [],
    connectedBy: 'U0ADMIN',
  });
  const install: Installation<'v2', false> = {
    team: { id: ws },
    enterprise: undefined,
    user: { id: 'U0ADMIN', token: undefined, scopes: undefined },
    bot: { token: `xoxb-${ws}`, scopes: ['commands'], id: 'B1', userId: 'U0BOT' },
  };
  await repos.installations.storeInstallation(install);
  await repos.settings.setActors(ws, 'admins', 'U0ADMIN');
  await repos.audit.append({ teamId: ws, userId: 'U0ADMIN', action: 'workspace.connect', target: '3' });
  const live = await repos.connectLinks.create({
    teamId: ws,
    userId: 'U0ADMIN',
    responseUrl: 'https://hooks.slack.test/r/1',
  });
  expect(await repos.connectLinks.issueFormToken(live)).toBeDefined();
  expect((await repos.connectLinks.recordAttempt(live))?.remaining).toBe(4);
  await repos.connectLinks.savePendingKey(live, {
    host: 'api.flare.io',
    sealedApiKey: 'sealed',
    verified: { apiKeyId: 1, organizationId: 2, defaultTenantId: 3, scopes: [], tenants: [] },
  });
  const used = await repos.connectLinks.create({ teamId: ws, userId: 'U0ADMIN' });
  expect(await repos.connectLinks.consume(used)).toBeDefined();
  const ctxId = await repos.searchContexts(Context).save({ workspaceId: ws, query: 'q' });
  await repos.commandNotes.save(ctxId, { workspaceId: ws, commandText: '/vigil events 7' });
  const acted = { action: 'ignore' as const, by: 'U1', at: 1 };
  const done = await repos.eventStates.begin(ws, 'uid-done', 0, acted, 60_000);
  await repos.eventStates.commit(ws, 'uid-done', 0, acted);
  await done?.release();
  // A click still in flight: its lease and marker stand.
  expect(await repos.eventStates.begin(ws, 'uid-live', 0, acted, 60_000)).toBeDefined();
  await repos.digestSubscriptions.add({
    teamId: ws,
    channelId: 'C1',
    identifierIds: 'all',
    severity: 'medium',
    types: [],
    timeOfDay: '08:00',
    timeZone: 'UTC',
    weekdaysOnly: false,
    skipEmpty: true,
    createdBy: 'U0ADMIN',
  });
  const alert = await repos.alertSubscriptions.add({
    teamId: ws,
    channelId: 'C1',
    identifierIds: 'all',
    severity: 'high',
    types: [],
    hold: 'noncritical',
    timeZone: 'UTC',
    createdBy: 'U0ADMIN',
    startAt: 1,
  });
  const claim = await repos.alertState.claimFeed(ws, {
    owner: 'o',
    leaseMs: 60_000,
    now: 1,
    init: () => ({
      threshold: 'high',
      since: '2026-11-23T00:00:00Z',
      seen: [],
      intervals: [],
      pendingChannels: [],
    }),
    reset: (feed) => feed,
  });
  expect(claim.kind).toBe('claimed');
  const event = { metadata: { uid: `leak/a/${ws}` } };
  await repos.alertState.enqueue(ws, 'C1', [
    { uid: event.metadata.uid, event, subs: [alert.id], queuedAt: 1, critical: true },
  ]);
  await repos.alertState.recordMessage(ws, 'C1', '1.000100', {
    shown: [event.metadata.uid],
    rest: [],
    postedAt: 1,
  });
  // Shared by the workspaces on one tenant: when their messages' events are read again (no workspace in it).
  await repos.alertState.followed.claim('api.flare.io/2001', {
    owner: 'o',
    leaseMs: 60_000,
    now: 1,
    intervalMs: 60_000,
    firstPostedAt: 1,
  });
  // A change the alert message must still follow (recorded before its commit).
  await repos.alertFollowUps.change(repos.alertFollowUps.refOf(ws, event.metadata.uid, 1), async () => ({
    uid: event.metadata.uid,
    action: 'ignore',
    by: 'U1',
    at: 1,
    generation: 1,
    owner: 'o',
    until: 60_001,
    done: [],
    attempts: 0,
  }));
  await repos.digestOutboxRecords(Anything).set(ws, 'sub1:2026-11-23', { note: 'posted' });
  await repos.digestCursorRecords(Anything).set(ws, 'sub1', { note: 'cursor' });
  await repos.digestTrends.record(
    ws,
    'sub1',
    '2026-11-23',
    { groups: [], uids: [{ uid: 'leak/1', at: 1 }] },
    '2026-08-01',
  );
  await repos.policyUnassigns(Anything).set(ws, 'policy:9', { note: 'unassigned' }, 60_000);
  await repos.runningExports(Anything).set(ws, 'U1', { note: 'export under way' }, 60_000);
  await repos.unassignIntents(Anything).set(ws, 'policy:9', { note: 'unassign called' }, 60_000);
  // Shared by every workspace using one API key: its token and organization (no workspace in them).
  await repos.apiTokens.write('https://api.flare.io|0123abcd:3', {
    token: 'tok',
    obtainedAt: store.clock.now(),
  });
  await repos.apiOrganizations.set('0123abcd', 2);
  // /readyz's probe of the API: per host, no workspace in it.
  await repos.apiProbes.save({ at: store.clock.now(), hosts: { 'api.flare.io': { ok: true } } });
  await repos.eventTriage(Anything).set(ws, 'uidkey:tags', { note: 'tagged' }, 60_000);
  await repos.tenantTags(Anything).set(ws, 'tenant-3', { note: 'vip' });
  await repos.recommendationDecisions(Anything).set(ws, '40001', { note: 'accepted' }, 60_000);
  await repos.credentialStates(Anything).set(ws, 'pair:abc', { note: 'remediated' }, 60_000);
  await repos.identifierLists(Anything).set(ws, 'stamp', { note: 'read' }, 60_000);
  await repos.snoozes.put(
    ws,
    { target: { kind: 'identifier', id: 3001 }, until: store.clock.now() + 60_000, by: 'U1', at: 0 },
    store.clock.now(),
  );
  await repos.environmentQuota.set(ws, 'quota', { remaining: 10, batchReached: false, at: 1 });
  await repos.portalEvents(Anything).set(ws, 'link:abc', { note: 'seen' }, 60_000);
  await repos.intelRequests(Anything).set(ws, 'request-uuid', { note: 'asked' }, 60_000);
  await repos
    .idpConnections(Anything)
    .set(ws, 'current', { note: repos.idpSecrets.seal(ws, 'client-secret') });
  await repos.containRequests(Anything).set(ws, 'request-id', { note: 'asked' }, 60_000);
  await repos.containPending(Anything).set(ws, 'request-id', { note: 'awaiting approval' }, 60_000);
  await repos.containSettings(Anything).set(ws, 'approval', { note: 'on' });
  await repos.askPerson(Anything).set(ws, 'credential-digest', { note: 'asked' });
  // Its open asks' index, and its place in the shared list of workspaces with open asks.
  await repos.openAsks.change(ws, async () => ['credential-digest']);
  await repos.workflowSteps(Anything).set(ws, 'Fx0001', { note: 'step run' }, 60_000);
  // MCP OAuth: a registered client (shared by every workspace) and a token pair bound to this one.
  const grants = new OAuthGrants(store, store.clock);
  await grants.saveClient({ client_id: 'mcp-client-1', redirect_uris: ['https://agent.example/cb'] });
  await grants.issueTokens({ teamId: ws, userId: 'U1', clientId: 'mcp-client-1' });
  // A record set aside as unreadable, noted for the workspace's admins.
  await store
    .namespace('unreadable')
    .set(`${ws}:snooze:${ws}:all`, { kind: 'snooze', key: `${ws}:all`, at: 0 });
  // The generic act-once primitive of the services leases by workspace too.
  expect(await store.lease(`${ws}:policy-unassign:9`, 60_000)).toBeDefined();
  expect(await store.lease(`${ws}:triage:uidkey:tags:0`, 60_000)).toBeDefined();
  expect(await store.lease(`${ws}:recommendation:40001`, 60_000)).toBeDefined();
}

async function entriesOf(fixture: StoreFixture, kind: BackendKind, ws: string) {
  return (await rawEntries(fixture, kind)).filter(({ key, value }) => key.includes(ws) || value.includes(ws));
}

describe.each(BACKENDS)('forgetting a workspace on %s', (kind) => {
  const fixture = useStoreFixture(kind);

  it('leaves nothing of it in any namespace, claim or lease, and the other workspace intact', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    await writeEverything(store, repos, GONE);
    await writeEverything(store, repos, KEPT);

    const raw = await rawEntries(fixture, kind);
    // Every record lives in a registered namespace, so forgetting cannot miss one. The fencing counter
    // (`vigil:fence`, Redis) is one number for the whole store: it holds nothing of any workspace.
    const registered = new Set([...Object.keys(NAMESPACES), 'claim', 'lease', 'lock', 'fence']);
    for (const { key } of raw) {
      const name =
        (kind === 'redis' || key.startsWith('vigil:') ? key.split(':')[1] : key.split(':')[0]) ?? '';
      expect(registered, key).toContain(name);
    }
    const namespacesUsed = new Set(raw.map(({ key }) => key.split(':')[1]));
    for (const name of Object.keys(NAMESPACES)) expect(namespacesUsed, name).toContain(name);

    const keptBefore = await entriesOf(fixture, kind, KEPT);
    expect((await entriesOf(fixture, kind, GONE)).length).toBeGreaterThan(20);

    await repos.deleteWorkspaceData(GONE, { installation: true, audit: true });

    expect(await entriesOf(fixture, kind, GONE)).toEqual([]);
    const keptAfter = await entriesOf(fixture, kind, KEPT);
    // Records of the kept workspace alone are untouched; shared ones (the index of workspaces with
    // subscriptions) remain, without the forgotten workspace.
    expect(keptAfter).toHaveLength(keptBefore.length);
    for (const entry of keptBefore.filter(({ value }) => !value.includes(GONE)))
      expect(keptAfter).toContainEqual(entry);
    // And the other workspace still reads normally.
    expect(await repos.workspaces.apiKey(KEPT)).toBe(`fw_live_key_of_${KEPT}`);
    expect(await repos.digestSubscriptions.listAll()).toHaveLength(1);
    expect(await repos.eventStates.actingNow(KEPT, 'uid-live', 0)).toMatchObject({ action: 'ignore' });
  });

  it('frees the leases of the forgotten workspace', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    const acted = { action: 'remediate' as const, by: 'U1', at: 1 };
    expect(await repos.eventStates.begin(GONE, 'uid', 0, acted, 60_000)).toBeDefined();
    expect(await repos.eventStates.begin(GONE, 'uid', 0, acted, 60_000)).toBeUndefined();
    await repos.deleteWorkspaceData(GONE);
    expect(await repos.eventStates.actingNow(GONE, 'uid', 0)).toBeUndefined();
    expect(await repos.eventStates.begin(GONE, 'uid', 0, acted, 60_000)).toBeDefined();
  });

  it('drops the owner index entry of a removed subscription', async () => {
    const store = await fixture.open();
    const { repos } = reposFor(store);
    const owners = store.namespace('owned');
    const added = await repos.digestSubscriptions.add({
      teamId: GONE,
      channelId: 'C1',
      identifierIds: 'all',
      severity: 'high',
      types: [],
      timeOfDay: '08:00',
      timeZone: 'UTC',
      weekdaysOnly: false,
      skipEmpty: true,
      createdBy: 'U0ADMIN',
    });
    expect(await owners.keys(`${GONE}:`)).toEqual([`${GONE}:subscription:${added.id}`]);
    expect(await repos.digestSubscriptions.remove(GONE, added.id)).toBe(true);
    expect(await owners.keys(`${GONE}:`)).toEqual([]);
  });
});
