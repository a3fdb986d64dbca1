/**
 * Events as a workflow, with no Slack in it: a page of an identifier's events (empty pages that are not the
 * last skipped, a bounded number of extra requests), the context a message is rendered from, AI assistance,
 * and acting on events once however many clicks (act-once over store leases), audited.
 */
import type { Event, EventSearchInput, SearchPage } from '../../api/index.js';
import { ForbiddenError, NotFoundError } from '../../api/index.js';
import { ACT_LEASE_MS, actOnce, whileKeptAlive } from '../../domain/events/act-once.js';
import { EventChanges, type EventStateChange } from '../../domain/events/changes.js';
import { compactEvent } from '../../domain/events/compact.js';
import {
  type EventsContextOf,
  EventsContextStore,
  type ShownEvent,
  storedSearchOf,
} from '../../domain/events/context.js';
import { KnownTags } from '../../domain/events/known-tags.js';
import { type Acted, eventTitle, isApplicable, sortBySeverity } from '../../domain/events/model.js';
import type {
  EventActing,
  EventActOutcome,
  EventActRequest,
  EventExplaining,
  EventSearching,
  SearchRequest,
} from '../../domain/events/ports.js';
import { FairGate } from '../../domain/fair-gate.js';
import { skipEmptyPages } from '../../domain/pages.js';
import type { PortalLinks } from '../../domain/portal-links.js';
import type { ApiAccess, WorkspaceApi } from '../../domain/workspace-api.js';
import { type Clock, realSleep } from '../../kernel/clock.js';
import { VigilError } from '../../kernel/errors.js';
import { SingleFlight } from '../../kernel/single-flight.js';
import type { Repositories } from '../../store/index.js';

/** Extra requests made past empty pages before showing "no events on this page yet". */
const MAX_EXTRA_PAGES = 5;
/** How long a clicker who lost the race waits for the winner's result: polls, not a deadline (the clock may stand still). */
const WAIT_POLLS = 40;
const POLL_MS = 100;

export interface FetchedPage {
  events: Event[];
  /** The cursor of the page after this one; null after the last page. */
  next: string | null;
  /** Requests made (1 + empty pages skipped). */
  requests: number;
  /** The API host the search went to. */
  host: string;
  /** The tenant searched (undefined: the key's default tenant). */
  tenantId?: number | undefined;
}

export interface PageActOutcome {
  /** Indexes of the events this click ignored, with the generation each moved to. */
  acted: { index: number; generation: number }[];
  /** Events teammates had already handled or were handling. */
  byOthers: number;
  at: number;
}

export interface EventsServiceDeps {
  api: ApiAccess;
  repos: Repositories;
  clock: Clock;
  sleep?: (ms: number) => Promise<void>;
  /** Admission of searches, fair between members (a default gate when absent). */
  gate?: FairGate;
  /** Where the service tells of the changes it makes (a channel nobody listens to when absent). */
  changes?: EventChanges;
  /** Where the portal links of the events shown are remembered (Work Objects); none when absent. */
  portalLinks?: PortalLinks;
}

export class EventsService implements EventActing, EventExplaining, EventSearching {
  readonly contexts: EventsContextStore;
  readonly gate: FairGate;
  private readonly explaining = new SingleFlight<string>();
  private readonly sleep: (ms: number) => Promise<void>;
  /** Where the changes this service makes are told (alert messages follow their events through it). */
  readonly changes: EventChanges;

  constructor(private readonly deps: EventsServiceDeps) {
    this.contexts = new EventsContextStore(deps.repos);
    this.gate = deps.gate ?? new FairGate();
    this.sleep = deps.sleep ?? realSleep;
    this.changes = deps.changes ?? new EventChanges();
  }

  /**
   * The page at `input.from` (or the first), skipping up to MAX_EXTRA_PAGES empty pages that have a `next`.
   * `scope: 'tenant'` searches the tenant-wide feed (every identifier) with the same body.
   */
  async fetchPage(workspaceId: string, input: EventSearchInput, scope?: 'tenant'): Promise<FetchedPage> {
    let tenant = 'this tenant';
    const search = (api: WorkspaceApi, i: EventSearchInput): Promise<SearchPage<Event>> => {
      if (scope !== 'tenant') return api.session.searchEvents(i);
      const { identifierId: _all, ...feed } = i;
      return api.session.searchTenantEvents(feed);
    };
    try {
      return await this.deps.api.call(
        workspaceId,
        async (api) => {
          tenant = tenantOf(api);
          const { page, requests } = await skipEmptyPages(
            (from) => search(api, from === undefined ? input : { ...input, from }),
            input.from,
            MAX_EXTRA_PAGES,
          );
          return {
            events: page.items,
            next: page.next,
            requests,
            host: api.host,
            tenantId: api.session.tenantId,
            quota: page.quota,
          };
        },
        (r) => r.quota,
      );
    } catch (err) {
      throw scope === 'tenant' ? err : withSearchContext(err, input.identifierId, tenant);
    }
  }

  /** A search, from its input to the context a message is rendered from (not yet saved). */
  async searchToContext(req: SearchRequest): Promise<EventsContextOf<'search'>> {
    const input = req.from === undefined ? req.input : { ...req.input, from: req.from };
    // One member's burst waits its turn (or is told to wait) instead of delaying everyone's searches.
    const page = await this.gate.run(req.workspaceId, req.userId, () =>
      this.fetchPage(req.workspaceId, input, req.scope),
    );
    // The tags seen here are offered in forms (triage, digest filters).
    await new KnownTags(this.deps.repos).remember(
      req.workspaceId,
      page.tenantId,
      page.events.flatMap((e) => e.tenant_metadata?.tags ?? []),
    );
    const shown = await this.shownEvents(req.workspaceId, page.events, req.secrets);
    await this.deps.portalLinks?.remember(
      req.workspaceId,
      page.tenantId,
      shown.map((s) => s.event),
    );
    const events = req.sort === 'severity' ? sortBySeverity(shown, (s) => s.event) : shown;
    const ctx: EventsContextOf<'search'> = {
      v: 2,
      kind: 'search',
      workspaceId: req.workspaceId,
      userId: req.userId,
      channelId: req.channelId,
      commandText: req.commandText,
      ...storedSearchOf(req.input),
      pageNumber: req.pageNumber,
      offset: req.offset ?? 0,
      apiHost: page.host,
      events,
    };
    if (page.tenantId !== undefined) ctx.tenantId = page.tenantId;
    if (req.sort !== undefined) ctx.sort = req.sort;
    if (req.scope !== undefined) ctx.scope = req.scope;
    if (page.next !== null) ctx.cursor = page.next;
    if (page.events.length === 0 && page.next !== null) ctx.emptyButMore = true;
    if (req.message !== undefined) ctx.message = req.message;
    return ctx;
  }

  /** The state generation of an event: its buttons act only while it is current. */
  async generationOf(workspaceId: string, uid: string): Promise<number> {
    return (await this.deps.repos.eventStates.get(workspaceId, uid)).generation;
  }

  /** The events of a fresh page, each with the state generation its buttons act on. */
  async shownEvents(
    workspaceId: string,
    events: readonly Event[],
    secrets: readonly string[] = [],
  ): Promise<ShownEvent[]> {
    return Promise.all(
      events.slice(0, 10).map(async (event) => ({
        event: compactEvent(event, secrets),
        generation: (await this.deps.repos.eventStates.get(workspaceId, event.metadata.uid)).generation,
      })),
    );
  }

  /**
   * The AI assistance text of an event; a missing event or a refusal said in those terms. Asked once however
   * many people click Explain on the event at the same time (each click is answered with the same text).
   */
  explain(workspaceId: string, uid: string): Promise<string> {
    return this.explaining.run(`${workspaceId}\n${uid}`, () => this.askExplanation(workspaceId, uid));
  }

  private async askExplanation(workspaceId: string, uid: string): Promise<string> {
    try {
      const ai = await this.deps.api.call(workspaceId, ({ session }) => session.getAiAssistance(uid));
      return ai.response;
    } catch (err) {
      const shown = uid.replaceAll('`', "'").slice(0, 200);
      if (err instanceof NotFoundError) {
        throw new VigilError(
          `Event \`${shown}\` was not found in this workspace’s tenant, or it has no AI assistance.`,
          'Check the event id (the ID line of a result), or run the search again.',
          { cause: err },
        );
      }
      if (err instanceof ForbiddenError) {
        throw new VigilError(`The API key may not read the AI assistance of event \`${shown}\`.`, err.hint, {
          cause: err,
        });
      }
      throw err;
    }
  }

  /**
   * Acts on one event if its state is still at generation `from`: one upstream call however many clickers,
   * recorded and audited. A clicker who lost the race waits briefly for the winner's result.
   */
  async actOnEvent(req: EventActRequest): Promise<EventActOutcome> {
    const { workspaceId, uid, from, action } = req;
    const states = this.deps.repos.eventStates;
    const acted: Acted = { action, by: req.by, at: this.deps.clock.now() };
    const change: EventStateChange = {
      workspaceId,
      uid,
      action,
      by: req.by,
      at: acted.at,
      generation: from + 1,
      ...(req.title ? { title: req.title } : {}),
    };
    const outcome = await actOnce({
      acquire: () => states.begin(workspaceId, uid, from, acted, ACT_LEASE_MS),
      stillDue: async () => (await states.get(workspaceId, uid)).generation === from,
      act: async () => {
        await this.changes.preparing(change);
        await this.deps.api.call(workspaceId, ({ session }) => session.eventAction({ action, uids: [uid] }));
        const state = await states.commit(workspaceId, uid, from, acted);
        await this.deps.repos.audit.append({
          teamId: workspaceId,
          userId: req.by,
          action: `event.${action}`,
          target: uid,
          detail: req.detail,
          ...(req.title ? { title: req.title } : {}),
        });
        return state.generation;
      },
      onFailure: () => states.abandon(workspaceId, uid, from),
    });
    if (outcome.kind === 'done') {
      this.changes.made({ ...change, generation: outcome.value });
      return { kind: 'acted', generation: outcome.value, acted };
    }
    if (outcome.kind === 'stale') return this.staleOutcome(workspaceId, uid);
    return this.waitForWinner(workspaceId, uid, from);
  }

  /** "Ignore all on this page": one call for every open event this click wins, in batches of ten upstream. */
  async ignorePage(req: {
    workspaceId: string;
    events: readonly ShownEvent[];
    by: string;
  }): Promise<PageActOutcome> {
    const { workspaceId, by } = req;
    const states = this.deps.repos.eventStates;
    const at = this.deps.clock.now();
    const acted: Acted = { action: 'ignore', by, at };
    const won: {
      index: number;
      uid: string;
      from: number;
      lease: NonNullable<Awaited<ReturnType<typeof states.begin>>>;
    }[] = [];
    let byOthers = 0;
    for (const [index, shown] of req.events.entries()) {
      if (shown.acted !== undefined || !isApplicable(shown.event, 'ignore')) continue;
      const uid = shown.event.metadata.uid;
      const from = shown.generation;
      const due = async () => (await states.get(workspaceId, uid)).generation === from;
      const lease = (await due())
        ? await states.begin(workspaceId, uid, from, acted, ACT_LEASE_MS)
        : undefined;
      if (lease && (await due())) won.push({ index, uid, from, lease });
      else {
        await lease?.release();
        byOthers++;
      }
    }
    if (won.length === 0) return { acted: [], byOthers, at };
    const changes: EventStateChange[] = won.map((w) => {
      const event = req.events[w.index]?.event;
      const title = event === undefined ? '' : eventTitle(event);
      return {
        workspaceId,
        uid: w.uid,
        action: 'ignore',
        by,
        at,
        generation: w.from + 1,
        ...(title ? { title } : {}),
      };
    });
    try {
      await whileKeptAlive(
        won.map((w) => w.lease),
        async () => {
          for (const change of changes) await this.changes.preparing(change);
          await this.deps.api.call(workspaceId, ({ session }) =>
            session.eventAction({ action: 'ignore', uids: won.map((w) => w.uid) }),
          );
          for (const w of won) await states.commit(workspaceId, w.uid, w.from, acted);
        },
      ).catch(async (err: unknown) => {
        await Promise.all(won.map((w) => states.abandon(workspaceId, w.uid, w.from)));
        throw err;
      });
      // One entry for the whole click, with its count: the log reads as what people did.
      const first = won[0];
      const firstEvent = first === undefined ? undefined : req.events[first.index]?.event;
      const title = won.length === 1 && firstEvent !== undefined ? eventTitle(firstEvent) : '';
      await this.deps.repos.audit.append({
        teamId: workspaceId,
        userId: by,
        action: 'event.ignore',
        target: first?.uid ?? '',
        detail: 'ignore all on page, from Slack',
        count: won.length,
        targets: won.map((w) => w.uid),
        ...(title ? { title } : {}),
      });
    } finally {
      await Promise.all(won.map((w) => w.lease.release()));
    }
    for (const change of changes) this.changes.made(change);
    return { acted: won.map((w) => ({ index: w.index, generation: w.from + 1 })), byOthers, at };
  }

  private async staleOutcome(workspaceId: string, uid: string): Promise<EventActOutcome> {
    const now = await this.deps.repos.eventStates.get(workspaceId, uid);
    return { kind: 'stale', generation: now.generation, last: now.last };
  }

  private async waitForWinner(workspaceId: string, uid: string, from: number): Promise<EventActOutcome> {
    const states = this.deps.repos.eventStates;
    for (let i = 0; i < WAIT_POLLS; i++) {
      const now = await states.get(workspaceId, uid);
      if (now.generation !== from) return { kind: 'stale', generation: now.generation, last: now.last };
      await this.sleep(POLL_MS);
    }
    return { kind: 'busy', acting: await states.actingNow(workspaceId, uid, from) };
  }
}

function tenantOf(api: WorkspaceApi): string {
  const c = api.connection;
  if (c === undefined)
    return api.session.tenantId === undefined ? 'this tenant' : `tenant ${api.session.tenantId}`;
  return c.tenantName ? `tenant ${c.tenantName} (${c.tenantId})` : `tenant ${c.tenantId}`;
}

/** Errors of an event search, said in terms of what was searched. */
function withSearchContext(err: unknown, identifierId: number, tenant: string): unknown {
  if (err instanceof NotFoundError) {
    return new VigilError(
      `Identifier ${identifierId} was not found in ${tenant}.`,
      'Check the identifier id in the threat-intel portal (Identifiers); it may belong to another tenant — `/vigil tenants` lists them.',
      { cause: err },
    );
  }
  if (err instanceof ForbiddenError && err.code === 'GLOBAL_SEARCH_QUOTA_EXCEEDED') {
    return new VigilError(
      `The search quota of ${tenant} is spent, so identifier ${identifierId} could not be searched.`,
      'Wait for the quota to renew, or ask your threat-intel account owner to raise it.',
      { cause: err },
    );
  }
  if (err instanceof ForbiddenError) {
    return new VigilError(
      `The API key may not search the events of identifier ${identifierId} in ${tenant} (403).`,
      err.hint,
      { cause: err },
    );
  }
  return err;
}
