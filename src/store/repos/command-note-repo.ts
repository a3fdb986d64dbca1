/**
 * The command behind a search context, kept long after the context itself expires, so a late click can be
 * told which command to run again. Keyed by the context's short id.
 */
import { z } from 'zod';
import { StoreCorruptionError } from '../backend/errors.js';
import type { Namespace, Store } from '../backend/store.js';
import { openNamespace, setOwned } from './namespaces.js';
import { readRecord } from './records.js';

const COMMAND_NOTE_TTL_MS = 30 * 24 * 60 * 60 * 1000;

const NoteSchema = z.object({ workspaceId: z.string().min(1), commandText: z.string() });
export type CommandNote = z.infer<typeof NoteSchema>;

export class CommandNoteRepo {
  private readonly ns: Namespace;

  constructor(private readonly store: Store) {
    // The name predates this repository; kept so stored notes stay readable.
    this.ns = openNamespace(store, 'events-command');
  }

  async save(contextId: string, note: CommandNote, ttlMs: number = COMMAND_NOTE_TTL_MS): Promise<void> {
    const value = NoteSchema.parse(note);
    await setOwned(this.store, this.ns, contextId, value.workspaceId, value, ttlMs);
  }

  /** The note, or undefined when gone or unreadable (a hint, never worth failing a click over). */
  async get(contextId: string): Promise<CommandNote | undefined> {
    // An unreadable note is told by the store (logged once, counted) and read as gone.
    return readRecord(this.ns, contextId, NoteSchema).catch((error: unknown) => {
      if (error instanceof StoreCorruptionError) return undefined;
      throw error;
    });
  }
}
