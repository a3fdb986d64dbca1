/**
 * What Vigil did to each event, per workspace: a generation number that moves on with every action, and who
 * acted last. A click acts only on the generation its message was rendered with, and only the caller that wins
 * the store claim for (workspace, event, generation) calls the API: however many clicks, one upstream call.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Event, EventActionType } from '../../../api/index.js';
import type { Namespace, Store } from '../../../store/index.js';
import type { ShownEvent } from '../../../services/events-context.js';

const STATE_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** A claim outlives the contexts (24 h) that could still try the same generation. */
export const CLAIM_TTL_MS = 25 * 60 * 60 * 1000;
/** How long an "acting now" marker may stand if its owner dies mid-call. */
const ACTING_TTL_MS = 2 * 60 * 1000;

const ActedSchema = z.object({
  action: z.enum(['ignore', 'remediate', 'unignore', 'unremediate']),
  by: z.string().min(1),
  at: z.number(),
});
export type Acted = z.infer<typeof ActedSchema>;

const StateSchema = z.object({
  generation: z.number().int().nonnegative(),
  last: ActedSchema.optional(),
});
export type EventState = z.infer<typeof StateSchema>;

/** Event uids are long and may hold any character: keys use a digest. */
function uidKey(uid: string): string {
  return createHash('sha256').update(uid).digest('base64url').slice(0, 32);
}

/** The claim a click races for; the same for every instance and every clicker. */
export function claimKey(workspaceId: string, uid: string, generation: number): string {
  return `events:act:${workspaceId}:${uidKey(uid)}:${generation}`;
}

const REVERSE: Record<EventActionType, EventActionType> = {
  ignore: 'unignore',
  remediate: 'unremediate',
  unignore: 'ignore',
  unremediate: 'remediate',
};

export function reverseOf(action: EventActionType): EventActionType {
  return REVERSE[action];
}

/** What a button means for the event it sits on: Undo reverses what this message shows was done. */
export function intendedAction(button: string, shown: ShownEvent): EventActionType | undefined {
  switch (button) {
    case 'event_ignore':
      return 'ignore';
    case 'event_remediate':
      return 'remediate';
    case 'event_unignore':
      return 'unignore';
    case 'event_unremediate':
      return 'unremediate';
    case 'event_undo':
      return shown.acted === undefined ? undefined : reverseOf(shown.acted.action);
    default:
      return undefined;
  }
}

/** The event as it is after `action`, for re-rendering without another search. */
export function applyAction(event: Event, action: EventActionType, atIso: string): Event {
  const meta = { ...(event.tenant_metadata ?? {}) };
  if (action === 'ignore') meta.ignored_at ??= atIso;
  if (action === 'unignore') meta.ignored_at = null;
  if (action === 'remediate') meta.remediated_at ??= atIso;
  if (action === 'unremediate') meta.remediated_at = null;
  return { ...event, tenant_metadata: meta };
}

/** Whether `action` changes anything for an event in this state (ignore an ignored event: no). */
export function isApplicable(event: Event, action: EventActionType): boolean {
  const ignored = Boolean(event.tenant_metadata?.ignored_at);
  const remediated = Boolean(event.tenant_metadata?.remediated_at);
  switch (action) {
    case 'ignore':
      return !ignored;
    case 'unignore':
      return ignored;
    case 'remediate':
      return !remediated;
    case 'unremediate':
      return remediated;
  }
}

export class EventStateStore {
  private readonly states: Namespace;
  private readonly acting: Namespace;

  constructor(private readonly store: Store) {
    this.states = store.namespace('event-state');
    this.acting = store.namespace('event-acting');
  }

  async get(workspaceId: string, uid: string): Promise<EventState> {
    const parsed = StateSchema.safeParse(await this.states.get(`${workspaceId}:${uidKey(uid)}`));
    return parsed.success ? parsed.data : { generation: 0 };
  }

  /** True for exactly one caller per (workspace, event, generation). */
  claim(workspaceId: string, uid: string, generation: number): Promise<boolean> {
    return this.store.claim(claimKey(workspaceId, uid, generation), CLAIM_TTL_MS);
  }

  /** Gives the generation back after a failed call, so the next click can try again. */
  async release(workspaceId: string, uid: string, generation: number): Promise<void> {
    await this.acting.delete(actingKey(workspaceId, uid, generation));
    await this.store.release(claimKey(workspaceId, uid, generation));
  }

  /** Tells later clickers who is acting while the winner waits for the API. */
  async markActing(workspaceId: string, uid: string, generation: number, acted: Acted): Promise<void> {
    await this.acting.set(actingKey(workspaceId, uid, generation), acted, ACTING_TTL_MS);
  }

  async actingNow(workspaceId: string, uid: string, generation: number): Promise<Acted | undefined> {
    const parsed = ActedSchema.safeParse(await this.acting.get(actingKey(workspaceId, uid, generation)));
    return parsed.success ? parsed.data : undefined;
  }

  /** Records a completed action: the next generation. Only the claim winner of `from` calls this. */
  async commit(workspaceId: string, uid: string, from: number, acted: Acted): Promise<EventState> {
    const state: EventState = { generation: from + 1, last: acted };
    await this.states.set(`${workspaceId}:${uidKey(uid)}`, state, STATE_TTL_MS);
    await this.acting.delete(actingKey(workspaceId, uid, from));
    return state;
  }
}

const actingKey = (workspaceId: string, uid: string, generation: number) =>
  `${workspaceId}:${uidKey(uid)}:${generation}`;
