/**
 * Work Objects as a workflow, with no Slack in it: which event a pasted portal link stands for in a
 * workspace (never another tenant's; a card of Vigil's own alert or digest, its message's), what the side panel shows about it (state and who changed it, AI
 * assistance), and the changes made from the panel, through the same act-once and triage paths as buttons.
 */
import type { Event, EventActionType, Severity } from '../../api/index.js';
import type { AuditTrail } from '../../domain/audit.js';
import type { EventsContextStore } from '../../domain/events/context.js';
import { applyAction, applyTriage, effectiveSeverity, eventTitle } from '../../domain/events/model.js';
import type { EventActing, EventActOutcome, EventExplaining } from '../../domain/events/ports.js';
import { changedFields, type TriageOutcome, type TriageService } from '../../domain/events/triage.js';
import {
  type PortalLinks,
  parsePortalUrl,
  portalLinkParts,
  type SeenEvent,
} from '../../domain/portal-links.js';
import type { ResolvedEvent } from '../../domain/work-object-entity.js';
import { type ApiAccess, inTenant } from '../../domain/workspace-api.js';
import { NotConnectedError } from '../../kernel/errors.js';
import type { Repositories } from '../../store/index.js';

/** Why a link shows no event: each is told as such, and none carries any event data. */
type Unresolved =
  /** Not a link to Vigil's portal hosts: not Vigil's to unfurl. */
  | { kind: 'not-portal' }
  /** The workspace has no API connection. */
  | { kind: 'not-connected' }
  /** The link names another tenant, or the event was seen under a tenant the workspace no longer uses. */
  | { kind: 'other-tenant' }
  /** A portal link to an event Vigil has not seen in this workspace. */
  | { kind: 'unknown' };

/** The message a card was opened from, as Slack names it (a panel's event, click or edit carries it). */
export interface OpenedFrom {
  channel: string | undefined;
  ts: string | undefined;
}

export type Resolution = ResolvedEvent | Unresolved;

/** What a Reveal shows of the live highlights: as much as a stored event keeps (domain/events/compact.ts). */
const MAX_LIVE_FIELDS = 12;
const MAX_LIVE_FRAGMENTS = 3;
const MAX_LIVE_FRAGMENT = 1000;

interface WorkObjectsDeps {
  links: PortalLinks;
  api: ApiAccess;
  repos: Pick<Repositories, 'eventStates' | 'eventTriage' | 'alertState' | 'settings'>;
  /** The events feature's service: acting once, the explanation, and its messages' contexts. */
  events: EventActing & EventExplaining & { contexts: Pick<EventsContextStore, 'load'> };
  triage: TriageService;
  audit: AuditTrail;
}

export class WorkObjectsService {
  constructor(private readonly deps: WorkObjectsDeps) {}

  /** Remembers events shown to a workspace by their portal links (where events pass through services). */
  remember(workspaceId: string, tenantId: number | undefined, events: readonly Event[]): Promise<void> {
    return this.deps.links.remember(workspaceId, tenantId, events);
  }

  /** Whether an admin opened event cards in `channel` though it is shared with another organization. */
  async cardsOpenedIn(workspaceId: string, channel: string): Promise<boolean> {
    return (await this.deps.repos.settings.get(workspaceId)).cardChannels.includes(channel);
  }

  /** Whether Vigil unfurls `url` at all (a portal host); says nothing about the event. */
  isPortalLink(url: string): boolean {
    return parsePortalUrl(url, this.deps.links.hosts) !== undefined;
  }

  /** The event a link stands for in this workspace's current tenant, or why there is none. */
  async resolveLink(workspaceId: string, raw: string): Promise<Resolution> {
    const url = parsePortalUrl(raw, this.deps.links.hosts);
    if (url === undefined) return { kind: 'not-portal' };
    const tenant = await this.currentTenant(workspaceId);
    if (tenant === 'not-connected') return { kind: 'not-connected' };
    const named = portalLinkParts(url).tenantId;
    if (named !== undefined && tenant !== undefined && named !== tenant) return { kind: 'other-tenant' };
    return this.checked(workspaceId, tenant, await this.deps.links.find(workspaceId, url));
  }

  /**
   * The same by uid (the entity's external reference), checked against the tenant of the message the card
   * was opened from (an alert's or digest's keeps its subscription's), else the workspace's current tenant.
   */
  async resolveUid(workspaceId: string, uid: string, from?: OpenedFrom): Promise<Resolution> {
    const tenant = await this.tenantOf(workspaceId, uid, from);
    if (tenant === 'not-connected') return { kind: 'not-connected' };
    return this.checked(workspaceId, tenant, await this.deps.links.byUid(workspaceId, uid));
  }

  /**
   * The tenant a card is read in. Only Vigil's own record of the message names another tenant than the
   * workspace's: the message must be one Vigil posted here and must show this event, and the tenant is the
   * one the record names; anything else (a pasted link, a message it does not show) reads the workspace's
   * current tenant.
   */
  private async tenantOf(
    workspaceId: string,
    uid: string,
    from: OpenedFrom | undefined,
  ): Promise<number | undefined | 'not-connected'> {
    const current = await this.currentTenant(workspaceId);
    if (current === 'not-connected' || from?.channel === undefined || from.ts === undefined) return current;
    const message = await this.deps.repos.alertState.message(workspaceId, from.channel, from.ts);
    if (message === undefined || ![...message.shown, ...message.rest].includes(uid)) return current;
    if (message.tenantId !== undefined) return message.tenantId;
    // A record written before messages kept their tenant: its buttons' context names it.
    const ctx =
      message.ctxId === undefined
        ? undefined
        : await this.deps.events.contexts.load(message.ctxId, workspaceId).catch(() => undefined);
    return ctx?.tenantId ?? current;
  }

  /** The AI assistance text, or undefined when the API has none or refuses (the panel says so). */
  async explain(workspaceId: string, resolved: ResolvedEvent): Promise<string | undefined> {
    return inTenant(resolved.tenantId, () => this.deps.events.explain(workspaceId, resolved.uid)).catch(
      () => undefined,
    );
  }

  /** Ignore, Remediate or their undo from the panel: act-once at the generation the panel showed. */
  async act(req: {
    workspaceId: string;
    resolved: ResolvedEvent;
    action: EventActionType;
    by: string;
  }): Promise<EventActOutcome> {
    const { workspaceId, resolved, action } = req;
    const outcome = await inTenant(resolved.tenantId, () =>
      this.deps.events.actOnEvent({
        workspaceId,
        uid: resolved.uid,
        from: resolved.generation,
        action,
        by: req.by,
        detail: 'from the side panel of a portal link',
        title: eventTitle(resolved.event),
      }),
    );
    if (outcome.kind === 'acted') {
      const at = new Date(outcome.acted.at).toISOString();
      await this.deps.links.update(workspaceId, resolved.uid, (e) => applyAction(e, action, at));
    }
    return outcome;
  }

  /** Severity override and tags edited in the panel, through triage (versions as they are now), audited. */
  async edit(req: {
    workspaceId: string;
    resolved: ResolvedEvent;
    by: string;
    change: { severity?: Severity | null; tags?: string[] };
  }): Promise<TriageOutcome> {
    const { workspaceId, resolved, change } = req;
    const meta = resolved.event.tenant_metadata;
    const fields = changedFields(change, {
      tags: meta?.tags ?? [],
      notes: meta?.notes ?? null,
      severity: (meta?.severity?.override as Severity | null | undefined) ?? null,
    });
    const outcome = await inTenant(resolved.tenantId, async () =>
      this.deps.triage.apply({
        workspaceId,
        uid: resolved.uid,
        by: req.by,
        versions: await this.deps.triage.versions(workspaceId, resolved.uid),
        change,
        fields,
        title: eventTitle(resolved.event),
        severityBefore: effectiveSeverity(resolved.event),
        tenantId: resolved.tenantId,
      }),
    );
    if (outcome.metadata !== undefined)
      await this.deps.links.update(workspaceId, resolved.uid, (e) => applyTriage(e, outcome.metadata));
    return outcome;
  }

  /**
   * The event with its highlights as the API has them now, for one person's Reveal: the stored ones have
   * their password-like words masked (compact.ts), so the words are read live, in the card's tenant, about
   * the identifiers the event matched. Bounded like the stored ones.
   */
  async withLiveHighlights(workspaceId: string, resolved: ResolvedEvent): Promise<ResolvedEvent> {
    const identifierIds = (resolved.event.identifiers ?? []).map((i) => i.id);
    const live = await inTenant(resolved.tenantId, () =>
      this.deps.api.call(workspaceId, ({ session }) =>
        session.getHighlights(resolved.uid, identifierIds.length > 0 ? { identifierIds } : {}),
      ),
    );
    const highlights: Record<string, string[]> = {};
    for (const [field, fragments] of Object.entries(live).slice(0, MAX_LIVE_FIELDS))
      highlights[field] = fragments.slice(0, MAX_LIVE_FRAGMENTS).map((f) => f.slice(0, MAX_LIVE_FRAGMENT));
    return { ...resolved, event: { ...resolved.event, highlights } };
  }

  /** A masked value shown in full to one person in the panel: audited like a credential reveal. */
  async recordReveal(workspaceId: string, resolved: ResolvedEvent, by: string): Promise<void> {
    await this.deps.audit.record({
      teamId: workspaceId,
      userId: by,
      action: 'event.reveal',
      target: resolved.uid,
      detail: 'masked values of the side panel',
      title: eventTitle(resolved.event),
    });
  }

  private async currentTenant(workspaceId: string): Promise<number | undefined | 'not-connected'> {
    try {
      return (await this.deps.api.forWorkspace(workspaceId)).session.tenantId;
    } catch (err) {
      if (err instanceof NotConnectedError) return 'not-connected';
      throw err;
    }
  }

  private async checked(
    workspaceId: string,
    tenant: number | undefined,
    seen: SeenEvent | undefined,
  ): Promise<Resolution> {
    if (seen === undefined) return { kind: 'unknown' };
    // Seen under another tenant than the one the workspace uses now: that tenant's data stays out.
    if ((seen.tenantId ?? undefined) !== tenant) return { kind: 'other-tenant' };
    const state = await this.deps.repos.eventStates.get(workspaceId, seen.uid);
    const triaged: ResolvedEvent['triaged'] = [];
    for (const field of ['severity', 'tags', 'notes'] as const) {
      const last = await this.deps.triage.lastChange(workspaceId, seen.uid, field);
      if (last) triaged.push({ field, ...last });
    }
    return {
      kind: 'event',
      uid: seen.uid,
      event: seen.event,
      flareUrl: seen.flareUrl,
      seenAt: seen.seenAt,
      generation: state.generation,
      last: state.last,
      triaged,
      tenantId: tenant,
    };
  }
}
