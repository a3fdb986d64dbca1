/** The route table: every endpoint of the specification under `/{family}/v4|v2/…`, plus tokens and uploads. */
import type { TokenStore } from '../auth.js';
import type { Handler } from '../http.js';
import type { Tier } from '../rate-limit.js';
import type { SimState } from '../state.js';
import { activityHighlights, aiAssistance } from './activities.js';
import { credentialActions, searchCredentials } from './credentials.js';
import { getAnyEvent } from './event-lookup.js';
import { updateTenantMetadata } from './event-metadata.js';
import { eventActions, searchEvents, searchTenantEvents } from './events.js';
import { createIdentifier, deleteIdentifier, getIdentifier, updateIdentifier } from './identifier-changes.js';
import { listIdentifiers } from './identifiers.js';
import { listAssignments, listPolicies, unassignPolicy } from './policies.js';
import { listRecommendations, recommendationActions, redirectToSlash } from './recommendations.js';
import { createReportRequest, getIntelRequest, getReportRequest } from './reports.js';
import { createUpload, postUpload, putUpload } from './sandbox.js';
import { expandEvent } from './stealer-logs.js';
import { listTenants } from './tenants.js';

export interface Route {
  method: string;
  pattern: RegExp;
  /** 'bearer': needs a valid token; 'none': token generation (API key) and presigned uploads. */
  auth: 'bearer' | 'none';
  tier: Tier;
  handler: Handler;
  /** A route that does not exist (yet) when this returns false. */
  enabled?: (state: SimState) => boolean;
  /** false: not part of the API (presigned uploads stand for object storage), so not held to its contract. */
  contract?: false;
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function buildRoutes(family: string, tokens: TokenStore): Route[] {
  const f = `/${escapeRegExp(family)}`;
  const r = (method: string, path: string, handler: Handler, extra: Partial<Route> = {}): Route => ({
    method,
    pattern: new RegExp(`^${path}$`),
    auth: 'bearer',
    tier: 'ordinary',
    handler,
    ...extra,
  });
  const seg = '([^/]+)';
  return [
    r('POST', '/tokens/generate', tokens.generate, { auth: 'none' }),
    r('GET', '/tokens/test', tokens.test),
    r('POST', `${f}/v4/events/identifiers/${seg}/_search`, searchEvents),
    r('POST', `${f}/v4/events/actions`, eventActions),
    r('POST', `${f}/v4/events/tenant/_search`, searchTenantEvents),
    r('POST', `${f}/v4/credentials/global/_search`, searchCredentials, { tier: 'search' }),
    r('POST', `${f}/v4/credentials/actions`, credentialActions),
    r('GET', `${f}/v4/events/`, getAnyEvent),
    r('GET', `${f}/v4/events/_expand`, expandEvent),
    r('GET', `${f}/v4/matching-policies`, listPolicies),
    r('GET', `${f}/v4/matching-policies/${seg}/assignments`, listAssignments),
    r('DELETE', `${f}/v4/matching-policies/${seg}/assignments`, unassignPolicy),
    r('GET', `${f}/v4/identifier-recommendations/`, listRecommendations),
    r('GET', `${f}/v4/identifier-recommendations`, redirectToSlash, { auth: 'none' }),
    r('POST', `${f}/v4/identifier-recommendations/actions`, recommendationActions),
    r('PATCH', `${f}/v4/events/tenant/metadata`, updateTenantMetadata),
    r('GET', `${f}/v4/identifiers/`, listIdentifiers),
    r('GET', `${f}/v4/identifiers`, redirectToSlash, { auth: 'none' }),
    r('POST', `${f}/v4/identifiers/`, createIdentifier),
    r('GET', `${f}/v4/identifiers/${seg}`, getIdentifier),
    r('PUT', `${f}/v4/identifiers/${seg}`, updateIdentifier),
    r('DELETE', `${f}/v4/identifiers/${seg}`, deleteIdentifier),
    r('POST', `${f}/v4/sandbox/uploads`, createUpload),
    r('GET', `${f}/v2/activities/${seg}/${seg}/(.+)/ai_assistance`, aiAssistance),
    r('POST', `${f}/v2/activities/${seg}/${seg}/(.+)/highlights`, activityHighlights),
    r('GET', `${f}/v2/organizations/${seg}/tenants`, listTenants),
    r('POST', `${f}/v4/threat_flow/reports/requests`, createReportRequest),
    r('GET', `${f}/v4/threat_flow/reports/requests/${seg}`, getReportRequest),
    r('GET', `${f}/v4/threat_flow/intel/requests/${seg}`, getIntelRequest, {
      enabled: (state) => state.options.intelRequestsPublished,
    }),
    r('PUT', `/_upload/${seg}`, putUpload, { auth: 'none', contract: false }),
    r('POST', '/_upload', postUpload, { auth: 'none', contract: false }),
  ];
}

/** The route for a request, 'method' when the path exists with other methods, undefined when it does not. */
export function matchRoute(
  routes: Route[],
  state: SimState,
  method: string,
  path: string,
): { route: Route; params: string[] } | 'method' | undefined {
  let pathExists = false;
  for (const route of routes) {
    if (route.enabled && !route.enabled(state)) continue;
    const m = route.pattern.exec(path);
    if (!m) continue;
    pathExists = true;
    if (route.method === method) return { route, params: m.slice(1).map((p) => p ?? '') };
  }
  return pathExists ? 'method' : undefined;
}
