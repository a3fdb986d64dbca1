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
  explainFeature,
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
import { type BoundFeature, bindFeature, type Feature, type SlackBase } from '../slack/context.js';
import { type Grammar, grammarOf, type SubcommandSpec } from '../slack/grammar/index.js';
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

/**
 * A feature and the services it declares, taken from those the root builds. Its subcommands are known without
 * the services, so the grammar is built from this list alone.
 */
interface Plugged {
  subcommands: readonly SubcommandSpec[];
  bind(core: FeatureWiring, base: SlackBase): BoundFeature[];
}

function plug<D extends SlackBase>(
  feature: Feature<D>,
  deps: (s: FeatureWiring, base: SlackBase) => D,
): Plugged {
  return {
    subcommands: feature.subcommands ?? [],
    bind: (s, base) => [bindFeature(feature, deps(s, base))],
  };
}

/** Features of one part, bound together because they share what they are given; none has a subcommand. */
function plugParts(bind: (s: FeatureWiring, base: SlackBase) => BoundFeature[]): Plugged {
  return { subcommands: [], bind };
}

const subscriptionChecks = (s: FeatureWiring) => ({ connection: s.connection, identifiers: s.identifiers });

/** Every feature, in the order `/vigil help` lists their subcommands. */
const FEATURES: readonly Plugged[] = [
  plug(connectionFeature, (s, base) => ({
    ...base,
    connection: s.connection,
    tenants: s.tenants,
    subscriptions: { digests: s.digests, alerts: s.alerts },
    grantedScopes: s.grantedScopes,
  })),
  plug(eventsFeature, (s, base) => ({
    ...base,
    events: s.events,
    identifiers: s.identifiers,
    lists: s.lists,
  })),
  plugParts(eventRowFeatures),
  plug(identifiersFeature, (s, base) => ({
    ...base,
    identifiers: s.identifiers,
    identifierSearch: s.identifierSearch,
    watch: s.watch,
  })),
  plug(credentialsFeature, (s, base) => ({
    ...base,
    credentials: s.credentials,
    identifiers: s.identifiers,
    audit: s.audit,
    containment: containEntry(s),
  })),
  plug(policiesFeature, (s, base) => ({ ...base, policies: s.policies, lists: s.lists })),
  plug(recommendationsFeature, (s, base) => ({
    ...base,
    recommendations: s.recommendations,
    identifiers: s.identifiers,
    watch: s.watch,
  })),
  plug(explainFeature, (s, base) => ({
    ...base,
    events: s.events,
    identifiers: s.identifiers,
    lists: s.lists,
  })),
  plug(sandboxFeature, (s, base) => ({ ...base, sandbox: s.sandbox })),
  plug(reportsFeature, (s, base) => ({ ...base, reports: s.reports, events: s.events })),
  plug(intelFeature, (s, base) => ({ ...base, intel: s.intel })),
  plug(containmentFeature, (s, base) => ({
    ...base,
    containment: s.containment,
    leaks: leakedCredentials(s),
  })),
  plug(digestFeature, (s, base) => ({
    ...base,
    ...subscriptionChecks(s),
    digests: s.digests,
    knownTags: s.knownTags,
  })),
  plug(digestPagesFeature, (s, base) => ({
    ...base,
    digests: s.digests,
    events: s.events,
    publishing: publisherDepsOf(s),
  })),
  plug(alertsFeature, (s, base) => ({
    ...base,
    ...subscriptionChecks(s),
    alerts: s.alerts,
    events: s.events,
  })),
  plug(askPersonFeature, (s, base) => ({ ...base, askPerson: s.askPerson })),
  plug(adminFeature, (s, base) => ({ ...base, settings: s.settings, audit: s.audit })),
  plug(homeFeature, (s, base) => ({
    ...base,
    home: s.home,
    connection: s.connection,
    snoozes: s.snoozes,
    subscriptions: { digests: s.digests, alerts: s.alerts },
  })),
  plug(lifecycleFeature, (s, base) => ({ ...base, connection: s.connection })),
  plug(snoozeFeature, (s, base) => ({ ...base, snoozes: s.snoozes, identifiers: s.identifiers })),
  plug(workObjectsFeature, (s, base) => ({
    ...base,
    workObjects: s.workObjects,
    snoozes: s.snoozes,
    knownTags: s.knownTags,
    containment: containEntry(s),
  })),
  plugParts(stepFeatures),
];

/** The `/vigil` grammar: every feature's subcommands, in the list's order. */
export const vigilGrammar: Grammar = grammarOf(FEATURES.flatMap((f) => f.subcommands));

export function boundFeatures(core: FeatureWiring): BoundFeature[] {
  const base = listenerBase(core);
  const features = FEATURES.flatMap((f) => f.bind(core, base));
  const handlers: BoundFeature['commands'] = Object.assign({}, ...features.map((f) => f.commands));
  // A kind the grammar parses but no feature runs would answer "not available" to everyone: refuse to start.
  const unrun = vigilGrammar.kinds.filter((kind) => kind !== 'help' && handlers[kind] === undefined);
  if (unrun.length > 0) throw new Error(`/vigil kinds without a handler: ${unrun.join(', ')}`);
  // The agent DM answers with the same `/vigil` handlers, bound as above.
  const commands = (): BoundFeature['commands'] => handlers;
  const agent = {
    ...base,
    commands,
    grammar: vigilGrammar,
    identifiers: core.identifiers,
    portalHosts: core.portalHosts,
  };
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
  const credentials = {
    search: s.credentials.search.bind(s.credentials),
    recordShare: s.audit.record.bind(s.audit),
  };
  const inputs = { grammar: vigilGrammar, identifiers: s.identifiers };
  return [
    bindFeature(credentialSearchStep, { ...runner, inputs, credentials }),
    bindFeature(eventSearchStep, { ...runner, inputs, events: s.events }),
    bindFeature(actStep, { ...runner, events: s.events }),
    bindFeature(digestStep, { ...runner, digests: s.digests, digestNow: s.digestNow }),
    bindFeature(decisionStep, { ...runner, audit: s.audit }),
    bindFeature(tenantStep, { ...runner, tenants: s.tenants }),
  ];
}
