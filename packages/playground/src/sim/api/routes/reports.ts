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
 * A request asked through `POST …/reports/requests` completes once `reportReadyMs` have passed on the clock.
 */
import { randomUUID } from 'node:crypto';
import { requireFeature, requireSession } from '../auth.js';
import { isoFromMs } from '../data/seed.js';
import { fail, type Handler, json, type RouteContext } from '../http.js';
import type { SimReportRequest } from '../types.js';

function findRequest(ctx: RouteContext, name: string): SimReportRequest {
  const session = requireSession(ctx);
  requireFeature(session, 'reports');
  const uuid = String(ctx.input.path[name]).toLowerCase();
  const request = ctx.state.reportRequests.find((r) => r.uuid === uuid && r.tenantId === session.tenantId);
  if (request === undefined) return fail(404, 'NOT_FOUND', `Report request ${uuid} not found`);
  if (request.status === 'processing' && request.readyAt !== undefined && ctx.clock.now() >= request.readyAt)
    complete(ctx, request);
  return request;
}

/** `POST …/v4/threat_flow/reports/requests`: processing until `reportReadyMs` of the clock have passed. */
export const createReportRequest: Handler = (ctx) => {
  const session = requireSession(ctx);
  requireFeature(session, 'reports');
  const body = ctx.input.body as {
    report_title: string;
    question?: string | null;
    included_keywords?: string[] | null;
  };
  const now = ctx.clock.now();
  const uuid = randomUUID();
  ctx.state.reportRequests.push({
    tenantId: session.tenantId,
    uuid,
    status: 'processing',
    report: null,
    created_at: isoFromMs(now),
    updated_at: isoFromMs(now),
    error_message: null,
    question: body.question ?? body.report_title,
    includedKeywords: body.included_keywords ?? [],
    readyAt: now + (ctx.state.options.reportReadyMs ?? 90_000),
  });
  return json(200, { request_id: uuid });
};

/** The report Threat Flow writes: Markdown content, and the tenant's events that mention a keyword. */
function complete(ctx: RouteContext, r: SimReportRequest): void {
  const keywords = (r.includedKeywords ?? []).map((k) => k.toLowerCase());
  const events = ctx.state.events.filter((e) => e.tenantId === r.tenantId);
  const matching = events.filter((e) => keywords.some((k) => e.searchText.includes(k)));
  const related = (matching.length > 0 ? matching : events).slice(0, 6).map((e) => e.item.metadata.uid);
  const question = r.question ?? 'the question asked';
  const now = ctx.clock.now();
  r.status = 'completed';
  r.updated_at = isoFromMs(now);
  r.report = {
    id: 9000 + ctx.state.reportRequests.indexOf(r),
    format_type: 'simple_summary',
    title: question.slice(0, 120),
    subtitle: null,
    summary: `Threat Flow found ${related.length} related activities.`,
    content: [
      `# ${question}`,
      '## Key findings',
      `- **${related.length}** related activities in the tenant`,
      '- Actors on *xss* discussed initial access brokers. <b>HTML</b> & <!channel> stay text.',
      '## Details',
      ...Array.from({ length: 4 }, (_, k) => `Paragraph ${k + 1}: analysts observed further mentions.`),
    ].join('\n\n'),
    tags: keywords,
    highlights: [],
    related_activity_uids: related,
    created_at: isoFromMs(now),
    tenant_id: r.tenantId,
  };
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
