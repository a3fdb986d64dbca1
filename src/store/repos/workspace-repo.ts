/**
 * Each Slack workspace's connection to the threat-intel API. The API key is only ever stored sealed, bound
 * to the workspace id; plaintext goes in through `put` and out through `apiKey`, and is registered with the
 * logger's redaction on both paths.
 */
import { z } from 'zod';
import type { Clock } from '../../kernel/clock.js';
import { redactText, registerSecret } from '../../kernel/logger.js';
import type { Namespace, Store } from '../backend/store.js';
import { openNamespace } from './namespaces.js';
import { checkRecord, readRecord, unlessUnreadable, updateRecord } from './records.js';
import type { Sealer } from './sealing.js';

const MAX_ERROR_MESSAGE = 500;

/** The search quota a call last reported, and when. */
export const QuotaSchema = z.object({
  remaining: z.number().nullable(),
  batchReached: z.boolean(),
  at: z.number(),
});

const ConnectionSchema = z.object({
  teamId: z.string().min(1),
  enterpriseId: z.string().min(1).optional(),
  /** e.g. api.flare.io; the key is only ever sent there. */
  apiHost: z.string().min(1),
  /** Absent once the host changed: the key must be given again for the new host. */
  sealedApiKey: z.string().startsWith('v1.').optional(),
  apiKeyId: z.number().int(),
  organizationId: z.number().int(),
  tenantId: z.number().int(),
  tenantName: z.string().optional(),
  scopes: z.array(z.string()),
  /** Slack user id of the admin who connected. */
  connectedBy: z.string().min(1),
  connectedAt: z.number(),
  lastSuccessAt: z.number().optional(),
  lastError: z.object({ message: z.string(), at: z.number() }).optional(),
  quota: QuotaSchema.optional(),
});
export type Connection = z.infer<typeof ConnectionSchema>;

/** What `put` takes: the plaintext key instead of the sealed one; bookkeeping fields are set here. */
export type NewConnection = Omit<
  Connection,
  'sealedApiKey' | 'connectedAt' | 'lastSuccessAt' | 'lastError' | 'quota'
> & { apiKey: string };

export interface QuotaReport {
  remaining: number | null;
  batchReached: boolean;
}

export class WorkspaceRepo {
  private readonly ns: Namespace;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly sealer: Sealer,
  ) {
    this.ns = openNamespace(store, 'workspace');
  }

  /**
   * The connection; undefined when not connected, or when its record cannot be read (set aside: the workspace
   * reads as not connected until an admin connects again or removes the record).
   */
  async get(workspaceId: string): Promise<Connection | undefined> {
    return unlessUnreadable(readRecord(this.ns, workspaceId, ConnectionSchema), undefined);
  }

  /** The id of every connected workspace (keys only: no record is read). */
  connectedIds(): Promise<string[]> {
    return this.ns.keys('');
  }

  /** Connects (or reconnects) the workspace, replacing any previous connection. */
  async put(workspaceId: string, input: NewConnection): Promise<Connection> {
    const { apiKey, ...rest } = input;
    if (apiKey.length === 0) throw new Error('an API key is required');
    registerSecret(apiKey);
    const connection = checkRecord(this.ns, workspaceId, ConnectionSchema, {
      ...rest,
      sealedApiKey: this.sealer.seal(apiKey, workspaceId),
      connectedAt: this.clock.now(),
    } satisfies Connection);
    await this.store.withLock(this.lockKey(workspaceId), () => this.ns.set(workspaceId, connection));
    return connection;
  }

  /** The plaintext API key, or undefined when not connected or cleared. Keys sealed with an old key are resealed. */
  async apiKey(workspaceId: string): Promise<string | undefined> {
    const connection = await this.get(workspaceId);
    if (!connection?.sealedApiKey) return undefined;
    const apiKey = this.sealer.open(connection.sealedApiKey, workspaceId);
    registerSecret(apiKey);
    if (this.sealer.isStale(connection.sealedApiKey)) {
      const stale = connection.sealedApiKey;
      await this.update(workspaceId, (current) =>
        current.sealedApiKey === stale
          ? { ...current, sealedApiKey: this.sealer.seal(apiKey, workspaceId) }
          : undefined,
      );
    }
    return apiKey;
  }

  /** Moves the workspace to another API host. The key is cleared: it must never be sent to a host it was not given for. */
  async changeHost(workspaceId: string, apiHost: string): Promise<Connection | undefined> {
    return this.update(workspaceId, (current) => {
      if (current.apiHost === apiHost) return undefined;
      const { sealedApiKey: _cleared, ...rest } = current;
      return { ...rest, apiHost };
    });
  }

  async switchTenant(
    workspaceId: string,
    tenant: { tenantId: number; tenantName?: string },
  ): Promise<Connection | undefined> {
    return this.update(workspaceId, (current) => {
      const { tenantName: _previous, ...rest } = current;
      return tenant.tenantName === undefined
        ? { ...rest, tenantId: tenant.tenantId }
        : { ...rest, tenantId: tenant.tenantId, tenantName: tenant.tenantName };
    });
  }

  /** Records a successful API call (and the search quota it reported, if any); clears the last error. */
  async markSuccess(workspaceId: string, quota?: QuotaReport): Promise<Connection | undefined> {
    const at = this.clock.now();
    return this.update(workspaceId, (current) => {
      const { lastError: _resolved, ...rest } = current;
      return quota ? { ...rest, lastSuccessAt: at, quota: { ...quota, at } } : { ...rest, lastSuccessAt: at };
    });
  }

  /** Records a failed API call, for `status` and App Home. The message is redacted and shortened. */
  async markError(workspaceId: string, message: string): Promise<Connection | undefined> {
    const at = this.clock.now();
    const safe = redactText(message).slice(0, MAX_ERROR_MESSAGE);
    return this.update(workspaceId, (current) => ({ ...current, lastError: { message: safe, at } }));
  }

  /** Deletes the connection and with it the sealed key. True when there was one. */
  async delete(workspaceId: string): Promise<boolean> {
    return this.store.withLock(this.lockKey(workspaceId), () => this.ns.delete(workspaceId));
  }

  /** Changes an existing connection; a missing one stays missing (a disconnect wins over a late update). */
  private async update(
    workspaceId: string,
    change: (current: Connection) => Connection | undefined,
  ): Promise<Connection | undefined> {
    return updateRecord(this.store, this.ns, workspaceId, ConnectionSchema, (current) =>
      current === undefined ? undefined : change(current),
    );
  }

  private lockKey(workspaceId: string): string {
    return `${this.ns.name}:${workspaceId}`;
  }
}
