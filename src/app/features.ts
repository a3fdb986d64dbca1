/** Every feature Vigil registers, in one list, each bound to the few services it declares. */

import { type ContainEntry, eventIdentity, loginIdentity, parseContainRef } from '../domain/contain-entry.js';
import { parseContextRef } from '../domain/contexts.js';
import { agentFeature } from '../features/agent/index.js';
import { alertsFeature } from '../features/alerts/index.js';
import { askPersonFeature } from '../features/ask-person/index.js';
import { connectionFeature } from '../features/connection/index.js';
import { lifecycleFeature } from '../features/connection/lifecycle.js';
import type { Verdict } from '../features/containment/blocks.js';
import type { LeakedCredentials } from '../features/containment/deps.js';
import { containmentFeature } from '../features/containment/index.js';
import { credentialsFeature } from '../features/credentials/index.js';
import { digestFeature, digestPagesFeature } from '../features/digests/index.js';
import { publisherDepsOf } from '../features/digests/publisher-deps.js';
import {
  eventRowsFeature,
  eventSnoozeFeature,
  eventsFeature,
  rowForms,
  stealerLogFeature,
  triageFormFeature,
} from '../features/events/index.js';
import { homeFeature } from '../features/home/index.js';
import { identifiersFeature } from '../features/identifiers/index.js';
import { intelFeature } from '../features/intel/index.js';
import { policiesFeature } from '../features/policies/index.js';
import { recommendationsFeature } from '../features/recommendations/index.js';
import { reportsFeature } from '../features/reports/index.js';
import { sandboxFeature } from '../features/sandbox/index.js';
import { adminFeature } from '../features/settings/index.js';
import { snoozeFeature } from '../features/snooze/index.js';
import { workObjectsFeature } from '../features/work-objects/index.js';
import {
  actStep,
  credentialSearchStep,
  decisionStep,
  digestStep,
  eventSearchStep,
  tenantStep,
} from '../features/workflow-steps/index.js';
import type { Clock, Sleep } from '../kernel/clock.js';
import { RefusalError, VigilError } from '../kernel/errors.js';
import type { Logger } from '../kernel/logger.js';
import type { Outbound } from '../kernel/outbound.js';
import type { WorkTracker } from '../kernel/work-tracker.js';
import { type BoundFeature, bindFeature, type SlackBase } from '../slack/context.js';
import type { Services } from './services.js';

/** What the feature list binds from: the services start-up built, and the plumbing every listener gets. */
export interface FeatureWiring extends Services {
  logger: Logger;
  clock: Clock;
  tracker: WorkTracker;
  outbound: Outbound;
  /** Waiting ("still working" notices); real time when absent. */
  sleep?: Sleep | undefined;
  /** The portal's hosts: links the agent DM may unfurl. */
  portalHosts: readonly string[];
}

/** What every listener gets from the plumbing. */
export function listenerBase(core: FeatureWiring): SlackBase {
  const { tracker, outbound, sleep } = core;
  return {
    logger: core.logger,
    clock: core.clock,
    authz: core.authz,
    work: { tracker, outbound, ...(sleep ? { sleep } : {}) },
  };
}

export function boundFeatures(core: FeatureWiring): BoundFeature[] {
  const base = listenerBase(core);
  const s = core;
  const subscriptionChecks = { connection: s.connection, identifiers: s.identifiers };
  const publishing = publisherDepsOf(core);
  const features: BoundFeature[] = [
    bindFeature(connectionFeature, {
      ...base,
      connection: s.connection,
      tenants: s.tenants,
      subscriptions: { digests: s.digests, alerts: s.alerts },
      grantedScopes: s.grantedScopes,
    }),
    bindFeature(eventsFeature, { ...base, events: s.events, identifiers: s.identifiers, lists: s.lists }),
    ...eventRowFeatures(core, base),
    bindFeature(identifiersFeature, {
      ...base,
      identifiers: s.identifiers,
      identifierSearch: s.identifierSearch,
      watch: s.watch,
    }),
    bindFeature(credentialsFeature, {
      ...base,
      credentials: s.credentials,
      identifiers: s.identifiers,
      audit: s.audit,
      containment: containEntry(s),
    }),
    bindFeature(digestFeature, {
      ...base,
      ...subscriptionChecks,
      digests: s.digests,
      knownTags: s.knownTags,
    }),
    bindFeature(digestPagesFeature, { ...base, digests: s.digests, events: s.events, publishing }),
    bindFeature(alertsFeature, { ...base, ...subscriptionChecks, alerts: s.alerts, events: s.events }),
    bindFeature(askPersonFeature, { ...base, askPerson: s.askPerson }),
    bindFeature(adminFeature, { ...base, settings: s.settings, audit: s.audit }),
    bindFeature(homeFeature, {
      ...base,
      home: s.home,
      connection: s.connection,
      snoozes: s.snoozes,
      subscriptions: { digests: s.digests, alerts: s.alerts },
    }),
    bindFeature(lifecycleFeature, { ...base, connection: s.connection }),
    bindFeature(policiesFeature, { ...base, policies: s.policies, lists: s.lists }),
    bindFeature(recommendationsFeature, {
      ...base,
      recommendations: s.recommendations,
      identifiers: s.identifiers,
      watch: s.watch,
    }),
    bindFeature(reportsFeature, { ...base, reports: s.reports, events: s.events }),
    bindFeature(intelFeature, { ...base, intel: s.intel }),
    bindFeature(sandboxFeature, { ...base, sandbox: s.sandbox }),
    bindFeature(containmentFeature, { ...base, containment: s.containment, leaks: leakedCredentials(s) }),
    bindFeature(snoozeFeature, { ...base, snoozes: s.snoozes, identifiers: s.identifiers }),
    bindFeature(workObjectsFeature, {
      ...base,
      workObjects: s.workObjects,
      snoozes: s.snoozes,
      knownTags: s.knownTags,
      containment: containEntry(s),
    }),
    ...stepFeatures(s, base),
  ];
  // The agent DM answers with the same `/vigil` handlers, bound as above.
  const commands = (): BoundFeature['commands'] => Object.assign({}, ...features.map((f) => f.commands));
  const agent = { ...base, commands, identifiers: s.identifiers, portalHosts: s.portalHosts };
  return [...features, bindFeature(agentFeature, agent)];
}

/** Whether a workspace has an identity provider connected: the other features' cards offer *Contain…* then. */
function containEntry(s: FeatureWiring): ContainEntry {
  return { connected: async (ws) => (await s.containment.connections.get(ws)) !== undefined };
}

/**
 * The leaks containment starts from: credential rows (`<context>:<index>`), an alert's events (`ev:…`) and a
 * Work Object panel's (`wo:<uid>`), each by the one identity it names, and stealer log logins (`sl:…`); Flare's
 * remediation of a credential row.
 */
function leakedCredentials(s: FeatureWiring): LeakedCredentials {
  return {
    async find(workspaceId, value) {
      const which = parseContainRef(value);
      if (which?.kind === 'panel') {
        const found = await s.workObjects.resolveUid(workspaceId, which.ref);
        const identity = found.kind === 'event' ? eventIdentity(found.event) : undefined;
        return identity === undefined ? undefined : { identity, event: { uid: which.ref } };
      }
      const parsed = which && parseContextRef(which.ref, which.kind === 'stealer' ? 3 : 2);
      if (!which || !parsed || parsed.index === undefined) return undefined;
      if (which.kind === 'event') {
        const ctx = await s.events.contexts.load(parsed.ctxId, workspaceId);
        const shown = ctx.events[parsed.index];
        const identity = shown && eventIdentity(shown.event);
        return shown === undefined || identity === undefined
          ? undefined
          : { identity, event: { uid: shown.event.metadata.uid } };
      }
      if (which.kind === 'stealer') {
        const view = await s.credentials.stealerLogs.contexts.load(parsed.ctxId, workspaceId);
        const entry = view.entries[parsed.index];
        const identity = entry?.field === 'credentials' ? loginIdentity(entry.label) : undefined;
        return identity === undefined ? undefined : { identity, event: { uid: view.uid } };
      }
      const ctx = await s.credentials.contexts.load(parsed.ctxId, workspaceId);
      const row = ctx.rows[parsed.index];
      if (row === undefined) return undefined;
      const credential =
        row.credentialHash === undefined ? undefined : { id: row.id, hash: row.credentialHash };
      return { identity: row.identity, ...(credential ? { credential } : {}) };
    },
    verdicts: (workspaceId, identity) => verdictsOf(s, workspaceId, identity),
    async remediate(workspaceId, by, leak) {
      if (leak.credential) {
        const target = { id: leak.credential.id, identity: leak.identity, hash: leak.credential.hash };
        await s.credentials.actions.act({ workspaceId, by, action: 'remediate', targets: [target] });
      } else if (leak.event) await remediateEvent(s, workspaceId, by, leak.event.uid);
    },
  };
}

/** The event a containment started from, remediated act-once at its state now (once more if someone acted meanwhile). */
async function remediateEvent(s: FeatureWiring, workspaceId: string, by: string, uid: string): Promise<void> {
  const act = (from: number) =>
    s.events.actOnEvent({
      workspaceId,
      uid,
      from,
      action: 'remediate',
      by,
      detail: 'after a containment, from Slack',
    });
  let outcome = await act(await s.events.generationOf(workspaceId, uid));
  if (outcome.kind === 'stale') outcome = await act(outcome.generation);
  if (outcome.kind !== 'acted')
    throw new RefusalError(
      'Someone is acting on this event right now, so Vigil did not.',
      'Try again in a moment.',
    );
}

const VERDICT_TYPES = ['valid_credential', 'invalid_credential', 'mitigated_credential'] as const;

/** Flare's verdict events naming exactly this identity, newest first; undefined when the API failed. */
async function verdictsOf(
  s: FeatureWiring,
  workspaceId: string,
  identity: string,
): Promise<Verdict[] | undefined> {
  try {
    const page = await s.events.fetchPage(
      workspaceId,
      {
        identifierId: 0,
        query: { type: 'email', email: identity },
        filters: { type: [...VERDICT_TYPES] },
        order: 'desc',
        size: 10,
      },
      'tenant',
    );
    return page.events.flatMap((e) => {
      const type = VERDICT_TYPES.find((t) => t === e.metadata.type);
      return type !== undefined && eventIdentity(e) === identity
        ? [{ type, at: e.metadata.estimated_created_at }]
        : [];
    });
  } catch (err) {
    if (!(err instanceof VigilError)) throw err;
    return undefined;
  }
}

/** An event row's buttons and menu, and the forms it opens, each part bound to its own deps. */
function eventRowFeatures(s: FeatureWiring, base: SlackBase): BoundFeature[] {
  const triage = {
    ...base,
    events: s.events,
    triage: s.triage,
    tenant: {
      tenantOf: (workspaceId: string) => s.connection.tenantOf(workspaceId),
      knownTags: (workspaceId: string, tenant: number | undefined) => s.knownTags.list(workspaceId, tenant),
    },
    lists: s.lists,
  };
  const snooze = { ...base, events: s.events, lists: s.lists, snoozes: s.snoozes };
  const stealerLog = { ...base, events: s.events, credentials: s.credentials, containment: containEntry(s) };
  const forms = rowForms({ triage, snooze, stealerLog });
  return [
    bindFeature(eventRowsFeature, { ...base, events: s.events, audit: s.audit, forms }),
    bindFeature(triageFormFeature, triage),
    bindFeature(eventSnoozeFeature, snooze),
    bindFeature(stealerLogFeature, stealerLog),
  ];
}

/** Vigil's workflow steps, each bound to the runner's part and its own services. */
function stepFeatures(s: FeatureWiring, base: SlackBase): BoundFeature[] {
  const scope = {
    settings: (workspaceId: string) => s.settings.get(workspaceId),
    tenantsInUse: (workspaceId: string) => s.tenants.inUse(workspaceId),
  };
  const runner = { ...base, steps: s.steps, scope };
  return [
    bindFeature(credentialSearchStep, { ...runner, credentials: s.credentials, audit: s.audit }),
    bindFeature(eventSearchStep, { ...runner, events: s.events, identifiers: s.identifiers }),
    bindFeature(actStep, { ...runner, events: s.events }),
    bindFeature(digestStep, { ...runner, digests: s.digests, digestNow: s.digestNow }),
    bindFeature(decisionStep, { ...runner, audit: s.audit }),
    bindFeature(tenantStep, { ...runner, tenants: s.tenants }),
  ];
}
