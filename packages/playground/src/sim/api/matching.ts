/**
 * Plausible search semantics for the identifier event feed: query objects match case-insensitively on the
 * event's full text, and filters follow the specification (a single severity means "that level or higher",
 * using the tenant's override when there is one; an array means "exactly these").
 */
import { SEVERITIES, typeMatchesFilter } from './contract.js';
import type { DateRange, EventQueryBody, EventSearchBody } from './requests.js';
import type { SimEvent } from './types.js';
import { parseIsoMs } from './validation.js';

const has = (text: string, needle: string): boolean =>
  needle.length > 0 && text.includes(needle.toLowerCase());

export function matchesQuery(event: SimEvent, query: EventQueryBody): boolean {
  const t = event.searchText;
  switch (query.type) {
    case 'domain':
      return has(t, query.fqdn);
    case 'email':
      return has(t, query.email);
    case 'keyword':
      return has(t, query.keyword);
    case 'username':
      return has(t, query.username);
    case 'brand':
      return has(t, query.name);
    case 'bin':
      return has(t, query.bin);
    case 'ip':
      return has(t, query.ip);
    case 'secret':
      return has(t, query.secret);
    case 'azure_tenant':
      return has(t, query.tenant_id);
    case 'github_repository':
      return has(t, `${query.repo_owner}/${query.repo_name}`);
    case 'credentials':
      return has(t, query.username) && has(t, query.password);
    case 'name':
      return query.is_strict
        ? has(t, `${query.first_name} ${query.last_name}`)
        : has(t, query.first_name) && has(t, query.last_name);
    case 'query_string':
      return matchesQueryString(t, query.query_string);
  }
}

/**
 * A small Lucene-like subset: `a OR b` alternatives, each a conjunction of words and "quoted phrases";
 * `-word` excludes; `AND` is implicit.
 */
function matchesQueryString(text: string, q: string): boolean {
  const alternatives = q.split(/\s+OR\s+/);
  return alternatives.some((alt) => {
    const terms = [...alt.matchAll(/(-?)"([^"]*)"|(-?)(\S+)/g)]
      .map((m) => ({ negate: (m[1] ?? m[3]) === '-', term: (m[2] ?? m[4] ?? '').toLowerCase() }))
      .filter(({ term }) => term !== '' && term !== 'and');
    return terms.length > 0 && terms.every(({ negate, term }) => text.includes(term) !== negate);
  });
}

const rank = (severity: string): number => SEVERITIES.indexOf(severity as (typeof SEVERITIES)[number]);

const effectiveSeverity = (e: SimEvent): string =>
  e.item.tenant_metadata.severity?.override ?? e.item.metadata.severity;

function inRange(ms: number, range: DateRange | undefined): boolean {
  if (!range) return true;
  const bound = (v: string | null | undefined) => (v ? parseIsoMs(v) : undefined);
  const gt = bound(range.gt);
  const gte = bound(range.gte);
  const lt = bound(range.lt);
  const lte = bound(range.lte);
  return (
    (gt === undefined || ms > gt) &&
    (gte === undefined || ms >= gte) &&
    (lt === undefined || ms < lt) &&
    (lte === undefined || ms <= lte)
  );
}

function statusOf(e: SimEvent): string[] {
  const out: string[] = [];
  if (e.item.tenant_metadata.ignored_at) out.push('ignored');
  if (e.item.tenant_metadata.remediated_at) out.push('remediated');
  return out.length === 0 ? ['open'] : out;
}

export function matchesFilters(e: SimEvent, filters: EventSearchBody['filters']): boolean {
  if (!filters) return true;
  const sev = effectiveSeverity(e);
  if (typeof filters.severity === 'string' && rank(sev) < rank(filters.severity)) return false;
  if (
    Array.isArray(filters.severity) &&
    filters.severity.length > 0 &&
    !filters.severity.includes(sev as never)
  ) {
    return false;
  }
  // Filter values are categories (`leak`) or production names (`stealer_log`); events carry the latter.
  const type = e.item.metadata.type;
  if (filters.type && filters.type.length > 0 && !filters.type.some((f) => typeMatchesFilter(type, f))) {
    return false;
  }
  if (!inRange(e.createdMs, filters.estimated_created_at)) return false;
  if (filters.materialized_at) {
    const matched = e.item.metadata.matched_at;
    if (!matched || !inRange(Date.parse(matched), filters.materialized_at)) return false;
  }
  if (
    filters.tags &&
    filters.tags.length > 0 &&
    !filters.tags.some((t) => e.item.tenant_metadata.tags.includes(t))
  ) {
    return false;
  }
  // `is_ignored` / `is_remediated`: true restricts to such events (docs/API-NOTES.md#event-search); the published
  // `FeedFilters` has no `status`, so the server refuses it before it gets here.
  const status = statusOf(e);
  if (filters.is_ignored === true && !status.includes('ignored')) return false;
  if (filters.is_remediated === true && !status.includes('remediated')) return false;
  return true;
}
