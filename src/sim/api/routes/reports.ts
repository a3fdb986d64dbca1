/**
 * Report requests.
 *
 * Deprecated `GET …/v4/threat_flow/reports/requests/{request_info_id}` → `{status, report}` (report is null
 * unless completed).
 *
 * Replacement `GET …/v4/threat_flow/intel/requests/{id}`: 404 (unknown route) until
 * `state.options.intelRequestsPublished` is set. Its body, the simulator's guess at the unpublished shape:
 *   { id: string (uuid), status: 'processing' | 'completed' | 'error', created_at: string, updated_at: string,
 *     intel: ApiReport | null, error: { code: string, message: string } | null }
 * Both need the reports feature (403 FEATURE_NOT_ENABLED) and only see the token's tenant (404 NOT_FOUND).
 */
import { requireFeature, requireSession } from '../auth.js';
import { fail, type Handler, json, type RouteContext } from '../http.js';
import type { SimReportRequest } from '../types.js';

function findRequest(ctx: RouteContext, name: string): SimReportRequest {
  const session = requireSession(ctx);
  requireFeature(session, 'reports');
  const uuid = String(ctx.input.path[name]).toLowerCase();
  const request = ctx.state.reportRequests.find((r) => r.uuid === uuid && r.tenantId === session.tenantId);
  return request ?? fail(404, 'NOT_FOUND', `Report request ${uuid} not found`);
}

export const getReportRequest: Handler = (ctx) => {
  const r = findRequest(ctx, 'request_info_id');
  return json(200, { status: r.status, report: r.report ? structuredClone(r.report) : null });
};

export const getIntelRequest: Handler = (ctx) => {
  const r = findRequest(ctx, 'id');
  return json(200, {
    id: r.uuid,
    status: r.status,
    created_at: r.created_at,
    updated_at: r.updated_at,
    intel: r.report ? structuredClone(r.report) : null,
    error: r.status === 'error' ? { code: 'GENERATION_FAILED', message: r.error_message ?? 'failed' } : null,
  });
};
