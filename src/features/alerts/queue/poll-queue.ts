/**
 * The alert polls on Redis as BullMQ jobs (https://docs.bullmq.io/guide/job-schedulers): one Job Scheduler per
 * workspace with alert subscriptions, repeating every poll interval at a phase of its own, and a Worker per
 * instance running a few workspaces' work at once. BullMQ hands each due job to one live instance and puts
 * the job of an instance that died back in line (stalled-job recovery), so no instance reads every feed on
 * every tick. The feed's lease inside the poll stays the correctness guard (two instances may still meet
 * on one workspace: a late job and the next). BullMQ keeps its own timers (when a job is due, stalled
 * checks, lock renewals) in real time on Redis's clock: Vigil's clock still decides whether the feed is due.
 */
import { type ConnectionOptions, type JobSchedulerJson, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { systemClock } from '../../../kernel/clock.js';
import type { Logger } from '../../../kernel/logger.js';
import type { AlertPollQueue } from '../scheduler.js';

const QUEUE = 'alert-polls';
/** Under the store's own key prefix (`vigil:`), apart from its records. */
const PREFIX = 'vigil:queue';
/** Schedulers read, upserted or removed at once. */
const BATCH = 50;
/**
 * Every this many reconciles the schedulers are read back from Redis: one whose next job was lost (a Redis
 * blip while BullMQ scheduled it) or that another instance removed is set again.
 */
const REFRESH_EVERY = 100;
const CONNECT_TIMEOUT_MS = 5_000;

export interface PollQueueOptions {
  /** The store's Redis URL (VIGIL_STORE). */
  url: string;
  pollMs: number;
  /** Workspaces this instance works on at once. */
  concurrency: number;
  logger: Logger;
  /** One workspace's alert work, told when the queue is stopping; settles for its own errors. */
  run(workspaceId: string, stopping: () => boolean): Promise<void>;
}

interface PollJob {
  workspaceId: string;
}

/** A phase within the interval from the workspace id, so 2,000 workspaces' jobs are spread over it. */
function phaseOf(workspaceId: string, pollMs: number): number {
  let hash = 2166136261;
  for (let i = 0; i < workspaceId.length; i++) hash = Math.imul(hash ^ workspaceId.charCodeAt(i), 16777619);
  // BullMQ takes an offset of 0 as "from now": 1 or more pins the phase.
  return 1 + ((hash >>> 0) % Math.max(1, pollMs - 1));
}

/** Redis not answering: the store's outage log tells it; the queue only notes it in debug. */
function isConnectionError(err: unknown): boolean {
  const code = (err as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && /^(ECONN|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH)/.test(code))
    return true;
  return (
    err instanceof Error &&
    /Connection is closed|connect|Stream isn't writeable|max retries per request/i.test(err.message)
  );
}

export class BullPollQueue implements AlertPollQueue {
  private queue: Queue<PollJob> | undefined;
  private worker: Worker<PollJob> | undefined;
  private readonly connections: Redis[] = [];
  /** Workspaces whose scheduler this instance knows to be in place. */
  private known: Set<string> | undefined;
  private reconciles = 0;
  private stopped = false;

  constructor(private readonly opts: PollQueueOptions) {}

  start(): void {
    if (this.worker || this.stopped) return;
    // The producer's commands fail at once while Redis is away (the next tick tries again); the Worker's
    // blocking reads wait for it to return, as BullMQ requires (maxRetriesPerRequest: null).
    const producer = this.connect({ enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    const consumer = this.connect({ maxRetriesPerRequest: null });
    this.queue = new Queue<PollJob>(QUEUE, { connection: producer as ConnectionOptions, prefix: PREFIX });
    this.worker = new Worker<PollJob>(
      QUEUE,
      (job) => this.opts.run(job.data.workspaceId, () => this.stopped),
      {
        connection: consumer as ConnectionOptions,
        prefix: PREFIX,
        concurrency: this.opts.concurrency,
      },
    );
    this.queue.on('error', (err) => this.failed('alert queue', err));
    this.worker.on('error', (err) => this.failed('alert queue worker', err));
  }

  async reconcile(workspaceIds: readonly string[]): Promise<void> {
    const queue = this.queue;
    if (queue === undefined || this.stopped) return;
    try {
      if (this.known === undefined || this.reconciles++ % REFRESH_EVERY === 0)
        this.known = await this.scheduled(queue);
      const known = this.known;
      const wanted = new Set(workspaceIds);
      await inBatches(
        [...wanted].filter((id) => !known.has(id)),
        async (id) => {
          await this.upsert(queue, id);
          known.add(id);
        },
      );
      await inBatches(
        [...known].filter((id) => !wanted.has(id)),
        async (id) => {
          await queue.removeJobScheduler(id);
          known.delete(id);
        },
      );
    } catch (err) {
      this.failed('alert queue not brought up to date', err);
    }
  }

  /** Stops taking jobs and waits for those running (at most `waitMs`), then closes the connections. */
  async stop(waitMs: number): Promise<void> {
    this.stopped = true;
    const worker = this.worker;
    if (worker !== undefined) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), waitMs);
        timer.unref();
      });
      // A job cut short stays active until its lock lapses; BullMQ then gives it to another instance.
      if ((await Promise.race([worker.close(), late])) === 'late') await worker.close(true);
      clearTimeout(timer);
    }
    await this.queue?.close();
    for (const connection of this.connections) connection.disconnect();
  }

  private connect(options: { enableOfflineQueue?: boolean; maxRetriesPerRequest: number | null }): Redis {
    const connection = new Redis(this.opts.url, {
      ...options,
      connectTimeout: CONNECT_TIMEOUT_MS,
      retryStrategy: (times) => Math.min(50 * 2 ** times, 2_000),
    });
    // ioredis prints an unhandled error event itself: the outage is the store's to tell.
    connection.on('error', (err) => this.failed('alert queue connection', err));
    this.connections.push(connection);
    return connection;
  }

  /** The workspaces whose scheduler is in place as this instance would set it (interval and phase). */
  private async scheduled(queue: Queue<PollJob>): Promise<Set<string>> {
    const found = new Set<string>();
    // BullMQ's `next` is real time, whatever clock Vigil's own logic runs on.
    const overdue = systemClock.now() - 2 * this.opts.pollMs;
    for (let start = 0; ; start += 500) {
      const page: JobSchedulerJson<PollJob>[] = await queue.getJobSchedulers(start, start + 499);
      for (const s of page) {
        const fits = s.every === this.opts.pollMs && s.offset === phaseOf(s.key, this.opts.pollMs);
        if (fits && (s.next ?? 0) >= overdue) found.add(s.key);
      }
      if (page.length < 500) return found;
    }
  }

  private async upsert(queue: Queue<PollJob>, workspaceId: string): Promise<void> {
    await queue.upsertJobScheduler(
      workspaceId,
      { every: this.opts.pollMs, offset: phaseOf(workspaceId, this.opts.pollMs) },
      {
        name: 'poll',
        data: { workspaceId },
        // A poll records its own failures and backoff on the feed: BullMQ keeps no finished job.
        opts: { attempts: 1, removeOnComplete: true, removeOnFail: true },
      },
    );
  }

  private failed(what: string, err: unknown): void {
    if (this.stopped || isConnectionError(err)) {
      this.opts.logger.debug(`${what}: redis unavailable`, { error: messageOf(err) });
      return;
    }
    this.opts.logger.warn(`${what} failed`, { error: messageOf(err) });
  }
}

const messageOf = (err: unknown) => (err instanceof Error ? `${err.name}: ${err.message}` : String(err));

async function inBatches(ids: string[], each: (id: string) => Promise<void>): Promise<void> {
  for (let i = 0; i < ids.length; i += BATCH) await Promise.all(ids.slice(i, i + BATCH).map(each));
}
