/**
 * Report requests (v4 threat flow). The documented endpoint `…/threat_flow/reports/requests/{id}` is
 * deprecated in favour of `…/threat_flow/intel/requests/{id}`, which is not deployed everywhere. The client
 * tries the replacement while it answers; the first 401/403/404/405 from it sends this request to the
 * documented path and is remembered for the client's host, so later reports cost one call.
 */
import { z } from 'zod';
import { ApiError } from '../core/errors.js';
import type { ResourceSession } from '../core/resource-session.js';
import { nullableString } from '../core/schema.js';
import { uuidSegment } from '../core/wire.js';

/** Tolerant of missing fields: lists default to empty, texts to empty strings. */
const ApiReportSchema = z.object({
  id: z.number().optional(),
  format_type: z.string().optional(),
  title: z.string().default(''),
  subtitle: nullableString.optional(),
  summary: z.string().default(''),
  content: z.string().default(''),
  tags: z.array(z.string()).default([]),
  highlights: z.array(z.string()).default([]),
  related_activity_uids: z.array(z.string()).default([]),
  created_at: z.string().optional(),
  tenant_id: z.number().nullable().optional(),
});
export type ApiReport = z.infer<typeof ApiReportSchema>;

/** @internal */
export const ReportRequestSchema = z.object({
  // Required by the contract; an unknown status is kept as text rather than failing the call.
  status: z.string().default('processing'),
  report: ApiReportSchema.nullish(),
});

/**
 * The replacement endpoint's shape is unpublished: the report may come as `intel` (the likeliest, after
 * the endpoint's name), `report` or `result`; failures may carry `error.message`.
 */
const IntelRequestSchema = z.looseObject({
  status: z.string().default('processing'),
  intel: ApiReportSchema.nullish(),
  report: ApiReportSchema.nullish(),
  result: ApiReportSchema.nullish(),
  error: z.looseObject({ message: z.string().optional() }).nullish(),
});

type ReportSource = 'intel' | 'reports';

/** A report request, whichever endpoint answered. */
export interface ReportRequestResult {
  status: string;
  report: ApiReport | null;
  /** `intel`: the replacement endpoint; `reports`: the documented, deprecated one. */
  answeredBy: ReportSource;
  /** Upstream text explaining a failed generation (intel endpoint only); untrusted, escape it. */
  errorMessage?: string;
}

/** Per client (one API host): whether the replacement endpoint turned out to be absent. */
export interface ReportEndpointMemory {
  intelAbsent: boolean;
}

/** Statuses from the replacement path that mean "not here" rather than "this request failed". */
const ABSENT_STATUSES: ReadonlySet<number> = new Set([401, 403, 404, 405]);

/** A question for Threat Flow (`POST …/v4/threat_flow/reports/requests`). */
interface ReportRequestInput {
  title: string;
  question: string;
  /** ISO instants; with `from`, the report covers that range (else all time). */
  from?: string;
  to?: string;
  includedKeywords?: string[];
  excludedKeywords?: string[];
}

const ReportRequestCreatedSchema = z.object({ request_id: z.string() });

export interface ReportsApi {
  getReportRequest(requestUuid: string): Promise<ReportRequestResult>;
  /** Asks for a report; the answer is the request's uuid, to follow with `getReportRequest`. */
  requestReport(input: ReportRequestInput): Promise<string>;
}

export function reportsResource({ call, v4 }: ResourceSession, memory: ReportEndpointMemory): ReportsApi {
  const spec = {
    method: 'GET',
    tier: 'ordinary',
    idempotent: true,
    auth: 'token',
    feature: 'reports',
  } as const;

  const fromIntel = async (id: string): Promise<ReportRequestResult> => {
    const { data } = await call({
      ...spec,
      path: `${v4}/threat_flow/intel/requests/${id}`,
      route: `${v4}/threat_flow/intel/requests/{id}`,
      schema: IntelRequestSchema,
    });
    const report = data.intel ?? data.report ?? data.result ?? null;
    const errorMessage = data.error?.message;
    return { status: data.status, report, answeredBy: 'intel', ...(errorMessage ? { errorMessage } : {}) };
  };

  const fromReports = async (id: string): Promise<ReportRequestResult> => {
    const { data } = await call({
      ...spec,
      path: `${v4}/threat_flow/reports/requests/${id}`,
      route: `${v4}/threat_flow/reports/requests/{id}`,
      schema: ReportRequestSchema,
    });
    return { status: data.status, report: data.report ?? null, answeredBy: 'reports' };
  };

  return {
    async requestReport(input) {
      const body: Record<string, unknown> = { report_title: input.title, question: input.question };
      if (input.from !== undefined) {
        body.time_range_type = 'range';
        body.time_range_from = input.from;
        if (input.to !== undefined) body.time_range_to = input.to;
      }
      if (input.includedKeywords?.length) body.included_keywords = input.includedKeywords;
      if (input.excludedKeywords?.length) body.excluded_keywords = input.excludedKeywords;
      const { data } = await call({
        method: 'POST',
        path: `${v4}/threat_flow/reports/requests`,
        body,
        tier: 'ordinary',
        // A repeat would ask (and pay) for a second report.
        idempotent: false,
        auth: 'token',
        feature: 'reports',
        schema: ReportRequestCreatedSchema,
      });
      return uuidSegment(data.request_id, 'request_id');
    },
    async getReportRequest(requestUuid) {
      const id = uuidSegment(requestUuid, 'requestUuid');
      if (memory.intelAbsent) return fromReports(id);
      try {
        return await fromIntel(id);
      } catch (err) {
        if (!(err instanceof ApiError && err.status !== undefined && ABSENT_STATUSES.has(err.status)))
          throw err;
        memory.intelAbsent = true;
        return fromReports(id);
      }
    },
  };
}
