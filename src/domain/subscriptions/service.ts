/**
 * Managing channel subscriptions, digests and alerts alike: add, get, remove, pause, resume, each audited,
 * and the events behind a message's "+N more". No Slack here: the Slack side checks the channel and the
 * creator's time zone before calling `add`. Each kind says what it is called and what resuming resets.
 */
import type { Clock } from '../../kernel/clock.js';
import { VigilError } from '../../kernel/errors.js';
import type { AuditRepo, Repositories, SubscriptionBase, SubscriptionChangeOf } from '../../store/index.js';
import { SubscriptionLimitError } from '../../store/index.js';
import { EventRestStore } from '../events/rest.js';

/** The repository of one kind of subscription (digest-subscription-repo, alert-subscription-repo). */
export interface SubscriptionStore<S extends SubscriptionBase, N> {
  add(input: N): Promise<S>;
  get(id: string): Promise<S | undefined>;
  list(workspaceId: string): Promise<S[]>;
  /** Ids of the workspace's records that cannot be read (set aside by `list`). */
  unreadableIds(workspaceId: string): Promise<string[]>;
  remove(workspaceId: string, id: string): Promise<boolean>;
  update(id: string, change: SubscriptionChangeOf<S>): Promise<S | undefined>;
}

export interface SubscriptionKind<S> {
  /** The audit actions' prefix: `digest` → `digest.add`, `digest.pause`… */
  audit: string;
  /** What one is called (`digest`, `alert subscription`) and many (`digests`, `alert subscriptions`). */
  noun: string;
  nouns: string;
  /** The slash-command group (`digest`, `alerts`). */
  command: string;
  /** What a resume changes besides lifting the pause. */
  resumed(now: number): SubscriptionChangeOf<S>;
}

export interface SubscriptionServiceDeps {
  repos: Pick<Repositories, 'audit' | 'searchContexts'>;
  clock: Clock;
  /** The workspace's own tenant, kept by each new subscription; none kept when absent. */
  tenantOf?: (workspaceId: string) => Promise<number | undefined>;
}

export class SubscriptionService<
  S extends SubscriptionBase,
  N extends { teamId: string; createdBy: string; channelId: string; tenantId?: number | undefined },
> {
  /** The events behind a message's "+N more". */
  readonly rest: EventRestStore;
  private readonly audits: AuditRepo;

  constructor(
    protected readonly store: SubscriptionStore<S, N>,
    private readonly kind: SubscriptionKind<S>,
    protected readonly base: SubscriptionServiceDeps,
  ) {
    this.rest = new EventRestStore(base.repos);
    this.audits = base.repos.audit;
  }

  protected async create(input: N): Promise<S> {
    try {
      // Made for the workspace's tenant now: a later switch of the workspace's tenant leaves it there.
      const tenantId = input.tenantId ?? (await this.base.tenantOf?.(input.teamId));
      const sub = await this.store.add(tenantId === undefined ? input : { ...input, tenantId });
      await this.audit(input.teamId, input.createdBy, 'add', sub.id, `channel ${input.channelId}`);
      return sub;
    } catch (err) {
      if (err instanceof SubscriptionLimitError) {
        throw new VigilError(
          `This workspace already has ${err.limit} ${this.kind.nouns}, the most Vigil keeps.`,
          `Remove one with \`/vigil ${this.kind.command} remove <id>\` first.`,
        );
      }
      throw err;
    }
  }

  /** The workspace's subscriptions whose stored record is damaged: skipped by runs, removable by an admin. */
  unreadable(workspaceId: string): Promise<string[]> {
    return this.store.unreadableIds(workspaceId);
  }

  async get(workspaceId: string, id: string): Promise<S> {
    const sub = await this.store.get(id);
    if (sub === undefined || sub.teamId !== workspaceId) throw this.notFound(id);
    return sub;
  }

  async remove(workspaceId: string, id: string, userId: string): Promise<void> {
    if (!(await this.store.remove(workspaceId, id))) throw this.notFound(id);
    await this.removed(workspaceId, id);
    await this.audit(workspaceId, userId, 'remove', id);
  }

  /** What goes with a removed subscription (its outbox, its feed). */
  protected async removed(_workspaceId: string, _id: string): Promise<void> {}

  async pause(workspaceId: string, id: string, userId: string): Promise<S> {
    return this.change(workspaceId, id, userId, 'pause', {
      paused: { reason: 'Paused by a person.', at: this.base.clock.now(), by: userId },
    } as SubscriptionChangeOf<S>);
  }

  async resume(workspaceId: string, id: string, userId: string): Promise<S> {
    return this.change(workspaceId, id, userId, 'resume', {
      paused: undefined,
      ...this.kind.resumed(this.base.clock.now()),
    } as SubscriptionChangeOf<S>);
  }

  private async change(
    workspaceId: string,
    id: string,
    userId: string,
    action: string,
    change: SubscriptionChangeOf<S>,
  ): Promise<S> {
    await this.get(workspaceId, id);
    const sub = await this.store.update(id, change);
    if (sub === undefined) throw this.notFound(id);
    await this.audit(workspaceId, userId, action, id);
    return sub;
  }

  private notFound(id: string): VigilError {
    const { noun, nouns, command } = this.kind;
    return new VigilError(
      `There is no ${noun} \`${id.replaceAll('`', "'")}\` in this workspace.`,
      `\`/vigil ${command} list\` shows the ${nouns} and their ids.`,
    );
  }

  private async audit(teamId: string, userId: string, action: string, target: string, detail?: string) {
    await this.audits.append({
      teamId,
      userId,
      action: `${this.kind.audit}.${action}`,
      target,
      ...(detail ? { detail } : {}),
    });
  }
}
