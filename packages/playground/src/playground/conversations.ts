/**
 * What the page shows, conversation by conversation (channels and the DM with Vigil), with a revision on
 * everything so a poll sends only what changed since the version the page has. Each conversation keeps its
 * latest entries only: a long session holds a bounded amount, like a Slack client that pages history.
 */

/** `message`: what the person wrote in a channel (a pasted link), with the cards its links unfurled to. */
type EntryKind = 'channel' | 'ephemeral' | 'command' | 'note' | 'welcome' | 'file' | 'message';

/** A file shared in a conversation (an export in the DM), as the page shows it. */
export interface SharedFile {
  id: string;
  name: string;
  title: string;
  size: number;
  mimetype: string;
}

export interface Entry {
  id: string;
  kind: EntryKind;
  /** Slack ts: the channel message's, or one made up for an ephemeral message (Slack does the same). */
  ts: string;
  text: string;
  blocks: unknown[] | undefined;
  edited: boolean;
  /** The version of the last change to this entry. */
  rev: number;
  file?: SharedFile;
  /** Work Object cards the message's links unfurled to (`chat.unfurl`'s `metadata.entities`). */
  entities?: unknown[];
  /** A reply in a thread: its parent's ts. */
  thread?: string;
}

export interface Conversation {
  id: string;
  name: string;
  kind: 'channel' | 'im';
  isPrivate: boolean;
  /** Whether Vigil is a member (it can post there). */
  member: boolean;
  entries: Entry[];
  /** The version of the last entry added or removed. */
  orderRev: number;
  /** Entries added since the page last showed this conversation. */
  unread: number;
}

export interface TimelineOptions {
  /** Entries kept per conversation; the welcome message is kept besides. */
  maxEntries: number;
  nowMs: () => number;
}

export class Timeline {
  /** Bumped by every change: the page sends the version it has and gets what is newer. */
  version = 1;
  readonly conversations = new Map<string, Conversation>();
  /** Entry id → its conversation id. */
  private readonly where = new Map<string, string>();
  private seq = 0;

  constructor(private readonly o: TimelineOptions) {}

  bump(): number {
    this.version += 1;
    return this.version;
  }

  addConversation(c: Omit<Conversation, 'entries' | 'orderRev' | 'unread'>): Conversation {
    const conversation: Conversation = { ...c, entries: [], orderRev: this.bump(), unread: 0 };
    this.conversations.set(c.id, conversation);
    return conversation;
  }

  /** A new entry at the end of a conversation; undefined when the conversation is not shown. */
  add(
    conversationId: string,
    input: Pick<Entry, 'kind' | 'text' | 'blocks'> & Partial<Pick<Entry, 'id' | 'ts' | 'file' | 'thread'>>,
  ): Entry | undefined {
    const c = this.conversations.get(conversationId);
    if (!c) return undefined;
    this.seq += 1;
    const entry: Entry = {
      id: input.id ?? `e${this.seq}`,
      kind: input.kind,
      ts: input.ts ?? `${Math.floor(this.o.nowMs() / 1000)}.${String(this.seq).padStart(6, '0')}`,
      text: input.text,
      blocks: input.blocks,
      edited: false,
      rev: this.bump(),
      ...(input.file ? { file: input.file } : {}),
      ...(input.thread ? { thread: input.thread } : {}),
    };
    c.entries.push(entry);
    c.orderRev = entry.rev;
    c.unread += 1;
    this.where.set(entry.id, c.id);
    this.trim(c);
    return entry;
  }

  get(entryId: string): { entry: Entry; conversation: Conversation } | undefined {
    const c = this.conversations.get(this.where.get(entryId) ?? '');
    // Entries are few per conversation (bounded): a scan from the end finds recent ones first.
    const entry = c?.entries.findLast((e) => e.id === entryId);
    return c && entry ? { entry, conversation: c } : undefined;
  }

  update(entry: Entry, change: Partial<Pick<Entry, 'text' | 'blocks' | 'edited' | 'entities'>>): void {
    Object.assign(entry, change);
    entry.rev = this.bump();
  }

  remove(entryId: string): void {
    const found = this.get(entryId);
    if (!found) return;
    const { conversation: c } = found;
    c.entries.splice(c.entries.indexOf(found.entry), 1);
    this.where.delete(entryId);
    c.orderRev = this.bump();
  }

  private trim(c: Conversation): void {
    const kept = c.entries.filter((e) => e.kind === 'welcome').length;
    while (c.entries.length > this.o.maxEntries + kept) {
      const i = c.entries.findIndex((e) => e.kind !== 'welcome');
      const [gone] = c.entries.splice(i, 1);
      if (gone) this.where.delete(gone.id);
    }
  }
}
