/**
 * Vigil's metrics: one small typed port (`Metrics`) the layers are handed; its Prometheus implementation
 * (prometheus.ts, on a registry of its own, never prom-client's global one) is loaded only when enabled.
 * Every label value comes from a bounded set (request kinds, outcomes, route templates, HTTP statuses, tiers,
 * queue names): no user, channel, team, id or secret ever becomes a label. Off unless enabled: `noopMetrics`.
 */
import type { ApiObserver } from '../api/index.js';
import type { SlackCallObserver } from '../slack/call-metrics.js';
import type { StoreObserver } from '../store/index.js';

/** What Slack sent: a slash command, a block action, a modal submission, an Events API event… */
export type RequestKind = 'command' | 'action' | 'view' | 'event' | 'options' | 'shortcut' | 'other';
export type RequestOutcome = 'acked' | 'unacked' | 'failed' | 'refused';

/** One Slack request being handled: its ack (latency measured from `slackRequest`) or how it ended without. */
export interface RequestWatch {
  acked(): void;
  failed(): void;
  unacked(): void;
}

/** Work waiting, read from the store on each scrape. */
export interface QueueDepths {
  /** Digest runs claimed and not completed yet. */
  digestRuns: number;
  /** Alert events queued in channel outboxes, not posted yet. */
  alertEvents: number;
  /** Event changes alert messages have not followed yet. */
  alertFollowUps: number;
  /** Credentials exports under way. */
  exports: number;
}

/** How a digest run ended (features/digests/run.ts's outcomes). */
export type DigestRunOutcome = 'posted' | 'skipped' | 'done' | 'busy' | 'paused' | 'retry' | 'failed';
/** How a workflow step's run ended: completed, failed (completed with an error), waiting for a click, or a
 * delivery of a run already made. */
export type StepRunOutcome = 'completed' | 'failed' | 'waiting' | 'repeated';

export interface Metrics extends Required<ApiObserver>, StoreObserver, SlackCallObserver {
  /** A digest run of a subscription (scheduled or asked now), by how it ended. */
  digestRun(outcome: DigestRunOutcome): void;
  /** A run of one of Vigil's workflow steps, by step and how it ended. */
  stepRun(step: string, outcome: StepRunOutcome): void;
  slackRequest(kind: RequestKind): RequestWatch;
  /** A request refused before Bolt saw it (signature, size, malformed body). */
  slackRefused(): void;
  /** An alert posted `ms` after its event appeared. */
  alertPosted(ms: number): void;
  /** An alert message caught up with a change of its event `ms` after the change. */
  alertFollowed(ms: number): void;
  /** Where the queue depths are read from on each scrape. */
  depthsFrom(read: () => Promise<QueueDepths>): void;
  /** A record newly set aside as unreadable, by its kind (a namespace name: a bounded set). */
  recordSetAside(kind: string): void;
}

/** The text Prometheus scrapes. */
export interface MetricsExposition {
  readonly contentType: string;
  render(): Promise<string>;
}

const watchNothing: RequestWatch = { acked() {}, failed() {}, unacked() {} };

export const noopMetrics: Metrics = {
  exchange() {},
  retry() {},
  rateWait() {},
  storeError() {},
  slackRequest: () => watchNothing,
  slackRefused() {},
  alertPosted() {},
  alertFollowed() {},
  depthsFrom() {},
  recordSetAside() {},
  digestRun() {},
  stepRun() {},
};
