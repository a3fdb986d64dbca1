/**
 * Snooze and Unsnooze from an event's side panel: the same snoozes as the Snooze… form of an event's row
 * (this event, for 1 hour, 1 day or 7 days; Unsnooze ends every snooze covering it), for who may act,
 * checked again here from the verified payload, audited by the snooze service. The panel is then presented
 * again by the caller, showing who snoozed it until when.
 */
import type { WebClient } from '@slack/web-api';
import { eventTitle } from '../../domain/events/model.js';
import type { ResolvedEvent } from '../../domain/work-object-entity.js';
import { ENTITY_UNSNOOZE, entitySnoozeHours } from './blocks-snooze.js';
import type { Viewer, WorkObjectsDeps } from './deps.js';

/** Snoozes or unsnoozes when `actionId` is one of the panel's snooze actions; false for any other action. */
export async function snoozeFromPanel(
  deps: WorkObjectsDeps,
  client: WebClient,
  v: Viewer,
  found: ResolvedEvent,
  actionId: string,
): Promise<boolean> {
  const hours = entitySnoozeHours(actionId);
  if (hours === undefined && actionId !== ENTITY_UNSNOOZE) return false;
  await deps.authz.requireActor(client, v.workspaceId, v.teamId, v.userId);
  if (hours === undefined) {
    await deps.snoozes.endFor(v.workspaceId, found.event, v.userId);
    return true;
  }
  await deps.snoozes.snooze({
    workspaceId: v.workspaceId,
    target: { kind: 'event', uid: found.uid },
    length: { kind: 'for', hours },
    by: v.userId,
    label: eventTitle(found.event),
  });
  return true;
}
