/**
 * Intel on request: a question asked of Threat Flow (`/vigil intel …`), followed until its report is ready,
 * then handed to the poster (Slack) for the requester. Each request is a record in the store from the moment
 * the API accepts it, so a restart loses none: the follower, on the injected clock, looks at the records that
 * are due and, through a lease, runs on one instance at a time. A record goes once its report is posted.
 * Posting is exactly-once across a crash: the record is marked `posting` before the post, and a record found
 * so marked is first looked for in its conversation (the post names its request) before being posted again.
 *
 * Every write of the follower is guarded by the lease's fencing token, checked by the store atomically with
 * the write: an instance that stalled past its lease (its heartbeat lapsed, a peer took over) is refused its
 * next write and stops, so it neither posts after the peer nor brings back a record the peer finished.
 */
import { z } from 'zod';
import {
  ForbiddenError,
  NotFoundError,
  type ReportRequestResult,
  UnauthorizedError,
} from '../../api/index.js';
import type { Ticker } from '../../domain/subscriptions/ticker.js';
import type { ApiAccess } from '../../domain/workspace-api.js';
import type { Clock } from '../../kernel/clock.js';
import { RefusalError } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/logger.js';
import {
  isStoreOutage,
  type Lease,
  LeaseLostError,
  type Repositories,
  StoreCorruptionError,
} from '../../store/index.js';

/** First look after this long; then each wait doubles, up to MAX_WAIT_MS. */
const FIRST_WAIT_MS = 30_000;
const MAX_WAIT_MS = 5 * 60_000;
/** A request still processing after this long is given up, and the requester told. */
const GIVE_UP_MS = 24 * 60 * 60_000;
/** How often the follower looks for due requests. */
const INTEL_TICK_MS = 15_000;
const LEASE_KEY = 'intel-follow';
const LEASE_MS = 2 * 60_000;
/** Records outlive the give-up time by a margin, so a stopped deployment still finds them. */
const RECORD_TTL_MS = GIVE_UP_MS + 7 * 24 * 60 * 60_000;

const IntelRecordSchema = z.object({
  requestUuid: z.string(),
  userId: z.string(),
  question: z.string(),
  askedAt: z.number(),
  nextCheckAt: z.number(),
  checks: z.number().int().nonnegative(),
  /** Where the report goes: the requester's DM with Vigil, under the "requested" message when there is one. */
  channelId: z.string().optional(),
  threadTs: z.string().optional(),
  /** Set just before the post: a crash after it leaves the record so, and the next look checks Slack first. */
  posting: z.boolean().optional(),
});
export type IntelRecord = z.infer<typeof IntelRecordSchema>;

export interface IntelQuestion {
  question: string;
  /** ISO instant: the report covers what happened since. */
  since?: string | undefined;
  keywords?: readonly string[] | undefined;
  exclude?: readonly string[] | undefined;
}

/** Where and how a finished (or failed, or abandoned) request reaches its requester. */
export interface IntelPoster {
  /**
   * Posts it, naming the request in its metadata. A record already marked `posting` was interrupted around
   * its post (which may have landed): the message then says it may be a repeat.
   */
  deliver(
    workspaceId: string,
    record: IntelRecord,
    outcome: { result: ReportRequestResult } | { abandoned: true },
  ): Promise<void>;
}

class IntelNotEnabledError extends RefusalError {
  constructor(cause: unknown) {
    super(
      'Threat Flow reports are not enabled for this account, or this API key may not ask for them.',
      'Ask your threat-intel account owner to enable reports for this API key.',
      { cause },
    );
  }
}

/** A report title from the question: its first words, on one line. */
function titleOf(question: string): string {
  const line = question.replace(/\s+/g, ' ').trim();
  return line.length <= 100 ? line : `${line.slice(0, 99)}…`;
}

type FollowLease = Pick<Lease, 'key' | 'fence' | 'release'>;

export interface IntelDeps {
  api: ApiAccess;
  repos: Pick<Repositories, 'intelRequests' | 'audit'>;
  clock: Clock;
  logger: Logger;
  leases: { lease(key: string, ttlMs: number): Promise<FollowLease | undefined> };
}

export class IntelService {
  constructor(private readonly deps: IntelDeps) {}

  private get records() {
    return this.deps.repos.intelRequests(IntelRecordSchema);
  }

  /** Asks Threat Flow and records the request before answering, so it is followed whatever happens next. */
  async ask(req: { workspaceId: string; userId: string } & IntelQuestion): Promise<IntelRecord> {
    const now = this.deps.clock.now();
    let requestUuid: string;
    try {
      requestUuid = await this.deps.api.call(req.workspaceId, ({ session }) =>
        session.requestReport({
          title: titleOf(req.question),
          question: req.question,
          ...(req.since === undefined ? {} : { from: req.since, to: new Date(now).toISOString() }),
          ...(req.keywords?.length ? { includedKeywords: [...req.keywords] } : {}),
          ...(req.exclude?.length ? { excludedKeywords: [...req.exclude] } : {}),
        }),
      );
    } catch (err) {
      if (err instanceof ForbiddenError || err instanceof UnauthorizedError)
        throw new IntelNotEnabledError(err);
      throw err;
    }
    const record: IntelRecord = {
      requestUuid,
      userId: req.userId,
      question: req.question.slice(0, 2000),
      askedAt: now,
      nextCheckAt: now + FIRST_WAIT_MS,
      checks: 0,
    };
    await this.records.set(req.workspaceId, requestUuid, record, RECORD_TTL_MS);
    await this.deps.repos.audit.append({
      teamId: req.workspaceId,
      userId: req.userId,
      action: 'intel.request',
      target: requestUuid,
      title: titleOf(req.question),
    });
    return record;
  }

  /** Where the report will go, once the "requested" message is posted. */
  async setDestination(
    workspaceId: string,
    requestUuid: string,
    where: { channelId: string; threadTs?: string | undefined },
  ): Promise<void> {
    await this.records.update(
      workspaceId,
      requestUuid,
      (r) =>
        r && {
          ...r,
          channelId: where.channelId,
          ...(where.threadTs === undefined ? {} : { threadTs: where.threadTs }),
        },
      RECORD_TTL_MS,
    );
  }

  /** Requests still followed (App Home, tests). */
  async pending(workspaceId: string): Promise<IntelRecord[]> {
    const out: IntelRecord[] = [];
    for (const key of await this.records.keys(workspaceId)) {
      const r = await this.records.get(workspaceId, key);
      if (r) out.push(r);
    }
    return out;
  }

  /**
   * Looks at every due request once: a finished one is delivered and forgotten; one still processing waits
   * longer; one processing for a day is given up. One instance at a time (a lease); the others skip the tick.
   */
  async followDue(poster: IntelPoster): Promise<void> {
    const lease = await this.deps.leases.lease(LEASE_KEY, LEASE_MS);
    if (lease === undefined) return;
    try {
      for (const { workspaceId, key } of await this.records.entries()) {
        const lost = await this.followOne(lease, workspaceId, key, poster).then(
          () => false,
          (err: unknown) => {
            // Another instance has taken the lease over: it follows the requests from here.
            if (err instanceof LeaseLostError) return true;
            // An unreadable request is set aside (logged once by the store); the others are followed.
            if (err instanceof StoreCorruptionError) return false;
            if (isStoreOutage(err)) throw err;
            this.deps.logger.warn('could not follow a report request', { err, workspace: workspaceId });
            return false;
          },
        );
        if (lost) {
          this.deps.logger.info('report requests left to the instance that took the lease over');
          return;
        }
      }
    } finally {
      await lease.release();
    }
  }

  /**
   * The guarded writes, each refused (LeaseLostError) once `lease` is no longer current: the wait advanced
   * (`later`), the record deleted once posted or found posted, and the `posting` mark, which is the last
   * store step before the post and so its check: a holder fenced out by then never posts.
   */
  private async followOne(
    lease: FollowLease,
    workspaceId: string,
    key: string,
    poster: IntelPoster,
  ): Promise<void> {
    const record = await this.records.get(workspaceId, key);
    const now = this.deps.clock.now();
    if (record === undefined || record.nextCheckAt > now) return;
    let result: ReportRequestResult | undefined;
    try {
      result = await this.deps.api.call(
        workspaceId,
        ({ session }) => session.getReportRequest(record.requestUuid),
        undefined,
        { priority: 'background' },
      );
    } catch (err) {
      // Gone upstream (or the tenant changed): nothing will ever come; anything else is tried again later.
      if (!(err instanceof NotFoundError)) {
        await this.later(lease, workspaceId, record, now);
        throw err;
      }
    }
    if (result !== undefined && result.status === 'processing' && now - record.askedAt < GIVE_UP_MS) {
      await this.later(lease, workspaceId, record, now);
      return;
    }
    // Written even when already marked: the fenced write is what proves the lease still ours just before the
    // post. Vigil's record is all recovery reads (no rationed conversations.history): a record left marked
    // by a crash or a lost answer between the post and its deletion is posted again, saying so.
    await this.records.setFenced(lease, workspaceId, key, { ...record, posting: true }, RECORD_TTL_MS);
    await poster.deliver(
      workspaceId,
      record,
      result === undefined || result.status === 'processing' ? { abandoned: true } : { result },
    );
    await this.records.deleteFenced(lease, workspaceId, key);
  }

  private async later(
    lease: FollowLease,
    workspaceId: string,
    record: IntelRecord,
    now: number,
  ): Promise<void> {
    const wait = Math.min(MAX_WAIT_MS, FIRST_WAIT_MS * 2 ** record.checks);
    await this.records.setFenced(
      lease,
      workspaceId,
      record.requestUuid,
      { ...record, checks: record.checks + 1, nextCheckAt: now + wait },
      RECORD_TTL_MS,
    );
  }
}

/** The follower's loop: a tick every INTEL_TICK_MS, one at a time; `stop` waits for a running tick. */
export class IntelFollower {
  private timer: { cancel(): void } | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly deps: {
      intel: IntelService;
      poster: IntelPoster;
      ticker: Ticker;
      logger: Logger;
    },
  ) {}

  start(): void {
    this.timer ??= this.deps.ticker.every(INTEL_TICK_MS, () => this.tick());
  }

  tick(): Promise<void> {
    this.running ??= this.deps.intel
      .followDue(this.deps.poster)
      .catch((err: unknown) =>
        // The store tells its own outage once; the next tick tries again.
        isStoreOutage(err)
          ? this.deps.logger.debug('report requests not followed: store unavailable')
          : this.deps.logger.warn('report requests were not followed', { err }),
      )
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  async stop(): Promise<void> {
    this.timer?.cancel();
    this.timer = undefined;
    await this.running;
  }
}
