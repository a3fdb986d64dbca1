/**
 * Actions taken through Vigil, per workspace, newest first. A ring of `retention` slots per workspace keeps it
 * bounded without rewriting a growing list on every append: beyond it the oldest entry is overwritten (the
 * structured log line each append also writes, through `onAppend`, is what a SIEM keeps for longer).
 */
import { z } from 'zod';
import type { Clock } from '../../kernel/clock.js';
import type { Namespace, Store } from '../backend/store.js';
import { openNamespace } from './namespaces.js';
import { parseRecord, readRecord, unlessUnreadable } from './records.js';

/** Entries kept per workspace; older ones are dropped as new ones come. */
const AUDIT_RETENTION = 10_000;
const MAX_TARGETS = 100;
/** Entries read at once from the store (an export reads the whole ring). */
const READ_BATCH = 500;
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
  /** Every target of a bulk action (up to 100), when there were several. */
  targets: z.array(z.string()).max(MAX_TARGETS).optional(),
  /** How it ended, when not simply done: `failed`, `interrupted`. */
  outcome: z.string().min(1).max(40).optional(),
  /** Where it was done: command, button, form, home, workflow, page (Vigil's own pages) or vigil (by itself). */
  surface: z.string().min(1).max(40).optional(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
export type NewAuditEntry = Omit<AuditEntry, 'at'>;

export interface AuditRepoOptions {
  /** Entries kept per workspace. */
  retention?: number;
  /** The surface of the request under way, for entries that do not name theirs. */
  surface?: () => string | undefined;
  /** Told of every stored entry (the structured audit log line). */
  onAppend?: (entry: AuditEntry) => void;
}

const SlotSchema = AuditEntrySchema.extend({ seq: z.number().int().nonnegative() });
const HeadSchema = z.object({ next: z.number().int().nonnegative() });

export class AuditRepo {
  private readonly ns: Namespace;
  readonly retention: number;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly options: AuditRepoOptions = {},
  ) {
    const retention = options.retention ?? AUDIT_RETENTION;
    this.retention = retention;
    if (!Number.isInteger(retention) || retention < 1)
      throw new Error('audit retention must be a positive integer');
    this.ns = openNamespace(store, 'audit');
  }

  async append(entry: NewAuditEntry): Promise<AuditEntry> {
    const surface = entry.surface ?? this.options.surface?.() ?? 'vigil';
    const stored: AuditEntry = {
      ...entry,
      ...(entry.detail === undefined ? {} : { detail: entry.detail.slice(0, MAX_DETAIL) }),
      ...(entry.title === undefined ? {} : { title: entry.title.slice(0, MAX_TITLE) }),
      ...(entry.targets === undefined || entry.targets.length < 2
        ? { targets: undefined }
        : { targets: entry.targets.slice(0, MAX_TARGETS) }),
      surface,
      at: this.clock.now(),
    };
    if (stored.targets === undefined) delete stored.targets;
    const teamId = entry.teamId;
    await this.store.withLock(`${this.ns.name}:${teamId}`, async () => {
      const head = (await this.head(teamId)) ?? { next: 0 };
      const seq = head.next;
      // Slot first: a crash in between leaves the head behind, and the slot is simply overwritten next time.
      await this.ns.set(this.slotKey(teamId, seq), { ...stored, seq });
      await this.ns.set(headKey(teamId), { next: seq + 1 });
    });
    this.options.onAppend?.(stored);
    return stored;
  }

  /** The latest `n` entries of the workspace, newest first; an unreadable one is left out (set aside). */
  async recent(teamId: string, n = 20): Promise<AuditEntry[]> {
    const head = await this.head(teamId);
    if (!head) return [];
    const count = Math.max(0, Math.min(Math.floor(n), this.retention, head.next));
    const out: AuditEntry[] = [];
    for (let from = 0; from < count; from += READ_BATCH) {
      const seqs = Array.from(
        { length: Math.min(READ_BATCH, count - from) },
        (_, i) => head.next - 1 - from - i,
      );
      const slots = await Promise.all(
        seqs.map(async (seq) => {
          const key = this.slotKey(teamId, seq);
          const read = this.ns
            .get(key)
            .then((raw) => (raw === undefined ? undefined : parseRecord(this.ns, key, SlotSchema, raw)));
          return unlessUnreadable(read, undefined);
        }),
      );
      slots.forEach((slot, i) => {
        // A slot holding another sequence number was never rewritten (interrupted append): skip it.
        if (!slot || slot.seq !== seqs[i]) return;
        const { seq: _seq, ...entry } = slot;
        out.push(entry);
      });
    }
    return out;
  }

  async delete(teamId: string): Promise<void> {
    await this.store.withLock(`${this.ns.name}:${teamId}`, async () => {
      const head = await this.head(teamId);
      if (!head) return;
      const used = Math.min(head.next, this.retention);
      for (let slot = 0; slot < used; slot++) await this.ns.delete(`${teamId}:${slot}`);
      await this.ns.delete(headKey(teamId));
    });
  }

  /**
   * Where the ring stands. An unreadable head (set aside by the store) is found again from the slots, so the
   * trail goes on after the latest entry instead of every audited action failing.
   */
  private async head(teamId: string): Promise<z.infer<typeof HeadSchema> | undefined> {
    const head = await unlessUnreadable(readRecord(this.ns, headKey(teamId), HeadSchema), null);
    if (head !== null) return head;
    let next = 0;
    for (const key of await this.ns.keys(`${teamId}:`)) {
      if (key === headKey(teamId)) continue;
      const slot = await unlessUnreadable(readRecord(this.ns, key, SlotSchema), undefined);
      if (slot !== undefined) next = Math.max(next, slot.seq + 1);
    }
    return { next };
  }

  private slotKey(teamId: string, seq: number): string {
    return `${teamId}:${seq % this.retention}`;
  }
}

const headKey = (teamId: string) => `${teamId}:head`;
