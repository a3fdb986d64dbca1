/**
 * What digest and alert subscriptions share in the store: the fields of a channel subscription (workspace,
 * channel, identifiers, severity, types, time zone, creator, pause), the limit per workspace, and the
 * repository shape: one record per subscription (so a run updates its own alone), an index of ids per
 * workspace, and an index of workspaces that have any, for the schedulers (team-indexed-repo). Each kind
 * adds its own fields and namespaces (digest-subscription-repo, alert-subscription-repo).
 */
import { z } from 'zod';
import type { Clock } from '../../kernel/clock.js';
import { StoreError } from '../backend/errors.js';
import type { Store } from '../backend/store.js';
import type { NamespaceName } from './namespaces.js';
import { type RecordChange, TeamIndexedRepo } from './team-indexed-repo.js';
import type { UnreadableRecords } from './unreadable.js';

const MAX_SUBSCRIPTIONS_PER_WORKSPACE = 100;
/**
 * Severity thresholds, lowest first. The store keeps its own list instead of importing the API client; a test
 * checks that it matches the client's severities.
 */
export const SUBSCRIPTION_SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const;

const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

export const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The fields every channel subscription has. */
export const subscriptionFields = {
  id: z.string().min(1),
  /** The workspace key (enterprise id for org-wide installs, else team id). */
  teamId: z.string().min(1),
  channelId: z.string().min(1),
  identifierIds: z.union([z.literal('all'), z.array(z.number().int()).min(1)]),
  /** One level: that level or higher; several: exactly those. */
  severity: z.union([z.enum(SUBSCRIPTION_SEVERITIES), z.array(z.enum(SUBSCRIPTION_SEVERITIES)).min(1)]),
  /** Event types to include; empty means every type. */
  types: z.array(z.string().min(1)),
  timeZone: z.string().refine(isTimeZone, 'not an IANA time zone'),
  createdBy: z.string().min(1),
  createdAt: z.number(),
  /** Set while paused: by a person (resume clears it) or by Vigil when the channel cannot take posts. */
  paused: z.object({ reason: z.string(), at: z.number(), by: z.string() }).optional(),
  /**
   * The tenant it was made for: its runs and its messages' buttons use it, whatever the workspace's tenant
   * becomes. Absent in records written before tenants were kept: those follow the workspace's tenant.
   */
  tenantId: z.number().int().positive().optional(),
};

const BaseSchema = z.object(subscriptionFields);
export type SubscriptionBase = z.infer<typeof BaseSchema>;

/** What a run or a person changes; identity, owner and channel never change. `undefined` clears a field. */
export type SubscriptionChangeOf<T> = RecordChange<
  Omit<T, 'id' | 'teamId' | 'channelId' | 'createdBy' | 'createdAt'>
>;

export class SubscriptionLimitError extends StoreError {
  constructor(
    readonly limit: number,
    what: string,
  ) {
    super(`a workspace can have at most ${limit} ${what}`);
    this.name = 'SubscriptionLimitError';
  }
}

/** Subscriptions of one kind, `N` being what `add` takes. */
export class SubscriptionRepo<
  T extends SubscriptionBase,
  N extends Omit<T, 'id' | 'createdAt'>,
> extends TeamIndexedRepo<T> {
  constructor(
    store: Store,
    clock: Clock,
    schema: z.ZodType<T>,
    kind: { namespaces: { records: NamespaceName; team: NamespaceName; all: NamespaceName }; what: string },
    unreadable?: UnreadableRecords,
  ) {
    super(store, clock, schema, {
      namespaces: kind.namespaces,
      limit: MAX_SUBSCRIPTIONS_PER_WORKSPACE,
      tooMany: (limit) => new SubscriptionLimitError(limit, kind.what),
      ...(unreadable ? { unreadable } : {}),
    });
  }

  override add(input: N): Promise<T> {
    return super.add(input);
  }

  /** Changes a subscription; undefined when it no longer exists. */
  override update(id: string, change: SubscriptionChangeOf<T>): Promise<T | undefined> {
    return super.update(id, change as RecordChange<T>);
  }
}
