/**
 * Actions taken through Vigil, per workspace, newest first. A ring of `retention` slots per workspace keeps it
 * bounded without rewriting a growing list on every append.
 */
import { z } from 'zod';
import type { Clock } from '../../clock.js';
import type { Namespace, Store } from '../backend/store.js';
import { openNamespace } from './namespaces.js';
import { parseRecord, readRecord } from './records.js';

/** @internal */
export const AUDIT_RETENTION = 1000;
const MAX_DETAIL = 1000;
const MAX_TITLE = 300;

const AuditEntrySchema = z.object({
  at: z.number(),
  teamId: z.string().min(1),
  userId: z.string().min(1),
  /** e.g. `event.ignore`, `workspace.connect`, `credential.reveal`. */
  action: z.string().min(1),
  /** What was acted on: an event uid, a tenant id, a subscription id… */
  target: z.string(),
  detail: z.string().max(MAX_DETAIL).optional(),
  /** How the target is called (an event's title), for people reading the log. */
  title: z.string().max(MAX_TITLE).optional(),
  /** A bulk action is one entry: how many targets it covered (`target` names the first). */
  count: z.number().int().positive().optional(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
export type NewAuditEntry = Omit<AuditEntry, 'at'>;

const SlotSchema = AuditEntrySchema.extend({ seq: z.number().int().nonnegative() });
const HeadSchema = z.object({ next: z.number().int().nonnegative() });

export class AuditRepo {
  private readonly ns: Namespace;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly retention: number = AUDIT_RETENTION,
  ) {
    if (!Number.isInteger(retention) || retention < 1)
      throw new Error('audit retention must be a positive integer');
    this.ns = openNamespace(store, 'audit');
  }

  async append(entry: NewAuditEntry): Promise<AuditEntry> {
    const stored: AuditEntry = {
      ...entry,
      ...(entry.detail === undefined ? {} : { detail: entry.detail.slice(0, MAX_DETAIL) }),
      ...(entry.title === undefined ? {} : { title: entry.title.slice(0, MAX_TITLE) }),
      at: this.clock.now(),
    };
    const teamId = entry.teamId;
    await this.store.withLock(`${this.ns.name}:${teamId}`, async () => {
      const head = (await readRecord(this.ns, headKey(teamId), HeadSchema)) ?? { next: 0 };
      const seq = head.next;
      // Slot first: a crash in between leaves the head behind, and the slot is simply overwritten next time.
      await this.ns.set(this.slotKey(teamId, seq), { ...stored, seq });
      await this.ns.set(headKey(teamId), { next: seq + 1 });
    });
    return stored;
  }

  /** The latest `n` entries of the workspace, newest first. */
  async recent(teamId: string, n = 20): Promise<AuditEntry[]> {
    const head = await readRecord(this.ns, headKey(teamId), HeadSchema);
    if (!head) return [];
    const count = Math.max(0, Math.min(Math.floor(n), this.retention, head.next));
    const seqs = Array.from({ length: count }, (_, i) => head.next - 1 - i);
    const slots = await Promise.all(
      seqs.map(async (seq) => {
        const key = this.slotKey(teamId, seq);
        const raw = await this.ns.get(key);
        return raw === undefined ? undefined : parseRecord(this.ns, key, SlotSchema, raw);
      }),
    );
    return slots.flatMap((slot, i) => {
      // A slot holding another sequence number was never rewritten (interrupted append): skip it.
      if (!slot || slot.seq !== seqs[i]) return [];
      const { seq: _seq, ...entry } = slot;
      return [entry];
    });
  }

  async delete(teamId: string): Promise<void> {
    await this.store.withLock(`${this.ns.name}:${teamId}`, async () => {
      const head = await readRecord(this.ns, headKey(teamId), HeadSchema);
      if (!head) return;
      const used = Math.min(head.next, this.retention);
      for (let slot = 0; slot < used; slot++) await this.ns.delete(`${teamId}:${slot}`);
      await this.ns.delete(headKey(teamId));
    });
  }

  private slotKey(teamId: string, seq: number): string {
    return `${teamId}:${seq % this.retention}`;
  }
}

const headKey = (teamId: string) => `${teamId}:head`;
