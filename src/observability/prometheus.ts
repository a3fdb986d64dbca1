/**
 * The Prometheus implementation of `Metrics`, on a registry of its own. Loaded only when metrics are enabled:
 * prom-client is a noticeable part of a cold start that most deployments do not need.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, type LabelValues, Registry } from 'prom-client';
import type { ApiExchange, RateTier } from '../api/index.js';
import type { Clock } from '../kernel/clock.js';
import type { SlackCall } from '../slack/call-metrics.js';
import type {
  DigestRunOutcome,
  Metrics,
  MetricsExposition,
  QueueDepths,
  RequestKind,
  RequestOutcome,
  RequestWatch,
  StepRunOutcome,
} from './metrics.js';

/** A scrape never waits longer than this for the store: the depths are left out instead. */
const DEPTHS_TIMEOUT_MS = 2_000;

const QUEUES: Record<keyof QueueDepths, string> = {
  digestRuns: 'digest_runs',
  alertEvents: 'alert_events',
  alertFollowUps: 'alert_follow_ups',
  exports: 'exports',
};

/** Statuses as labels: the number, or `none` when no answer came. */
const statusLabel = (status: number | undefined): string =>
  status === undefined ? 'none' : String(Math.trunc(status));

/** A route template keeps only segments that cannot be ids; anything else is a placeholder (a safety net). */
function boundedRoute(route: string): string {
  return route
    .split('/')
    .map((seg) => (seg === '' || /^(v\d+|[a-z_-]+|\{[a-z]+\})$/i.test(seg) ? seg : '{id}'))
    .join('/');
}

export class PrometheusMetrics implements Metrics, MetricsExposition {
  readonly registry = new Registry();
  private readonly requests: Counter<'kind' | 'outcome'>;
  private readonly ackSeconds: Histogram<'kind'>;
  private readonly apiCalls: Counter<'method' | 'route' | 'status'>;
  private readonly apiSeconds: Histogram<'method' | 'route'>;
  private readonly api429: Counter<'method' | 'route'>;
  private readonly apiRetries: Counter<'method' | 'route' | 'status'>;
  private readonly budgetWaits: Counter<'tier'>;
  private readonly budgetWaitSeconds: Counter<'tier'>;
  private readonly alertDelay: Histogram;
  private readonly followDelay: Histogram;
  private readonly storeErrors: Counter<'kind'>;
  private readonly setAside: Counter<'kind'>;
  private readonly work: WorkCounters;
  private readDepths: (() => Promise<QueueDepths>) | undefined;

  constructor(private readonly clock: Clock) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'vigil_slack_requests_total',
      help: 'Requests from Slack by kind and outcome (acked, unacked, failed, refused).',
      labelNames: ['kind', 'outcome'],
      registers,
    });
    this.ackSeconds = new Histogram({
      name: 'vigil_slack_ack_seconds',
      help: 'Time from a Slack request reaching Vigil to its ack (Slack allows 3 s).',
      labelNames: ['kind'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5],
      registers,
    });
    this.apiCalls = new Counter({
      name: 'vigil_api_requests_total',
      help: 'HTTP exchanges with the threat-intel API by route template and status (none: no answer).',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.apiSeconds = new Histogram({
      name: 'vigil_api_request_seconds',
      help: 'Duration of one exchange with the threat-intel API (each attempt).',
      labelNames: ['method', 'route'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.api429 = new Counter({
      name: 'vigil_api_rate_limited_total',
      help: 'Answers 429 (too many requests) from the threat-intel API.',
      labelNames: ['method', 'route'],
      registers,
    });
    this.apiRetries = new Counter({
      name: 'vigil_api_retries_total',
      help: 'Attempts retried after a failed one, by the status that failed (none: no answer).',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.budgetWaits = new Counter({
      name: 'vigil_api_rate_budget_waits_total',
      help: "Waits for the organization's rate budget (shared by every instance on Redis).",
      labelNames: ['tier'],
      registers,
    });
    this.budgetWaitSeconds = new Counter({
      name: 'vigil_api_rate_budget_wait_seconds_total',
      help: "Time spent waiting for the organization's rate budget.",
      labelNames: ['tier'],
      registers,
    });
    this.alertDelay = new Histogram({
      name: 'vigil_alert_delay_seconds',
      help: "Time from an event's appearance (its match, else Vigil's first sight of it) to its alert's post.",
      buckets: [5, 15, 30, 60, 120, 300, 600, 1800, 3600, 21600],
      registers,
    });
    this.followDelay = new Histogram({
      name: 'vigil_alert_follow_delay_seconds',
      help: 'Time from a change of an event to its alert message showing it (reply in the thread).',
      buckets: [0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800],
      registers,
    });
    this.storeErrors = new Counter({
      name: 'vigil_store_errors_total',
      help: 'Failed store operations: unavailable (the backend failed) or unreadable (a record).',
      labelNames: ['kind'],
      registers,
    });
    this.setAside = new Counter({
      name: 'vigil_records_set_aside_total',
      help: 'Records found unreadable and set aside (each once per process), by kind of record.',
      labelNames: ['kind'],
      registers,
    });
    this.work = workCounters(registers);
    const self = this;
    new Gauge({
      name: 'vigil_queue_depth',
      help: 'Work waiting, read from the store on each scrape.',
      labelNames: ['queue'],
      registers,
      async collect() {
        this.reset();
        const depths = await self.depths();
        if (!depths) return;
        for (const [key, queue] of Object.entries(QUEUES)) {
          this.set({ queue }, depths[key as keyof QueueDepths]);
        }
      },
    });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }

  slackRequest(kind: RequestKind): RequestWatch {
    const started = this.clock.now();
    let done = false;
    const end = (outcome: RequestOutcome) => {
      if (done) return false;
      done = true;
      this.requests.inc({ kind, outcome });
      return true;
    };
    return {
      acked: () => {
        if (end('acked')) this.ackSeconds.observe({ kind }, (this.clock.now() - started) / 1000);
      },
      failed: () => void end('failed'),
      unacked: () => void end('unacked'),
    };
  }

  slackRefused(): void {
    this.requests.inc({ kind: 'other', outcome: 'refused' });
  }

  exchange(x: ApiExchange): void {
    const labels: LabelValues<'method' | 'route'> = { method: x.method, route: boundedRoute(x.route) };
    this.apiCalls.inc({ ...labels, status: statusLabel(x.status) });
    this.apiSeconds.observe(labels, Math.max(0, x.ms) / 1000);
    if (x.status === 429) this.api429.inc(labels);
  }

  retry(x: { method: string; route: string; status: number | undefined }): void {
    this.apiRetries.inc({ method: x.method, route: boundedRoute(x.route), status: statusLabel(x.status) });
  }

  rateWait(x: { tier: RateTier; ms: number }): void {
    this.budgetWaits.inc({ tier: x.tier });
    this.budgetWaitSeconds.inc({ tier: x.tier }, Math.max(0, x.ms) / 1000);
  }

  storeError(kind: 'unavailable' | 'unreadable'): void {
    this.storeErrors.inc({ kind });
  }

  recordSetAside(kind: string): void {
    // Namespace names are a fixed set; anything else is one bucket (labels stay bounded).
    this.setAside.inc({ kind: /^[a-z][a-z0-9-]{0,39}$/.test(kind) ? kind : 'other' });
  }

  slackCall(call: SlackCall): void {
    const method = bounded(call.method, /^[a-z]+(\.[a-zA-Z]+){1,3}$/);
    this.work.slackCalls.inc({ method });
    if (call.status === 429) this.work.slack429.inc({ method });
    else if (call.error !== undefined)
      this.work.slackErrors.inc({ method, error: bounded(call.error, /^[a-z0-9_]{1,50}$/) });
  }

  digestRun(outcome: DigestRunOutcome): void {
    this.work.digestRuns.inc({ outcome });
  }

  stepRun(step: string, outcome: StepRunOutcome): void {
    this.work.stepRuns.inc({ step: bounded(step, /^[a-z_]{1,40}$/), outcome });
  }

  alertPosted(ms: number): void {
    this.alertDelay.observe(Math.max(0, ms) / 1000);
  }

  alertFollowed(ms: number): void {
    this.followDelay.observe(Math.max(0, ms) / 1000);
  }

  depthsFrom(read: () => Promise<QueueDepths>): void {
    this.readDepths = read;
  }

  /** The depths, or undefined when the store does not answer in time (the scrape goes on without them). */
  private async depths(): Promise<QueueDepths | undefined> {
    const read = this.readDepths;
    if (!read) return undefined;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), DEPTHS_TIMEOUT_MS);
      timer.unref();
    });
    try {
      return await Promise.race([read(), late]);
    } catch {
      // The store's own errors are counted (and logged once per outage) by the store.
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Drops the registry's metrics (tests start several instances in one process). */
  close(): void {
    this.registry.clear();
  }
}

/** A label value from a fixed shape (Slack's method names and error codes, step ids), else `other`. */
const bounded = (value: string, shape: RegExp): string => (shape.test(value) ? value : 'other');

interface WorkCounters {
  slackCalls: Counter<'method'>;
  slackErrors: Counter<'method' | 'error'>;
  slack429: Counter<'method'>;
  digestRuns: Counter<'outcome'>;
  stepRuns: Counter<'step' | 'outcome'>;
}

/** What Vigil does on its own account: Slack Web API calls, digest runs, workflow step runs. */
function workCounters(registers: Registry[]): WorkCounters {
  return {
    slackCalls: new Counter({
      name: 'vigil_slack_api_calls_total',
      help: 'Slack Web API calls (each attempt) by method.',
      labelNames: ['method'],
      registers,
    }),
    slackErrors: new Counter({
      name: 'vigil_slack_api_errors_total',
      help: "Slack Web API calls that failed (429s apart), by method and Slack's error (http_<status>, no_answer).",
      labelNames: ['method', 'error'],
      registers,
    }),
    slack429: new Counter({
      name: 'vigil_slack_api_rate_limited_total',
      help: 'Slack Web API calls answered 429 (rate limited), by method.',
      labelNames: ['method'],
      registers,
    }),
    digestRuns: new Counter({
      name: 'vigil_digest_runs_total',
      help: 'Digest runs (scheduled or asked now) by outcome: posted, skipped, done, busy, paused, retry, failed.',
      labelNames: ['outcome'],
      registers,
    }),
    stepRuns: new Counter({
      name: 'vigil_workflow_step_runs_total',
      help: "Runs of Vigil's workflow steps by step and outcome: completed, failed, waiting, repeated.",
      labelNames: ['step', 'outcome'],
      registers,
    }),
  };
}
