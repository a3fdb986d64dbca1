/**
 * What the client tells whoever watches it (metrics, readiness): each exchange with the API, each retry, each
 * wait on the rate budget. Declared here so the client depends on nothing above it; every hook is optional
 * and must not throw. Routes are templates (`/firework/v4/threat_flow/reports/requests/{id}`), never a
 * path carrying ids.
 */
import type { RateTier } from './rate-limiter.js';

export interface ApiExchange {
  /** The API origin (an allowed host: a bounded set). */
  origin: string;
  method: string;
  route: string;
  /** The HTTP status, or undefined when no answer came (connection refused, reset, timed out). */
  status: number | undefined;
  ms: number;
}

export interface ApiObserver {
  exchange?(exchange: ApiExchange): void;
  retry?(retry: { method: string; route: string; status: number | undefined }): void;
  /** A caller waited `ms` for the organization's rate budget (local or shared by every instance). */
  rateWait?(wait: { tier: RateTier; ms: number }): void;
}
