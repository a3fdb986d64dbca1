/**
 * Snoozes: what a workspace quiets in its alerts and digests until a given instant (an event, an identifier,
 * or an event source). One record per workspace, read once by each poll or run and changed under the store's
 * lock, so every instance on the same store sees the same snoozes. Expired ones are dropped on each write.
 */
import { z } from 'zod';
import { RefusalError } from '../../kernel/errors.js';
import type { Store } from '../backend/store.js';
import { randomId } from './ids.js';
import { WorkspaceRecordRepo } from './workspace-record-repo.js';

/** Snoozes a workspace keeps at once: enough for a busy team, small enough to read on every poll. */
const MAX_SNOOZES = 200;
/** Snoozes one person keeps at once, so that no one member can take every slot of the workspace. */
const MAX_SNOOZES_PER_PERSON = 20;

const SnoozeTargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('event'), uid: z.string().min(1).max(400) }),
  z.object({ kind: z.literal('identifier'), id: z.number().int().positive() }),
  /** The source segment of event uids (`<index>/<source>/<id>`). */
  z.object({ kind: z.literal('source'), source: z.string().min(1).max(200) }),
]);
export type SnoozeTarget = z.infer<typeof SnoozeTargetSchema>;

const SnoozeSchema = z.object({
  id: z.string().min(1),
  target: SnoozeTargetSchema,
  /** Milliseconds since the epoch: alerted and digested again from then on. */
  until: z.number(),
  /** Slack user id of who snoozed it. */
  by: z.string().min(1),
  at: z.number(),
  /** How the target is called (an event's title, an identifier's name), for lists. */
  label: z.string().max(300).optional(),
});
export type Snooze = z.infer<typeof SnoozeSchema>;

const SnoozeListSchema = z.object({ snoozes: z.array(SnoozeSchema) });

const KEY = 'all';

/** A limit reached: an answer (which limit, how to make room), not a storage failure. */
class SnoozeLimitError extends RefusalError {
  constructor(message: string) {
    super(
      message,
      'End one with `/vigil snoozes end <id>` (`/vigil snoozes` lists them), or let one run out.',
    );
  }
}

function sameTarget(a: SnoozeTarget, b: SnoozeTarget): boolean {
  if (a.kind === 'event' && b.kind === 'event') return a.uid === b.uid;
  if (a.kind === 'identifier' && b.kind === 'identifier') return a.id === b.id;
  if (a.kind === 'source' && b.kind === 'source') return a.source === b.source;
  return false;
}

export class SnoozeRepo {
  private readonly records: WorkspaceRecordRepo<typeof SnoozeListSchema>;

  constructor(store: Store) {
    // Unreadable (set aside): read as none, and replaced by the next snooze made.
    this.records = new WorkspaceRecordRepo(store, 'snooze', SnoozeListSchema, { unreadable: 'absent' });
  }

  /**
   * The snoozes still running at `now`, soonest to end first. None when their record cannot be read (set
   * aside): alerts and digests go on, unsnoozed, until an admin removes it or a snooze is made again.
   */
  async active(workspaceId: string, now: number): Promise<Snooze[]> {
    const record = await this.records.get(workspaceId, KEY);
    return (record?.snoozes ?? []).filter((s) => s.until > now).sort((a, b) => a.until - b.until);
  }

  /**
   * Snoozes `target` until `input.until`; a running snooze of the same target is replaced (its new end
   * and who set it), so a target has at most one.
   */
  async put(
    workspaceId: string,
    input: Omit<Snooze, 'id'>,
    now: number,
  ): Promise<{ snooze: Snooze; replaced: Snooze | undefined }> {
    let replaced: Snooze | undefined;
    const snooze: Snooze = { ...input, id: randomId(6) };
    await this.records.update(workspaceId, KEY, (current) => {
      const running = (current?.snoozes ?? []).filter((s) => s.until > now);
      replaced = running.find((s) => sameTarget(s.target, input.target));
      const others = running.filter((s) => !sameTarget(s.target, input.target));
      if (others.filter((s) => s.by === input.by).length >= MAX_SNOOZES_PER_PERSON) {
        throw new SnoozeLimitError(
          `You already keep ${MAX_SNOOZES_PER_PERSON} running snoozes, as many as one person may.`,
        );
      }
      if (others.length >= MAX_SNOOZES) {
        throw new SnoozeLimitError(
          `This workspace already keeps ${MAX_SNOOZES} running snoozes, as many as it may.`,
        );
      }
      return { snoozes: [...others, snooze] };
    });
    return { snooze, replaced };
  }

  /** Ends every running snooze `pick` chooses; the snoozes ended (none when they had ended already). */
  async end(workspaceId: string, now: number, pick: (snooze: Snooze) => boolean): Promise<Snooze[]> {
    let ended: Snooze[] = [];
    await this.records.update(workspaceId, KEY, (current) => {
      const running = (current?.snoozes ?? []).filter((s) => s.until > now);
      ended = running.filter(pick);
      if (ended.length === 0 && running.length === (current?.snoozes.length ?? 0)) return undefined;
      return { snoozes: running.filter((s) => !ended.includes(s)) };
    });
    return ended;
  }
}
