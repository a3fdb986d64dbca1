/**
 * Seeded, deterministic data of the simulated API: two organizations, six tenants, three API keys, and per
 * tenant identifiers with events of every type and severity (hostile text included), AI assistance, matching
 * policies, recommendations and report requests. Timestamps are relative to the clock at start-up, floored to
 * the hour, so the same seed and clock give byte-identical data.
 */
import { SEED_TYPES, SEVERITIES } from '../contract.js';
import type {
  IdentifierKind,
  SimApiReport,
  SimEvent,
  SimIdentifier,
  SimKey,
  SimOrganization,
  SimPolicy,
  SimRecommendation,
  SimReportRequest,
  SimTenant,
} from '../types.js';
import { createPrng, type Prng } from './prng.js';
import {
  EVENT_SHAPES,
  FIRST_NAMES,
  HOSTILE_TITLES,
  LAST_NAMES,
  NOTES,
  TAGS,
  TITLE_TEMPLATES,
} from './texts.js';

export const DEFAULT_SEED = 1;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface SeedData {
  organizations: SimOrganization[];
  tenants: SimTenant[];
  keys: SimKey[];
  identifiers: SimIdentifier[];
  events: SimEvent[];
  aiAssistance: Map<string, { prompt: string; response: string }>;
  policies: SimPolicy[];
  recommendations: SimRecommendation[];
  reportRequests: SimReportRequest[];
}

interface TenantPlan {
  id: number;
  organizationId: number;
  name: string;
  domain: string;
  brand: string;
  kinds: [IdentifierKind, IdentifierKind, IdentifierKind];
}

const TENANT_PLANS: TenantPlan[] = [
  {
    id: 2001,
    organizationId: 1001,
    name: 'Acme Production',
    domain: 'acme.example',
    brand: 'Acme',
    kinds: ['domain', 'keyword', 'email'],
  },
  {
    id: 2002,
    organizationId: 1001,
    name: 'Acme Subsidiaries',
    domain: 'acme-labs.example',
    brand: 'Acme Labs',
    kinds: ['domain', 'github_repository', 'brand'],
  },
  {
    id: 2003,
    organizationId: 1001,
    name: 'Acme Staging',
    domain: 'initech.example',
    brand: 'Initech',
    kinds: ['domain', 'name', 'ip'],
  },
  {
    id: 2101,
    organizationId: 1002,
    name: 'Globex Main',
    domain: 'globex.example',
    brand: 'Globex',
    kinds: ['domain', 'bin', 'azure_tenant'],
  },
  {
    id: 2102,
    organizationId: 1002,
    name: 'Globex Research',
    domain: 'hooli.example',
    brand: 'Hooli',
    kinds: ['domain', 'username', 'keyword'],
  },
  {
    id: 2103,
    organizationId: 1002,
    name: 'Globex MSSP client',
    domain: 'umbrella.example',
    brand: 'Umbrella',
    kinds: ['domain', 'email', 'name'],
  },
];

/** Everything a tenant's events may mention, so each query type has something to find. */
interface TenantFacts {
  domain: string;
  brand: string;
  emails: string[];
  people: string[];
  usernames: string[];
  ip: string;
  bin: string;
  repo: string;
  azureTenant: string;
  secret: string;
  keyword: string;
}

export const isoFromMs = (ms: number): string => new Date(ms).toISOString();

export interface SeedOptions {
  /**
   * Move a few events of every identifier into the last day before `nowMs` (open, neither ignored nor
   * remediated), so a digest's first look-back finds something. Off by default: tests rely on the seed as is.
   */
  recentEvents?: boolean;
}

/** Events per identifier moved into the last day by `recentEvents`. @internal */
export const RECENT_EVENTS_PER_IDENTIFIER = 3;

export function buildSeed(seed: number, nowMs: number, options: SeedOptions = {}): SeedData {
  const rng = createPrng(seed);
  const base = Math.floor(nowMs / HOUR) * HOUR;
  const organizations: SimOrganization[] = [
    { id: 1001, name: 'Acme Corporation' },
    { id: 1002, name: 'Globex CERT' },
  ];
  const tenants = [...TENANT_PLANS.map((plan, i) => tenantOf(plan, i)), ...msspClientTenants()];
  const keys: SimKey[] = [
    key(rng, 501, 1001, 2001, [2001, 2002, 2003], true),
    key(rng, 502, 1001, 2002, [2002, 2003], false),
    key(rng, 503, 1002, 2101, [2101, 2102, 2103], true),
  ];

  const identifiers: SimIdentifier[] = [];
  const events: SimEvent[] = [];
  const aiAssistance = new Map<string, { prompt: string; response: string }>();
  const policies: SimPolicy[] = [];
  const recommendations: SimRecommendation[] = [];
  const reportRequests: SimReportRequest[] = [];
  let nextIdentifierId = 3001;
  let nextEventId = 100_000;
  let nextRecommendationId = 40_001;
  let nextReportId = 7001;

  TENANT_PLANS.forEach((plan, tenantIndex) => {
    const facts = factsOf(rng, plan);
    const own = plan.kinds.map((kind) => ({
      id: nextIdentifierId++,
      tenantId: plan.id,
      kind,
      name: identifierName(kind, facts),
    }));
    identifiers.push(...own);

    own.forEach((identifier, identifierIndex) => {
      // Every category once (shuffled), two extra, and every severity through the index; hostile titles on
      // the first. Events carry production type names (`stealer_log`, `forum_post`, …) as production does.
      const categories = Object.keys(SEED_TYPES);
      const types = shuffle(rng, [...categories]).concat(rng.pick(categories), rng.pick(categories));
      types.forEach((category, n) => {
        const names = SEED_TYPES[category] ?? [category];
        const type = names[(n + identifierIndex + tenantIndex) % names.length] ?? category;
        const hostile = identifierIndex === 0 && n < HOSTILE_TITLES.length ? HOSTILE_TITLES[n] : undefined;
        const other = own[(identifierIndex + 1) % own.length];
        const alsoMatches = other && rng.chance(0.1) ? [other] : [];
        const event = makeSeedEvent(rng, {
          tenantId: plan.id,
          category,
          type,
          severity: SEVERITIES[(n + tenantIndex + identifierIndex) % SEVERITIES.length] ?? 'info',
          createdMs: base - rng.int(1, 60 * 24 * 60) * 60_000 - rng.int(0, 59) * 1000,
          identifiers: [identifier, ...alsoMatches],
          facts,
          recordId: nextEventId++,
          titleTemplate: hostile,
          nowMs: base,
        });
        events.push(event);
        aiAssistance.set(event.item.metadata.uid, aiTextFor(rng, event, n));
      });
    });

    policies.push(...policiesOf(rng, plan, own, tenantIndex === 0 ? 28 : 4, base));
    const recCount = tenantIndex === 0 ? 120 : 30;
    for (let i = 0; i < recCount; i++) {
      recommendations.push(recommendationOf(rng, plan.id, nextRecommendationId++, i, facts, base));
    }
    const tenantEventUids = events.filter((e) => e.tenantId === plan.id).map((e) => e.item.metadata.uid);
    for (const status of ['processing', 'completed', 'error', 'completed'] as const) {
      const createdMs = base - rng.int(1, 20) * DAY;
      const report =
        status === 'completed'
          ? reportOf(
              rng,
              nextReportId++,
              plan,
              tenantEventUids,
              createdMs + HOUR,
              reportRequests.length % 2 === 0,
            )
          : null;
      reportRequests.push({
        tenantId: plan.id,
        uuid: rng.uuid(),
        status,
        report,
        created_at: isoFromMs(createdMs),
        updated_at: isoFromMs(status === 'processing' ? createdMs : createdMs + HOUR),
        error_message: status === 'error' ? 'The report generation failed: no related activity found.' : null,
      });
    }
  });

  // Its own generator: the default seed stays byte-identical whether or not this runs.
  if (options.recentEvents) makeRecent(createPrng(seed + 0x5eed), identifiers, events, nowMs);

  return {
    organizations,
    tenants,
    keys,
    identifiers,
    events,
    aiAssistance,
    policies,
    recommendations,
    reportRequests,
  };
}

function tenantOf(plan: TenantPlan, i: number): SimTenant {
  return {
    id: plan.id,
    name: plan.name,
    type: i % 3 === 2 ? 'service-firm' : 'enterprise',
    description: `Monitoring of ${plan.domain}`,
    organization_id: plan.organizationId,
    urn: `urn:flare:tenant:${plan.id}`,
    industry: ['software', 'finance', 'retail'][i % 3] ?? 'global',
    number_of_employees: 250 * (i + 1),
    is_disabled: false,
    is_archived: false,
    identifier_limit: i % 2 === 0 ? 100 : null,
    prevent_global_search: false,
    access_end_at: null,
  };
}

/** Globex runs an MSSP: 60 tenants in all, so tenant listings need several pages. No events of their own. */
const MSSP_CLIENTS = 57;
function msspClientTenants(): SimTenant[] {
  return Array.from({ length: MSSP_CLIENTS }, (_, i) => {
    const id = 2201 + i;
    const n = String(i + 1).padStart(2, '0');
    return {
      ...tenantOf(
        {
          id,
          organizationId: 1002,
          name: `Globex client ${n}`,
          domain: `client${n}.example`,
          brand: `Client ${n}`,
          kinds: ['domain', 'keyword', 'email'],
        },
        i,
      ),
      // Some clients are archived or disabled, as in a real MSSP account.
      is_disabled: i % 19 === 18,
    };
  });
}

function key(
  rng: Prng,
  apiKeyId: number,
  organizationId: number,
  defaultTenantId: number,
  tenantIds: number[],
  features: boolean,
): SimKey {
  return {
    apiKey: `fw_sim_${rng.hex(40)}`,
    apiKeyId,
    organizationId,
    defaultTenantId,
    tenantIds,
    scopes: features ? ['firework', 'threat_flow', 'sandbox'] : ['firework'],
    features: { sandbox: features, reports: features },
  };
}

function factsOf(rng: Prng, plan: TenantPlan): TenantFacts {
  const people = [0, 1, 2].map(() => `${cap(rng.pick(FIRST_NAMES))} ${cap(rng.pick(LAST_NAMES))}`);
  const slug = plan.brand.toLowerCase().replace(/[^a-z]+/g, '-');
  return {
    domain: plan.domain,
    brand: plan.brand,
    people,
    emails: ['ceo', ...people.map((p) => p.toLowerCase().replace(' ', '.'))].map(
      (u) => `${u}@${plan.domain}`,
    ),
    usernames: [`${slug.replace(/-/g, '_')}_admin`, `${slug}-svc`],
    ip: `203.0.113.${rng.int(2, 250)}`,
    bin: `4${rng.int(10_000, 99_999)}`,
    repo: `${slug}/payments-api`,
    azureTenant: rng.uuid(),
    secret: `AKIA${rng.hex(16).toUpperCase()}`,
    keyword: `Project ${rng.pick(['Nightjar', 'Bluebird', 'Kestrel', 'Osprey', 'Heron'])}`,
  };
}

function identifierName(kind: IdentifierKind, f: TenantFacts): string {
  switch (kind) {
    case 'domain':
      return f.domain;
    case 'keyword':
      return f.keyword;
    case 'email':
      return f.emails[0] ?? `ceo@${f.domain}`;
    case 'github_repository':
      return f.repo;
    case 'brand':
      return f.brand;
    case 'name':
      return f.people[0] ?? 'Jane Doe';
    case 'ip':
      return f.ip;
    case 'bin':
      return f.bin;
    case 'azure_tenant':
      return f.azureTenant;
    case 'username':
      return f.usernames[0] ?? 'admin';
  }
}

interface SeedEventInput {
  tenantId: number;
  /** The specification's category (shapes and titles); `type` is the production name. */
  category: string;
  type: string;
  severity: string;
  createdMs: number;
  identifiers: SimIdentifier[];
  facts: TenantFacts;
  recordId: number;
  titleTemplate: string | undefined;
  nowMs: number;
}

function makeSeedEvent(rng: Prng, input: SeedEventInput): SimEvent {
  const shape = EVENT_SHAPES[input.category] ?? { index: input.type, sources: ['unknown'], slashIds: false };
  const source = rng.pick(shape.sources);
  const f = input.facts;
  const recordId = shape.slashIds
    ? `${f.repo.split('/')[0]}/${input.recordId}/files/${rng.pick(['config.yml', '.env', 'dump.csv', 'index.html'])}`
    : String(input.recordId);
  const uid = `${input.type}/${source}/${recordId}`;
  const value = input.identifiers[0]?.name ?? f.domain;
  const template = input.titleTemplate ?? TITLE_TEMPLATES[input.category] ?? 'Activity mentioning {v}';
  const title = template.replace('{v}', value);
  const person = rng.pick(f.people);
  const mentions = [
    rng.pick(f.emails),
    `${person}`,
    `github.com/${f.repo}`,
    `ip ${f.ip}`,
    `bin ${f.bin}`,
    `user ${rng.pick(f.usernames)}`,
    `azure tenant ${f.azureTenant}`,
    `key ${f.secret}`,
    `${rng.pick(f.usernames)}:${f.brand.replace(/\s/g, '')}2025!`,
    f.brand,
  ];
  const picked = shuffle(rng, mentions).slice(0, rng.int(2, 4));
  const description = `Observed ${value} together with ${picked.join(', ')}.`;
  const override = rng.chance(0.15) ? rng.pick(['info', 'low', 'medium', 'high', 'critical'] as const) : null;
  const state = rng.next();
  const highlights: Record<string, string[]> = {};
  if (!rng.chance(0.05)) {
    highlights.title = [markFirst(title, value)];
    if (rng.chance(0.7)) highlights.description = [markFirst(description, value)];
  }
  return {
    tenantId: input.tenantId,
    createdMs: input.createdMs,
    searchText: `${title}\n${description}\n${input.identifiers.map((i) => i.name).join('\n')}`.toLowerCase(),
    item: {
      metadata: {
        uid,
        estimated_created_at: isoFromMs(input.createdMs),
        matched_at: rng.chance(0.05) ? null : isoFromMs(input.createdMs + rng.int(1, 180) * 60_000),
        type: input.type,
        severity: input.severity,
        flare_url: flareUrl(input.tenantId, uid),
      },
      tenant_metadata: {
        severity: override && override !== input.severity ? { original: input.severity, override } : null,
        tags: shuffle(rng, [...TAGS]).slice(0, rng.int(0, 2)),
        notes: input.titleTemplate
          ? 'Note with <!here> and <https://evil.example|a link> & *stars*'
          : noteOf(rng),
        remediated_at: state < 0.08 ? isoFromMs(Math.min(input.createdMs + DAY, input.nowMs)) : null,
        ignored_at: state > 0.92 ? isoFromMs(Math.min(input.createdMs + DAY, input.nowMs)) : null,
      },
      identifiers: input.identifiers.map((i) => ({ id: i.id, name: i.name })),
      highlights,
    },
  };
}

function makeRecent(rng: Prng, identifiers: SimIdentifier[], events: SimEvent[], nowMs: number): void {
  for (const identifier of identifiers) {
    const own = events.filter((e) => e.item.identifiers[0]?.id === identifier.id);
    // Spread over the severities: every other event of the identifier, from the second.
    const picked = own.filter((_, i) => i % 2 === 1).slice(0, RECENT_EVENTS_PER_IDENTIFIER);
    for (const event of picked) {
      const createdMs = nowMs - rng.int(10, 20 * 60) * 60_000 - rng.int(0, 59) * 1000;
      const m = event.item.metadata;
      event.createdMs = createdMs;
      m.estimated_created_at = isoFromMs(createdMs);
      m.matched_at = isoFromMs(Math.min(createdMs + rng.int(1, 9) * 60_000, nowMs));
      event.item.tenant_metadata.ignored_at = null;
      event.item.tenant_metadata.remediated_at = null;
    }
  }
}

export const flareUrl = (tenantId: number, uid: string): string =>
  `https://app.flare.io/#/feed/${tenantId}/event/${encodeURIComponent(uid)}`;

function noteOf(rng: Prng): string | null {
  return rng.chance(0.2) ? rng.pick(NOTES) : null;
}

function markFirst(text: string, value: string): string {
  const at = text.toLowerCase().indexOf(value.toLowerCase());
  if (at < 0) return text;
  // Never truncated: the very long hostile title must reach the Slack renderer whole.
  return `${text.slice(0, at)}<mark>${text.slice(at, at + value.length)}</mark>${text.slice(at + value.length)}`;
}

function aiTextFor(rng: Prng, event: SimEvent, n: number): { prompt: string; response: string } {
  const m = event.item.metadata;
  const prompt = `Explain the ${m.type} event ${m.uid} and recommend next steps.`;
  if (n % 5 !== 0) {
    return {
      prompt,
      response: `This ${m.type.replace(/_/g, ' ')} event was rated ${m.severity}. ${rng.pick([
        'Rotate the exposed credentials and review access logs.',
        'Monitor the source for further posts; no immediate action is required.',
        'Request a takedown and notify the affected users.',
      ])}`,
    };
  }
  const paragraphs = [
    `## Summary\nThe activity **${m.uid}** indicates that data linked to the monitored identifier appeared on a ${m.type.replace(/_/g, ' ')} source.`,
    '## Why it matters\n- Credentials may be *reused* across services\n- Attackers often chain <b>leaked sessions</b> with phishing\n- See [MITRE T1078](https://attack.mitre.org/techniques/T1078/) for details',
    '## Recommended actions\n1. Reset passwords for affected accounts\n2. Revoke active sessions: `az ad user revoke-sessions`\n3. Watch for <script>alert(1)</script> style payloads in shared files & report them <!channel>',
    `## Context\n${'The threat actor has been active since 2023 and sells access to corporate networks. '.repeat(rng.int(8, 25))}`,
  ];
  return { prompt, response: paragraphs.join('\n\n') };
}

function policiesOf(
  rng: Prng,
  plan: TenantPlan,
  own: SimIdentifier[],
  count: number,
  base: number,
): SimPolicy[] {
  const out: SimPolicy[] = [];
  for (let i = 0; i < count; i++) {
    const kind =
      ['INCLUDED_KEYWORDS', 'EXCLUDED_KEYWORDS', 'LUCENE_QUERY', 'ASTP_COOKIES', 'ASTP_DOMAIN'][i % 5] ?? '';
    const value: Record<string, unknown> =
      kind === 'INCLUDED_KEYWORDS'
        ? { keywords: [plan.brand.toLowerCase(), 'vpn', 'payroll'] }
        : kind === 'EXCLUDED_KEYWORDS'
          ? { keywords: ['test', 'example'] }
          : kind === 'LUCENE_QUERY'
            ? { query: `"${plan.domain}" AND (password OR token)` }
            : kind === 'ASTP_COOKIES'
              ? { cookie_names: ['session', 'SSO_TOKEN'], match_subdomains: i % 2 === 0 }
              : { match_mode: 'email_domain_only' };
    const createdMs = base - (count - i) * DAY - rng.int(0, 3600) * 1000;
    const assigned =
      i === 0 && count > 25
        ? Array.from({ length: 30 }, (_, k) => ({ id: 9000 + k, name: `vendor-${k}.${plan.domain}` }))
        : own.filter(() => rng.chance(0.5)).map((x) => ({ id: x.id, name: x.name }));
    out.push({
      tenantId: plan.id,
      uuid: rng.uuid(),
      name: `${plan.brand} ${kind.toLowerCase().replace(/_/g, ' ')} #${i + 1}`,
      policy_type: kind,
      value,
      created_at: isoFromMs(createdMs),
      last_updated_at: isoFromMs(createdMs + rng.int(0, 48) * HOUR),
      assignments: assigned.map((a, k) => ({
        identifier_id: a.id,
        identifier_name: a.name,
        clean_past_events: k % 3 === 0,
        assigned_at: isoFromMs(createdMs + (k + 1) * 60_000),
      })),
    });
  }
  return out;
}

function recommendationOf(
  rng: Prng,
  tenantId: number,
  id: number,
  i: number,
  f: TenantFacts,
  base: number,
): SimRecommendation {
  const type = (['domain', 'azure_tenant', 'email', 'username'] as const)[i % 4] ?? 'domain';
  const status = (['recommended', 'accepted', 'rejected'] as const)[Math.floor(i / 4) % 3] ?? 'recommended';
  const n = i + 1;
  const data: SimRecommendation['data'] =
    type === 'domain'
      ? { type, fqdn: `shop${n}.${f.domain}` }
      : type === 'azure_tenant'
        ? { type, tenant_id: rng.uuid() }
        : type === 'email'
          ? { type, email: `user${n}@${f.domain}` }
          : { type, username: `${f.usernames[0] ?? 'user'}${n}` };
  return {
    tenantId,
    id,
    data,
    status,
    updated_at: isoFromMs(base - rng.int(1, 90 * 24) * HOUR),
    relevancy: rng.pick(['HIGH', 'MEDIUM', 'LOW']),
  };
}

function reportOf(
  rng: Prng,
  id: number,
  plan: TenantPlan,
  uids: string[],
  createdMs: number,
  expanded: boolean,
): SimApiReport {
  const related = shuffle(rng, [...uids]).slice(0, rng.int(2, 5));
  return {
    id,
    format_type: expanded ? 'expanded_summary' : 'simple_summary',
    title: `Threat landscape for ${plan.brand}`,
    subtitle: expanded ? `Weekly intelligence for ${plan.domain}` : null,
    summary: `Activity targeting ${plan.domain} increased this week, driven by stealer logs and forum chatter.`,
    content: [
      `# ${plan.brand}: weekly report`,
      '## Key findings',
      `- ${related.length} related activities, including ransomware claims`,
      '- Credentials of **3 employees** were found in stealer logs',
      '## Details',
      'Actors on *xss* discussed initial access brokers selling VPN sessions. <b>HTML</b> & <i>markup</i> stays text.',
      ...Array.from(
        { length: rng.int(3, 8) },
        (_, k) => `Paragraph ${k + 1}: analysts observed further mentions.`,
      ),
    ].join('\n\n'),
    tags: ['weekly', plan.brand.toLowerCase()],
    highlights: ['Stealer logs rising', 'Ransomware group mentions the brand'],
    related_activity_uids: related,
    created_at: isoFromMs(createdMs),
    tenant_id: plan.id,
  };
}

function shuffle<T>(rng: Prng, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    const a = items[i] as T;
    items[i] = items[j] as T;
    items[j] = a;
  }
  return items;
}

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
