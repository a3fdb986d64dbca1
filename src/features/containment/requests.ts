/**
 * Containment requests: asked by one holder of `contain`, run by the provider once, by a second holder when
 * approval is on (never the requester), expiring after VIGIL_CONTAIN_APPROVAL_TTL on the injected clock.
 * "Once" holds across double clicks, retries and instances: the run is made under a store lease (its fencing
 * token guards the record's write), after reading the record again inside it. A provider that is down or
 * throttling leaves the request open for another try; a refusal closes it. Every step is one audit line.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../../kernel/clock.js';
import { ExpiredError, NotAllowedError, RefusalError, VigilError } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/logger.js';
import type { Lease, Repositories, Store } from '../../store/index.js';
import { ProviderDownError } from './http.js';
import { ACTION_WORDS, type IdentityProvider, ProviderRefusalError } from './provider.js';

/** Longer than any provider call (15 s timeout, a token first): a crashed runner's lease frees itself. */
const RUN_LEASE_MS = 2 * 60_000;
/** Kept after it closes, so a late click is told what happened. */
const KEEP_MS = 30 * 24 * 3600_000;

const RequestSchema = z.object({
  id: z.string(),
  action: z.enum(['revoke', 'compromised', 'disable', 'enable', 'expire-password']),
  provider: z.enum(['entra', 'okta']),
  userId: z.string(),
  person: z.string(),
  principal: z.string(),
  /** The leaked identity it came from, and the credential row (for Flare's remediation), when known. */
  identity: z.string(),
  credential: z.object({ id: z.number(), hash: z.string() }).optional(),
  /** The event it was shown from (alert card, stealer log, panel), remediated in Flare when no credential is known. */
  event: z.object({ uid: z.string().min(1).max(1000) }).optional(),
  requestedBy: z.string(),
  channelId: z.string().optional(),
  messageTs: z.string().optional(),
  at: z.number(),
  expiresAt: z.number(),
  state: z.enum(['pending', 'done', 'refused', 'rejected', 'expired']),
  decidedBy: z.string().optional(),
  outcome: z.string().optional(),
  remediatedBy: z.string().optional(),
});
export type ContainRequest = z.infer<typeof RequestSchema>;
/** The pending index's entry: enough for the sweep to skip a request that is not due without reading it. */
const PendingSchema = z.object({ expiresAt: z.number() });
export type NewRequest = Pick<
  ContainRequest,
  | 'action'
  | 'provider'
  | 'userId'
  | 'person'
  | 'principal'
  | 'identity'
  | 'credential'
  | 'event'
  | 'requestedBy'
  | 'channelId'
>;

export interface RequestsDeps {
  repos: Pick<Repositories, 'containRequests' | 'containPending' | 'audit'>;
  store: Pick<Store, 'lease'>;
  clock: Clock;
  logger: Logger;
  approvalTtlMs: number;
}

/** What a decision click led to; `request` is the record as it now stands. */
export type Decision =
  | { kind: 'ran'; request: ContainRequest }
  | { kind: 'closed'; request: ContainRequest }
  | { kind: 'retry'; request: ContainRequest; error: VigilError };

export class ContainRequests {
  constructor(private readonly deps: RequestsDeps) {}

  private get records() {
    return this.deps.repos.containRequests(RequestSchema);
  }

  /**
   * Requests awaiting approval, indexed apart from the records (kept 30 days for late clicks), so the sweep
   * a minute reads only these. An entry outliving its request (a crash between the close and its removal) is
   * removed by the next sweep that finds the request closed.
   */
  private get pending() {
    return this.deps.repos.containPending(PendingSchema);
  }

  async create(workspaceId: string, req: NewRequest): Promise<ContainRequest> {
    const now = this.deps.clock.now();
    const request: ContainRequest = {
      ...req,
      id: randomBytes(12).toString('base64url'),
      at: now,
      expiresAt: now + this.deps.approvalTtlMs,
      state: 'pending',
    };
    await this.records.set(workspaceId, request.id, request, KEEP_MS);
    await this.pending.set(workspaceId, request.id, { expiresAt: request.expiresAt }, KEEP_MS);
    await this.audit(workspaceId, req.requestedBy, 'contain.request', request, { outcome: 'asked' });
    return request;
  }

  async get(workspaceId: string, id: string): Promise<ContainRequest> {
    const found = await this.records.get(workspaceId, id);
    if (found === undefined)
      throw new ExpiredError(
        'Vigil no longer knows this containment request.',
        'Ask again from the credential.',
      );
    return found;
  }

  async placed(workspaceId: string, id: string, channelId: string, messageTs: string): Promise<void> {
    await this.records.update(workspaceId, id, (r) => r && { ...r, channelId, messageTs }, KEEP_MS);
  }

  /**
   * Closes it as expired when its time is up. A compare-and-set on the record (pending → expired under the
   * store's lock): of several instances or clicks closing it at once, only the one whose change was written
   * audits it and says so (`closedHere`); the others read it closed.
   */
  private async expireIfDue(
    workspaceId: string,
    r: ContainRequest,
  ): Promise<{ request: ContainRequest; closedHere: boolean }> {
    if (r.state !== 'pending' || this.deps.clock.now() < r.expiresAt)
      return { request: r, closedHere: false };
    let closedHere = false;
    const after = await this.records.update(
      workspaceId,
      r.id,
      (cur) => {
        if (cur?.state !== 'pending' || this.deps.clock.now() < cur.expiresAt) return undefined;
        closedHere = true;
        return { ...cur, state: 'expired' };
      },
      KEEP_MS,
    );
    if (!closedHere) return { request: after ?? (await this.get(workspaceId, r.id)), closedHere };
    const closed = after ?? r;
    await this.pending.delete(workspaceId, r.id);
    await this.audit(workspaceId, r.requestedBy, 'contain.expire', closed, { outcome: 'expired' });
    return { request: closed, closedHere };
  }

  /**
   * Closes every pending request whose time is up, in every workspace, from the pending index: those this
   * call closed, to say so in Slack (of instances sweeping at once, one closes each request and tells it).
   */
  async expireDue(): Promise<{ workspaceId: string; request: ContainRequest }[]> {
    const closed: { workspaceId: string; request: ContainRequest }[] = [];
    const now = this.deps.clock.now();
    for (const { workspaceId, key } of await this.pending.entries()) {
      const entry = await this.pending.get(workspaceId, key);
      if (entry !== undefined && now < entry.expiresAt) continue;
      const r = await this.records.get(workspaceId, key);
      if (r?.state !== 'pending') {
        await this.pending.delete(workspaceId, key);
        continue;
      }
      // Not while a click runs it (it holds the run's lease): its outcome closes it, and the next sweep looks again.
      const lease = await this.deps.store.lease(`contain:${workspaceId}:${key}`, RUN_LEASE_MS);
      if (lease === undefined) continue;
      try {
        const after = await this.expireIfDue(workspaceId, r);
        if (after.closedHere) closed.push({ workspaceId, request: after.request });
      } finally {
        await lease.release();
      }
    }
    return closed;
  }

  /**
   * Runs the request for `by`: the approver, or the requester when no approval is needed (`selfRun`). Only
   * the click holding the lease calls the provider, and only while the record still says pending.
   */
  async run(
    workspaceId: string,
    id: string,
    by: string,
    provider: IdentityProvider | undefined,
    opts: { selfRun: boolean },
  ): Promise<Decision> {
    const { request: found } = await this.expireIfDue(workspaceId, await this.get(workspaceId, id));
    if (found.state !== 'pending') return { kind: 'closed', request: found };
    if (!opts.selfRun && by === found.requestedBy) {
      await this.audit(workspaceId, by, 'contain.approve', found, { outcome: 'refused-own-request' });
      throw new NotAllowedError(
        'You asked for this containment, so another holder of `contain` must approve it.',
        'Ask a teammate who holds `contain` to click Approve.',
      );
    }
    const lease = await this.deps.store.lease(`contain:${workspaceId}:${id}`, RUN_LEASE_MS);
    // Another click (here or on another instance) is running it right now.
    if (lease === undefined)
      throw new RefusalError(
        'This containment is being run right now.',
        'Its outcome replaces this message in a moment.',
      );
    try {
      // Read again inside the lease: another click ran it, or its time ran out, while this one waited.
      const { request: current } = await this.expireIfDue(workspaceId, await this.get(workspaceId, id));
      if (current.state !== 'pending') return { kind: 'closed', request: current };
      if (provider === undefined || provider.kind !== current.provider)
        throw new RefusalError(
          'The identity provider this request was for is no longer connected.',
          'An admin reconnects it with `/vigil idp connect …`.',
        );
      if (!opts.selfRun)
        await this.audit(workspaceId, by, 'contain.approve', current, { outcome: 'approved' });
      return await this.call(workspaceId, current, by, provider, lease);
    } finally {
      await lease.release();
    }
  }

  private async call(
    workspaceId: string,
    r: ContainRequest,
    by: string,
    provider: IdentityProvider,
    lease: Lease,
  ): Promise<Decision> {
    try {
      await provider.act(r.userId, r.action);
    } catch (err) {
      const retry =
        err instanceof ProviderDownError || (err instanceof ProviderRefusalError && err.status === 429);
      await this.audit(workspaceId, by, `contain.${r.action}`, r, {
        outcome: retry ? 'provider-unavailable' : 'provider-refused',
        detail: err instanceof VigilError ? err.message : 'failed',
        approver: by,
      });
      if (retry) return { kind: 'retry', request: r, error: err as VigilError };
      if (!(err instanceof VigilError)) throw err;
      const closed = {
        ...r,
        state: 'refused' as const,
        decidedBy: by,
        outcome: `${err.message} ${err.hint}`,
      };
      await this.records.setFenced(lease, workspaceId, r.id, closed, KEEP_MS);
      await this.pending.delete(workspaceId, r.id);
      return { kind: 'ran', request: closed };
    }
    const done = { ...r, state: 'done' as const, decidedBy: by, outcome: ACTION_WORDS[r.action].done };
    await this.records.setFenced(lease, workspaceId, r.id, done, KEEP_MS);
    await this.pending.delete(workspaceId, r.id);
    await this.audit(workspaceId, by, `contain.${r.action}`, done, { outcome: 'done', approver: by });
    return { kind: 'ran', request: done };
  }

  async reject(workspaceId: string, id: string, by: string): Promise<Decision> {
    const { request: found } = await this.expireIfDue(workspaceId, await this.get(workspaceId, id));
    if (found.state !== 'pending') return { kind: 'closed', request: found };
    // A compare-and-set, as for expiry: of two clicks (the same person's double click too), one audits.
    let rejectedHere = false;
    const closed = await this.records.update(
      workspaceId,
      id,
      (cur) => {
        if (cur?.state !== 'pending') return undefined;
        rejectedHere = true;
        return { ...cur, state: 'rejected', decidedBy: by };
      },
      KEEP_MS,
    );
    if (!rejectedHere || closed === undefined)
      return { kind: 'closed', request: await this.get(workspaceId, id) };
    await this.pending.delete(workspaceId, id);
    await this.audit(workspaceId, by, 'contain.reject', closed, { outcome: 'rejected' });
    return { kind: 'ran', request: closed };
  }

  /** Claims marking the leak remediated in Flare for `by`; false when someone already did (or is doing it). */
  async noteRemediated(workspaceId: string, id: string, by: string): Promise<boolean> {
    let won = false;
    await this.records.update(
      workspaceId,
      id,
      (cur) => {
        if (cur === undefined || cur.remediatedBy !== undefined) return undefined;
        won = true;
        return { ...cur, remediatedBy: by };
      },
      KEEP_MS,
    );
    return won;
  }

  /** Takes back `by`'s claim when marking it remediated in Flare failed, so another click may try again. */
  async clearRemediated(workspaceId: string, id: string, by: string): Promise<void> {
    await this.records.update(
      workspaceId,
      id,
      (cur) => {
        if (cur?.remediatedBy !== by) return undefined;
        const { remediatedBy: _, ...rest } = cur;
        return rest;
      },
      KEEP_MS,
    );
  }

  /** One audit line: provider, directory user id, action, outcome, approver; never a secret or token. */
  async audit(
    workspaceId: string,
    userId: string,
    action: string,
    r: ContainRequest,
    more: { outcome: string; detail?: string; approver?: string },
  ): Promise<void> {
    const parts = [
      `provider ${r.provider}`,
      `directory user ${r.userId}`,
      `action ${r.action}`,
      `requested by ${r.requestedBy}`,
      ...(more.approver === undefined ? [] : [`approver ${more.approver}`]),
      ...(more.detail === undefined ? [] : [more.detail]),
    ];
    await this.deps.repos.audit.append({
      teamId: workspaceId,
      userId,
      action,
      target: r.userId,
      title: r.principal,
      detail: parts.join(', '),
      outcome: more.outcome,
    });
  }
}
