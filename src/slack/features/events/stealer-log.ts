/**
 * "Open stealer log" in an infected device's event menu: the machine's logins and cookies, privately to the
 * clicker (hosts on the tenant's domains first, values masked), and Reveal on each, checked against the
 * `reveal` permission on every click and audited, as for leaked credentials.
 */
import type { App } from '@slack/bolt';
import { ExpiredError } from '../../../errors.js';
import { contextRef, parseContextRef } from '../../../services/contexts.js';
import { parseRef } from '../../../services/events/context.js';
import { isInfectedDevice } from '../../../services/events/model.js';
import { renderStealerLog, renderStealerRevealed, STEALER_REVEAL } from '../../blocks/stealer-log.js';
import { ephemeral, type SlackDeps } from '../../context.js';
import { type Click, onAction } from '../../listen.js';

function gone(): ExpiredError {
  return new ExpiredError(
    'This button no longer points at an event Vigil knows.',
    'Run the search again with `/vigil events …`.',
  );
}

export async function openStealerLog(click: Click): Promise<void> {
  const { deps, who } = click;
  // A stealer log lists the logins of the company's people: the same permission as searching leaked credentials.
  await deps.authz.requireAccess(click.client, who, 'creds');
  const ref = parseRef(click.action.value);
  if (!ref) throw gone();
  const ctx = await deps.events.contexts.load(ref.ctxId, who.workspaceId);
  const shown = ref.index === undefined ? undefined : ctx.events[ref.index];
  if (shown === undefined || !isInfectedDevice(shown.event)) throw gone();
  const { view, id } = await deps.credentials.stealerLogs.open({
    workspaceId: who.workspaceId,
    userId: who.userId,
    uid: shown.event.metadata.uid,
  });
  // Never in place of the event's message, and only to the clicker.
  await click.respond(
    ephemeral(renderStealerLog(view, { now: deps.clock.now(), ref: (i) => contextRef(id, i) }), false),
  );
}

async function reveal(click: Click): Promise<void> {
  const { deps, who } = click;
  const ref = parseContextRef(click.action.value);
  if (!ref || ref.index === undefined) throw gone();
  const view = await deps.credentials.stealerLogs.contexts.load(ref.ctxId, who.workspaceId);
  await deps.authz.requirePermission(click.client, who.workspaceId, who.teamId, who.userId, 'reveal');
  const { entry, value } = await deps.credentials.stealerLogs.reveal(view, ref.index, who);
  await click.respond(ephemeral(renderStealerRevealed(entry, value), false));
}

export function registerStealerLog(app: App, deps: SlackDeps): void {
  onAction(app, deps, { action_id: STEALER_REVEAL, block_id: /^stealer:row:\d{1,2}$/ }, reveal);
}
