/**
 * "Open stealer log" in an infected device's event menu: the machine's logins and cookies, privately to the
 * clicker (hosts on the tenant's domains first, values masked), and Reveal on each, checked against the
 * `reveal` permission on every click and audited, as for leaked credentials. It is read in the tenant of the
 * message it is opened from (the menu runs in it), and its Reveal reads that tenant again: the kept log names
 * it, never the button.
 */
import type { App } from '@slack/bolt';
import { containStealerRef } from '../../domain/contain-entry.js';
import { contextRef, parseContextRef } from '../../domain/contexts.js';
import { parseRef } from '../../domain/events/context.js';
import { isInfectedDevice } from '../../domain/events/model.js';
import {
  decodePages,
  encodePages,
  renderStealerLog,
  renderStealerRevealed,
  STEALER_NEXT,
  STEALER_PREVIOUS,
  STEALER_REVEAL,
  type StealerLogPages,
} from '../../domain/stealer-log-blocks.js';
import { ExpiredError } from '../../kernel/errors.js';
import { ephemeral } from '../../slack/context.js';
import { type Click, onAction } from '../../slack/listen.js';
import type { StealerLogDeps } from './deps.js';

function gone(): ExpiredError {
  return new ExpiredError(
    'This button no longer points at an event Vigil knows.',
    'Run the search again with `/vigil events …`.',
  );
}

export async function openStealerLog(click: Click<StealerLogDeps>): Promise<void> {
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
  await click.respond(ephemeral(render(click, view, id, await mayContain(click)), false));
}

/** The viewer alone sees it: *Contain…* only with a provider connected and to holders of `contain`. */
async function mayContain(click: Click<StealerLogDeps>): Promise<boolean> {
  const { deps, who } = click;
  if (deps.containment === undefined || !(await deps.containment.connected(who.workspaceId))) return false;
  return deps.authz.may(click.client, who, 'contain');
}

function render(
  click: Click<StealerLogDeps>,
  view: Parameters<typeof renderStealerLog>[0],
  id: string,
  contain: boolean,
  pages?: StealerLogPages,
) {
  return renderStealerLog(view, {
    now: click.deps.clock.now(),
    ref: (i) => contextRef(id, i),
    pageRef: (p) => contextRef(id, encodePages(p)),
    ...(contain ? { containRef: (i: number) => containStealerRef(id, i) } : {}),
    ...(pages === undefined ? {} : { pages }),
  });
}

/** Next/Previous of one list: the same private message, another page of what was read (still masked). */
async function page(click: Click<StealerLogDeps>): Promise<void> {
  const { deps, who } = click;
  await deps.authz.requireAccess(click.client, who, 'creds');
  const ref = parseContextRef(click.action.value, 3);
  if (!ref || ref.index === undefined) throw gone();
  const view = await deps.credentials.stealerLogs.contexts.load(ref.ctxId, who.workspaceId);
  const pages = decodePages(ref.index);
  await click.respond(ephemeral(render(click, view, ref.ctxId, await mayContain(click), pages), true));
}

async function reveal(click: Click<StealerLogDeps>): Promise<void> {
  const { deps, who } = click;
  const ref = parseContextRef(click.action.value, 3);
  if (!ref || ref.index === undefined) throw gone();
  const view = await deps.credentials.stealerLogs.contexts.load(ref.ctxId, who.workspaceId);
  await deps.authz.requirePermission(click.client, who.workspaceId, who.teamId, who.userId, 'reveal');
  const { entry, value } = await deps.credentials.stealerLogs.reveal(view, ref.index, who);
  await click.respond(ephemeral(renderStealerRevealed(entry, value), false));
}

export function registerStealerLog(app: App, deps: StealerLogDeps): void {
  onAction(app, deps, { action_id: STEALER_REVEAL, block_id: /^stealer:row:\d{1,3}$/ }, reveal);
  for (const action_id of [STEALER_PREVIOUS, STEALER_NEXT])
    onAction(app, deps, { action_id, block_id: /^stealer:pager:(credentials|cookies)$/ }, page);
}
