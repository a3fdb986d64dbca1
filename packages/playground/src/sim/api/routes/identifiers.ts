/**
 * `GET …/v4/identifiers/` (trailing slash; without it, 307 to the slashed URL like FastAPI): the token's
 * tenant's identifiers as `PublicIdentifierResponse`, with `from`, `size` (1–100, default 20), `order_by`
 * (id, name, type; default id, ascending), `is_disabled`, `group_id`, `types` (repeated) and
 * `authorization_status`. No text query: that is what the contract publishes.
 *
 * The seed's identifier kinds map onto the contract's data shapes: e-mails, usernames and people are
 * `identity` identifiers with one attribute; a brand is a `keyword`.
 */
import { requireSession } from '../auth.js';
import { SEVERITIES } from '../contract.js';
import { queryDigest } from '../cursors.js';
import { isoFromMs } from '../data/seed.js';
import type { Handler, RouteContext } from '../http.js';
import { json } from '../http.js';
import { arraySequence, paginate } from '../paging.js';
import type { SimIdentifier } from '../types.js';

/** The contract's `data` of an identifier (discriminated by `type`). */
function identifierData(i: SimIdentifier): Record<string, unknown> {
  if (i.data !== undefined) return i.data;
  switch (i.kind) {
    case 'domain':
      return { type: 'domain', fqdn: i.name };
    case 'keyword':
    case 'brand':
      return { type: 'keyword', keyword: i.name };
    case 'ip':
      return { type: 'ip', ip: i.name };
    case 'bin':
      return { type: 'bin', bin: i.name };
    case 'azure_tenant':
      return { type: 'azure_tenant', tenant_id: i.name };
    case 'github_repository': {
      const [owner = i.name, repo = i.name] = i.name.split('/');
      return { type: 'github_repository', repo_owner: owner, repo_name: repo };
    }
    case 'email':
      return { type: 'identity', attributes: [{ type: 'email', email: i.name }] };
    case 'username':
      return { type: 'identity', attributes: [{ type: 'username', username: i.name }] };
    case 'name': {
      const space = i.name.indexOf(' ');
      const first = space < 0 ? i.name : i.name.slice(0, space);
      const last = space < 0 ? '' : i.name.slice(space + 1);
      return {
        type: 'identity',
        attributes: [{ type: 'name', first_name: first, last_name: last, is_strict: false }],
      };
    }
  }
}

export const listIdentifiers: Handler = (ctx) => {
  const session = requireSession(ctx);
  // Held to the contract and its defaults filled in by the server (size 20, order_by id).
  const q = ctx.input.query as {
    from?: string | null;
    size: number;
    order_by: 'id' | 'name' | 'type';
    is_disabled?: boolean | null;
    group_id?: number | null;
    types?: string[] | null;
  };
  const { size, from, types } = q;
  const orderBy = q.order_by;
  const groupId = q.group_id ?? undefined;
  const disabled = q.is_disabled ?? undefined;

  const rows = ctx.state
    .identifiersOf(session.tenantId)
    .map((i) => ({ i, data: identifierData(i) }))
    .filter((r) => !types || types.length === 0 || types.includes(String(r.data.type)))
    // No identifier is in a group.
    .filter(() => groupId === undefined)
    .filter((r) => disabled === undefined || (r.i.disabled === true) === disabled);
  const keyOf = (r: (typeof rows)[number]): [number, string | number] => {
    if (orderBy === 'id') return [r.i.id, 0];
    const by = orderBy === 'name' ? r.i.name.toLowerCase() : String(r.data.type);
    return [0, `${by}\u0000${String(r.i.id).padStart(12, '0')}`];
  };
  rows.sort((a, b) => {
    const ka = keyOf(a);
    const kb = keyOf(b);
    return ka[0] !== kb[0] ? ka[0] - kb[0] : ka[1] < kb[1] ? -1 : ka[1] > kb[1] ? 1 : 0;
  });
  const page = paginate(arraySequence(rows), {
    from,
    size,
    order: 'asc',
    keyOf,
    digest: queryDigest({
      route: 'identifiers',
      tenant: session.tenantId,
      size,
      orderBy,
      types,
      groupId,
      disabled,
    }),
    loc: ['query', 'from'],
    emptyPageEvery: ctx.state.options.emptyPageEvery,
    shortPageEvery: ctx.state.options.shortPageEvery,
  });
  return json(200, {
    items: page.items.map(({ i }) => identifierAnswer(ctx, i)),
    next: page.next,
  });
};

/** An identifier as `PublicIdentifierResponse`. */
export function identifierAnswer(ctx: RouteContext, i: SimIdentifier): Record<string, unknown> {
  return {
    id: i.id,
    name: i.name,
    tenant_id: i.tenantId,
    data: identifierData(i),
    categories: i.categories ?? [],
    emerging_categories: i.emergingCategories ?? [],
    severities: i.severities ?? [...SEVERITIES],
    group_id: null,
    enrichments: {
      domain_reachable_at: null,
      domain_resolves_at: null,
      usage_count: 0,
      event_count: ctx.state.eventsOf(i.id).length,
      authorization_status: null,
    },
    is_disabled: i.disabled === true,
    updated_at: isoFromMs(i.updatedAt ?? ctx.state.seededAt),
  };
}

/** A value as text with every object's keys sorted, lower-cased: two equal watches read the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${k}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null).toLowerCase();
}

/** Whether an identifier watches what `data` describes. */
export function sameData(a: SimIdentifier, data: Record<string, unknown>): boolean {
  return canonical(identifierData(a)) === canonical(data);
}
