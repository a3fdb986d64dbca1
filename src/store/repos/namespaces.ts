/**
 * Every namespace of the store, registered here with how its keys name a workspace, so that forgetting a
 * workspace covers each one: adding a namespace is one line in NAMESPACES, and repositories can only open a
 * registered name. Keys either start with the workspace id (`<workspaceId>` or `<workspaceId>:…`), or do not
 * name it (a short id, a token hash) and then each record's owner is indexed in the `owned` namespace.
 */
import { StoreError } from '../backend/errors.js';
import type { Namespace, Store } from '../backend/store.js';

export interface NamespaceSpec {
  /**
   * `workspace`: keys are `<workspaceId>` or start with `<workspaceId>:`. `owned`: records are written through
   * `Keyspace.setOwned`, which indexes their workspace. `shared`: records for all workspaces, which their
   * repository updates when a workspace goes or which expire on their own.
   */
  readonly scope: 'workspace' | 'owned' | 'shared';
  /** Kept when a workspace is forgotten unless this option is set. */
  readonly deletedWith?: 'installation' | 'audit';
  /**
   * The version of the records' shape, stamped on each record written (1 when absent). Raise it when the shape
   * changes in a way older code cannot read, and teach the repository to read every earlier format.
   */
  readonly format?: number;
}

export const NAMESPACES = {
  workspace: { scope: 'workspace' },
  installation: { scope: 'workspace', deletedWith: 'installation' },
  /** Org-wide installs: the organization of each workspace served, by team id, and by `<enterpriseId>:<teamId>`. */
  'org-team': { scope: 'workspace', deletedWith: 'installation' },
  'org-teams': { scope: 'workspace', deletedWith: 'installation' },
  settings: { scope: 'workspace' },
  audit: { scope: 'workspace', deletedWith: 'audit' },
  'connect-link': { scope: 'owned' },
  'connect-form': { scope: 'owned' },
  'connect-pending': { scope: 'owned' },
  // 2: an events context names its kind (search, digest, alert); format 1 records read as before.
  'search-context': { scope: 'owned', format: 2 },
  'events-command': { scope: 'owned' },
  'event-state': { scope: 'workspace' },
  'event-acting': { scope: 'workspace' },
  subscription: { scope: 'owned' },
  'subscription-team': { scope: 'workspace' },
  'subscription-teams': { scope: 'shared' },
  'digest-outbox': { scope: 'workspace' },
  'digest-cursor': { scope: 'workspace' },
  /** What each digest run reported (counts by day, severity, identifier), for its trend chart. */
  'digest-trend': { scope: 'workspace' },
  /** Real-time alerts: subscriptions (like digests'), the tenant feed, channel outboxes, posted messages. */
  alert: { scope: 'owned' },
  'alert-team': { scope: 'workspace' },
  'alert-teams': { scope: 'shared' },
  'alert-feed': { scope: 'workspace' },
  'alert-outbox': { scope: 'workspace' },
  'alert-message': { scope: 'workspace' },
  'alert-event': { scope: 'workspace' },
  /** Changes to events alert messages show, recorded before the commit until the messages follow them. */
  'alert-follow': { scope: 'workspace' },
  /** Posted messages that follow their events' state (alerts, digests), and the lease of who re-reads them. */
  'message-sync': { scope: 'workspace' },
  /** When each tenant's followed events are read again, and who reads them (expires on its own). */
  'message-sync-tenant': { scope: 'shared' },
  /** Unassigns done through Vigil (who, when), so a repeated submission does not call the API again. */
  'policy-unassign': { scope: 'workspace' },
  /** Unassigns called but not yet recorded (who asked, what), settled after a crash by looking upstream. */
  'unassign-intent': { scope: 'workspace' },
  /** Credentials exports under way (spool folder, where progress is shown), settled after a crash. */
  'export-running': { scope: 'workspace' },
  /** Runs of Vigil's workflow steps by execution id: a redelivered run completes once, on any instance. */
  'workflow-step': { scope: 'workspace' },
  /** API tokens by API key fingerprint and tenant, sealed, expiring with the token (one hour). */
  'api-token': { scope: 'shared' },
  /** Each API key's organization by key fingerprint, for the shared rate budget. */
  'api-org': { scope: 'shared' },
  /** Who last set an event's tags, note or severity through Vigil, by field, so a change lands once. */
  'event-triage': { scope: 'workspace' },
  /** The tags seen on the workspace's tenant's events, offered in forms. */
  'tenant-tags': { scope: 'workspace' },
  /** The tenant's identifier list as last read (a stamp and the list), shared by every instance. */
  'identifier-list': { scope: 'workspace' },
  /** Recommendations accepted or rejected through Vigil (who, when), so a repeated click acts once. */
  'recommendation-decision': { scope: 'workspace' },
  /** What a workspace snoozed in its alerts and digests (one record each, shared by every instance). */
  snooze: { scope: 'workspace' },
  /** Portal links of events Vigil has seen, by link and by uid, with what the event looked like (Work Objects). */
  'portal-event': { scope: 'workspace' },
  /** Report requests asked through Vigil and not yet delivered to their requester, by request uuid. */
  'intel-request': { scope: 'workspace' },
  /** Leaked credentials remediated or ignored through Vigil (who, when), by pair or identity digest. */
  'credential-state': { scope: 'workspace' },
  /** Members asked about a leaked credential of theirs (DM, answers, escalation) and the hourly DM window. */
  'ask-person': { scope: 'workspace' },
  /** The ids of each workspace's open asks (still to send, to answer or to reply), so a tick reads those alone. */
  'ask-person-open': { scope: 'workspace' },
  /** The workspaces with open asks (one shared list; forgetting a workspace takes it out). */
  'ask-person-teams': { scope: 'shared' },
  /** The search quota last reported to a workspace connected from the environment (no connection record). */
  'environment-quota': { scope: 'workspace' },
  /** The identity provider containment acts on (Entra ID, Okta), its secret sealed, by `<workspaceId>:current`. */
  'idp-connection': { scope: 'workspace' },
  /** Containment requests (who asked, what, for whom, approval, outcome), by request id. */
  'contain-request': { scope: 'workspace' },
  /** The containment requests still awaiting approval and when each expires: what the expiry sweep reads. */
  'contain-pending': { scope: 'workspace' },
  /** Whether containment needs a second approver (`settings contain-approval`). */
  'contain-setting': { scope: 'workspace' },
  /** Records found unreadable and set aside, by `<workspaceId>:<namespace>:<key>`, shown to admins. */
  unreadable: { scope: 'workspace' },
  /** MCP OAuth: registered clients and sign-ins under way (before Slack names the person); both expire. */
  'mcp-oauth-client': { scope: 'shared' },
  /** MCP OAuth: codes, access and refresh tokens by their SHA-256 (never in clear), each bound to a workspace. */
  'mcp-oauth-grant': { scope: 'owned' },
  /** What `/readyz`'s probe of the API last saw, per API host, shared by every instance (one probes). */
  'api-probe': { scope: 'shared' },
  /** The store's format stamp (backend/format.ts), one record for the whole store. */
  meta: { scope: 'shared' },
  /** The owner index of `owned` records: `<workspaceId>:<namespace>:<key>`. */
  owned: { scope: 'workspace' },
} as const satisfies Record<string, NamespaceSpec>;

export type NamespaceName = keyof typeof NAMESPACES;

export interface ForgetOptions {
  installation?: boolean;
  audit?: boolean;
}

/** Owned records deleted at once when forgetting a workspace. */
const OWNED_BATCH = 50;

/** Opens a registered namespace: repositories open no other. */
export function openNamespace(store: Store, name: NamespaceName): Namespace {
  const spec: NamespaceSpec = NAMESPACES[name];
  return store.namespace(name, spec.format ?? 1);
}

/**
 * Writes a record whose key does not name its workspace. The owner index goes first, so a crash in between
 * leaves a dangling index entry (harmless) rather than a record that forgetting would miss.
 */
export async function setOwned(
  store: Store,
  ns: Namespace,
  key: string,
  workspaceId: string,
  value: unknown,
  ttlMs?: number,
): Promise<void> {
  checkWorkspaceId(workspaceId);
  await openNamespace(store, 'owned').set(`${workspaceId}:${ns.name}:${key}`, 1, ttlMs);
  await ns.set(key, value, ttlMs);
}

/** Deletes a record written by `setOwned`, and its owner index entry. */
export async function deleteOwned(
  store: Store,
  ns: Namespace,
  key: string,
  workspaceId: string,
): Promise<boolean> {
  const existed = await ns.delete(key);
  await openNamespace(store, 'owned').delete(`${workspaceId}:${ns.name}:${key}`);
  return existed;
}

/**
 * Deletes every record of the workspace in every registered namespace (shared ones excepted: their
 * repositories update them first), then its claims and leases. Returns how many records went.
 */
export async function forgetWorkspace(
  store: Store,
  workspaceId: string,
  options: ForgetOptions,
): Promise<number> {
  checkWorkspaceId(workspaceId);
  const prefix = `${workspaceId}:`;
  const owners = openNamespace(store, 'owned');
  const kept = (spec: NamespaceSpec) => spec.deletedWith !== undefined && !options[spec.deletedWith];
  // The connection (sealed API key) first: it matters most if a later step fails.
  const names = (Object.keys(NAMESPACES) as NamespaceName[]).sort(
    (a, b) => Number(b === 'workspace') - Number(a === 'workspace'),
  );
  let deleted = 0;
  for (const name of names) {
    const spec: NamespaceSpec = NAMESPACES[name];
    if (kept(spec) || spec.scope !== 'workspace' || name === 'owned') continue;
    deleted += await deleteWorkspaceKeys(openNamespace(store, name), workspaceId);
  }
  const ownedKeys = await owners.keys(prefix);
  for (let i = 0; i < ownedKeys.length; i += OWNED_BATCH) {
    const batch = ownedKeys.slice(i, i + OWNED_BATCH).map(async (ownedKey) => {
      const rest = ownedKey.slice(prefix.length);
      const cut = rest.indexOf(':');
      const name = rest.slice(0, cut);
      const spec: NamespaceSpec | undefined = Object.hasOwn(NAMESPACES, name)
        ? NAMESPACES[name as NamespaceName]
        : undefined;
      if (cut <= 0 || spec?.scope !== 'owned' || kept(spec)) return false;
      return openNamespace(store, name as NamespaceName).delete(rest.slice(cut + 1));
    });
    deleted += (await Promise.all(batch)).filter(Boolean).length;
  }
  await deleteWorkspaceKeys(owners, workspaceId);
  await store.dropClaims(prefix);
  return deleted;
}

async function deleteWorkspaceKeys(ns: Namespace, workspaceId: string): Promise<number> {
  const whole = (await ns.delete(workspaceId)) ? 1 : 0;
  return whole + (await ns.deletePrefix(`${workspaceId}:`));
}

/** A workspace id cannot be empty or hold the separator, so it is never a prefix of another's keys. */
function checkWorkspaceId(workspaceId: string): void {
  if (workspaceId.length === 0 || workspaceId.includes(':'))
    throw new StoreError(`invalid workspace id ${JSON.stringify(workspaceId)}`);
}
