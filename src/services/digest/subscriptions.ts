/**
 * Managing digest subscriptions (add, list, remove, pause, resume, preview), audited. No Slack here: the
 * Slack feature checks the channel and the creator's time zone before calling `add`.
 */
import { DateTime } from 'luxon';
import type { Clock } from '../../clock.js';
import { VigilError } from '../../errors.js';
import type { DigestLast, NewSubscription, Repositories, Subscription } from '../../store/index.js';
import { SubscriptionLimitError } from '../../store/index.js';
import { randomId } from '../../store/repos/ids.js';
import { EventRestStore } from '../events/rest.js';
import { collectEvents, type EventSource } from './collect.js';
import type { DigestContent } from './content.js';
import { nextSlot } from './due.js';
import { contentOf, REPORT_AFTER_FAILURES } from './run.js';

export interface DigestListItem {
  subscription: Subscription;
  last: DigestLast | undefined;
  /** Milliseconds of the next scheduled digest; undefined while paused. */
  next: number | undefined;
  state:
    | { kind: 'active' }
    | { kind: 'paused'; reason: string }
    | { kind: 'failing'; error: string; failures: number };
}

export interface DigestServiceDeps {
  repos: Pick<Repositories, 'subscriptions' | 'digests' | 'audit' | 'searchContexts'>;
  events: EventSource;
  clock: Clock;
}

function notFound(id: string): VigilError {
  return new VigilError(
    `There is no digest \`${id.replaceAll('`', "'")}\` in this workspace.`,
    '`/vigil digest list` shows the digests and their ids.',
  );
}

export class DigestService {
  /** The events behind "+N more". */
  readonly rest: EventRestStore;

  constructor(private readonly deps: DigestServiceDeps) {
    this.rest = new EventRestStore(deps.repos);
  }

  async add(input: NewSubscription): Promise<Subscription> {
    try {
      const sub = await this.deps.repos.subscriptions.add(input);
      await this.audit(input.teamId, input.createdBy, 'digest.add', sub.id, `channel ${input.channelId}`);
      return sub;
    } catch (err) {
      if (err instanceof SubscriptionLimitError) {
        throw new VigilError(
          `This workspace already has ${err.limit} digests, the most Vigil keeps.`,
          'Remove one with `/vigil digest remove <id>` first.',
        );
      }
      throw err;
    }
  }

  async get(workspaceId: string, id: string): Promise<Subscription> {
    const sub = await this.deps.repos.subscriptions.get(id);
    if (sub === undefined || sub.teamId !== workspaceId) throw notFound(id);
    return sub;
  }

  async list(workspaceId: string): Promise<DigestListItem[]> {
    const now = this.deps.clock.now();
    const subs = await this.deps.repos.subscriptions.list(workspaceId);
    return Promise.all(
      subs.map(async (subscription) => {
        const last = (await this.deps.repos.digests.get(workspaceId, subscription.id))?.last;
        const failures = subscription.failures ?? 0;
        const state: DigestListItem['state'] =
          subscription.paused !== undefined
            ? { kind: 'paused', reason: subscription.paused.reason }
            : failures >= REPORT_AFTER_FAILURES
              ? { kind: 'failing', error: subscription.lastError ?? 'unknown error', failures }
              : { kind: 'active' };
        return {
          subscription,
          last,
          next: subscription.paused === undefined ? nextSlot(subscription, now) : undefined,
          state,
        };
      }),
    );
  }

  async remove(workspaceId: string, id: string, userId: string): Promise<void> {
    if (!(await this.deps.repos.subscriptions.remove(workspaceId, id))) throw notFound(id);
    await this.deps.repos.digests.delete(workspaceId, id);
    await this.audit(workspaceId, userId, 'digest.remove', id);
  }

  async pause(workspaceId: string, id: string, userId: string): Promise<Subscription> {
    await this.get(workspaceId, id);
    const sub = await this.deps.repos.subscriptions.update(id, {
      paused: { reason: 'Paused by a person.', at: this.deps.clock.now(), by: userId },
    });
    if (sub === undefined) throw notFound(id);
    await this.audit(workspaceId, userId, 'digest.pause', id);
    return sub;
  }

  /** Resumes; the next digest covers everything since the last one (the cursors were kept). */
  async resume(workspaceId: string, id: string, userId: string): Promise<Subscription> {
    await this.get(workspaceId, id);
    const sub = await this.deps.repos.subscriptions.update(id, {
      paused: undefined,
      failures: undefined,
      nextAttemptAt: undefined,
      lastError: undefined,
    });
    if (sub === undefined) throw notFound(id);
    await this.audit(workspaceId, userId, 'digest.resume', id);
    return sub;
  }

  /** What the next digest would hold now; nothing is stored and no cursor moves. */
  async preview(workspaceId: string, id: string): Promise<DigestContent> {
    const sub = await this.get(workspaceId, id);
    const now = this.deps.clock.now();
    const state = await this.deps.repos.digests.cursorState(workspaceId, id);
    const collected = await collectEvents(this.deps.events, sub, state, now);
    const localDate = DateTime.fromMillis(now, { zone: sub.timeZone }).toISODate() ?? '';
    return contentOf(
      sub,
      { runId: `preview-${randomId(6)}`, localDate, late: false },
      collected.events,
      collected.truncated,
    );
  }

  private async audit(teamId: string, userId: string, action: string, target: string, detail?: string) {
    await this.deps.repos.audit.append({ teamId, userId, action, target, ...(detail ? { detail } : {}) });
  }
}
