/**
 * The simulator's data and switches. Tests read it for assertions, add fixtures through its helpers and flip
 * its options (upload shape, the unpublished intel endpoint, paging quirks) while the server runs.
 */

import { randomBytes } from 'node:crypto';
import { buildCredentials } from './data/credentials.js';
import { buildSeed, flareUrl, isoFromMs } from './data/seed.js';
import { EVENT_SHAPES } from './data/texts.js';
import type { AnswerMode } from './openapi/answers.js';
import type {
  SimCredential,
  SimEvent,
  SimIdentifier,
  SimKey,
  SimOrganization,
  SimPendingUpload,
  SimPolicy,
  SimRecommendation,
  SimReportRequest,
  SimSearchQuota,
  SimTenant,
  SimUnassignment,
  SimUpload,
} from './types.js';

export interface SimOptions {
  /** Every Nth page (N >= 2) of every paged list is empty with a non-null `next` (0 or 1 disables; default 3). */
  emptyPageEvery: number;
  /** Every Nth page (N >= 2) holds one item fewer than asked though more follow (0 disables; default 0). */
  shortPageEvery: number;
  /** Per-organization rate limits (4 req/s ordinary, 1 req/s search tier) answer 429 when exceeded. */
  enforceRateLimits: boolean;
  /** 'put': `{upload_url}` taking a PUT; 'form': `{upload_url, upload_fields}` taking a multipart POST. */
  uploadShape: 'put' | 'form';
  /** When false (default) `…/v4/threat_flow/intel/requests/{id}` is 404, as it is not published yet. */
  intelRequestsPublished: boolean;
  /** Cursors resume AT the last item returned (re-returning it) instead of after it. Default false. */
  cursorOverlap: boolean;
  /** Global-search quota each organization starts with. */
  initialSearchQuota: number;
  /** Lifetime of presigned upload URLs. */
  uploadUrlTtlMs: number;
  /**
   * How success bodies are written: 'seeded' (the data as stored), or generated from the published response
   * schemas around it: 'lean' (required fields only, nullable ones null) or 'rich' (every field, hostile
   * text, unknown extra fields). See openapi/answers.ts.
   */
  answers: AnswerMode;
  /** How long a report asked through the API takes to be ready (default 90 s of the clock). */
  reportReadyMs?: number;
  /** Accepting a recommendation creates its identifier at once (default); false: it never appears. */
  createIdentifierOnAccept?: boolean;
}

export interface AddEventInput {
  tenantId: number;
  identifierIds: number[];
  /** ISO string or ms. */
  createdAt: string | number;
  type?: string;
  severity?: string;
  title?: string;
  description?: string;
  uid?: string;
  tags?: string[];
  severityOverride?: string;
  notes?: string | null;
}

/** A change made to an event in the portal (or by another tool): each field left out stays as it is. */
export interface PortalChange {
  ignored?: boolean;
  remediated?: boolean;
  /** The event's own severity, as the analysis re-rates it. */
  severity?: string;
  /** The tenant's override; null removes it. */
  override?: string | null;
  tags?: string[];
  notes?: string | null;
}

export class SimState {
  readonly family: string;
  readonly options: SimOptions;
  /** Clock time the data was generated at; bulk credentials are dated from it. */
  readonly seededAt: number;
  readonly organizations: SimOrganization[];
  readonly tenants: SimTenant[];
  readonly keys: SimKey[];
  readonly identifiers: SimIdentifier[];
  readonly events: SimEvent[];
  readonly credentials: SimCredential[];
  readonly aiAssistance: Map<string, { prompt: string; response: string }>;
  readonly policies: SimPolicy[];
  readonly recommendations: SimRecommendation[];
  readonly reportRequests: SimReportRequest[];
  readonly uploads: SimUpload[] = [];
  readonly pendingUploads = new Map<string, SimPendingUpload>();
  readonly unassignments: SimUnassignment[] = [];
  readonly searchQuotas = new Map<number, SimSearchQuota>();
  /** `POST …/credentials/actions` as received, in order, by tenant. */
  readonly credentialActions: { tenantId: number; action: string; hashes: string[]; at: number }[] = [];
  /** Per tenant: remediated pairs by `credential_hash`, ignored identities by name (lower case). */
  readonly remediatedCredentials = new Map<number, Set<string>>();
  readonly ignoredIdentities = new Map<number, Set<string>>();
  private readonly byUid = new Map<string, SimEvent>();
  private addedEvents = 0;

  constructor(init: {
    family: string;
    seed: number;
    nowMs: number;
    options: SimOptions;
    /** A few events of each identifier dated in the last day (the playground's digests have content). */
    recentEvents?: boolean;
  }) {
    const data = buildSeed(init.seed, init.nowMs, { recentEvents: init.recentEvents === true });
    this.family = init.family;
    this.options = init.options;
    this.seededAt = init.nowMs;
    this.organizations = data.organizations;
    this.tenants = data.tenants;
    this.keys = data.keys;
    this.identifiers = data.identifiers;
    this.events = data.events;
    this.aiAssistance = data.aiAssistance;
    this.policies = data.policies;
    this.recommendations = data.recommendations;
    this.reportRequests = data.reportRequests;
    this.credentials = buildCredentials(init.seed, init.nowMs);
    for (const e of this.events) this.byUid.set(e.item.metadata.uid, e);
  }

  eventByUid(uid: string): SimEvent | undefined {
    return this.byUid.get(uid);
  }

  identifiersOf(tenantId: number): SimIdentifier[] {
    return this.identifiers.filter((i) => i.tenantId === tenantId);
  }

  eventsOf(identifierId: number): SimEvent[] {
    return this.events.filter((e) => e.item.identifiers.some((i) => i.id === identifierId));
  }

  /** The tenant's identifier of that name, created when missing (an accepted recommendation). */
  addIdentifier(tenantId: number, name: string, kind: SimIdentifier['kind']): SimIdentifier {
    const existing = this.identifiers.find((i) => i.tenantId === tenantId && i.name === name);
    if (existing) return existing;
    const id = Math.max(0, ...this.identifiers.map((i) => i.id)) + 1;
    const identifier: SimIdentifier = { id, tenantId, name, kind };
    this.identifiers.push(identifier);
    return identifier;
  }

  searchQuota(organizationId: number): SimSearchQuota {
    let quota = this.searchQuotas.get(organizationId);
    if (!quota) {
      quota = { remaining: this.options.initialSearchQuota, recent: new Map() };
      this.searchQuotas.set(organizationId, quota);
    }
    return quota;
  }

  /**
   * Adds an organization with one tenant, one API key (default tenant) and one domain identifier, for tests
   * and benchmarks that need more organizations (each with its own rate limits) than the seed has.
   */
  addOrganization(input: { name: string }): { key: SimKey; tenant: SimTenant; identifier: SimIdentifier } {
    const organizationId = Math.max(...this.organizations.map((o) => o.id)) + 1;
    const tenantId = Math.max(...this.tenants.map((t) => t.id)) + 1;
    const slug = input.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    this.organizations.push({ id: organizationId, name: input.name });
    const tenant: SimTenant = {
      id: tenantId,
      name: `${input.name} Main`,
      type: 'enterprise',
      description: `Monitoring of ${slug}.example`,
      organization_id: organizationId,
      urn: `urn:flare:tenant:${tenantId}`,
      industry: 'software',
      number_of_employees: 500,
      is_disabled: false,
      is_archived: false,
      identifier_limit: null,
      prevent_global_search: false,
      access_end_at: null,
    };
    this.tenants.push(tenant);
    const identifier: SimIdentifier = {
      id: Math.max(...this.identifiers.map((i) => i.id)) + 1,
      tenantId,
      name: `${slug}.example`,
      kind: 'domain',
    };
    this.identifiers.push(identifier);
    const key: SimKey = {
      apiKey: `fw_sim_${randomBytes(20).toString('hex')}`,
      apiKeyId: Math.max(...this.keys.map((k) => k.apiKeyId)) + 1,
      organizationId,
      defaultTenantId: tenantId,
      tenantIds: [tenantId],
      scopes: ['firework'],
      features: { sandbox: false, reports: false },
    };
    this.keys.push(key);
    return { key, tenant, identifier };
  }

  /** Changes an event as a person does in the portal, outside any API client (`at`: when, in ms). */
  changeEvent(uid: string, change: PortalChange, at: number): SimEvent {
    const event = this.byUid.get(uid);
    if (!event) throw new Error(`changeEvent: no event ${uid}`);
    const meta = event.item.tenant_metadata;
    const when = isoFromMs(at);
    if (change.ignored !== undefined) meta.ignored_at = change.ignored ? (meta.ignored_at ?? when) : null;
    if (change.remediated !== undefined)
      meta.remediated_at = change.remediated ? (meta.remediated_at ?? when) : null;
    if (change.severity !== undefined) {
      event.item.metadata.severity = change.severity;
      if (meta.severity) meta.severity = { ...meta.severity, original: change.severity };
    }
    if (change.override !== undefined) {
      const original = event.item.metadata.severity;
      meta.severity = change.override === null ? null : { original, override: change.override };
    }
    if (change.tags !== undefined) meta.tags = [...new Set(change.tags)];
    if (change.notes !== undefined) meta.notes = change.notes;
    return event;
  }

  /** Adds an event (e.g. one that "arrives" after a cursor was stored). */
  addEvent(input: AddEventInput): SimEvent {
    const createdMs = typeof input.createdAt === 'number' ? input.createdAt : Date.parse(input.createdAt);
    if (Number.isNaN(createdMs)) throw new Error(`addEvent: bad createdAt ${String(input.createdAt)}`);
    const type = input.type ?? 'leak';
    const severity = input.severity ?? 'medium';
    this.addedEvents += 1;
    const uid = input.uid ?? `${EVENT_SHAPES[type]?.index ?? type}/sim_added/${this.addedEvents}`;
    if (this.byUid.has(uid)) throw new Error(`addEvent: duplicate uid ${uid}`);
    const identifiers = input.identifierIds.map((id) => {
      const found = this.identifiers.find((i) => i.id === id && i.tenantId === input.tenantId);
      if (!found) throw new Error(`addEvent: identifier ${id} is not in tenant ${input.tenantId}`);
      return { id: found.id, name: found.name };
    });
    const title = input.title ?? `New activity for ${identifiers[0]?.name ?? 'an identifier'}`;
    const description = input.description ?? '';
    const override = input.severityOverride;
    const event: SimEvent = {
      tenantId: input.tenantId,
      createdMs,
      searchText: `${title}\n${description}\n${identifiers.map((i) => i.name).join('\n')}`.toLowerCase(),
      item: {
        metadata: {
          uid,
          estimated_created_at: isoFromMs(createdMs),
          matched_at: isoFromMs(createdMs),
          type,
          severity,
          flare_url: flareUrl(input.tenantId, uid),
        },
        tenant_metadata: {
          severity: override ? { original: severity, override } : null,
          tags: input.tags ?? [],
          notes: input.notes ?? null,
          remediated_at: null,
          ignored_at: null,
        },
        identifiers,
        highlights: { title: [title] },
      },
    };
    this.events.push(event);
    this.byUid.set(uid, event);
    return event;
  }
}
