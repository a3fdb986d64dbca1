/**
 * Snooze from an event's row: Snooze… in its menu opens a form (this event, one of its identifiers or its
 * source; for how long), after checking the `act` permission; the submission is checked again, snoozed
 * (audited, in the store every instance reads) and the rows it covers show "Snoozed until … by @user" with
 * Unsnooze, in place. Unsnooze ends every snooze covering the event.
 */
import type { App, ViewOutput } from '@slack/bolt';
import type { View } from '@slack/types';
import { z } from 'zod';
import { type EventsContext, parseRef } from '../../domain/events/context.js';
import { showContext } from '../../domain/events/message.js';
import { eventTitle } from '../../domain/events/model.js';
import { plainTitle } from '../../domain/events/page.js';
import { rowPlaceOf, targetOf } from '../../domain/events/triage-listeners.js';
import {
  renderSnoozeModal,
  renderSnoozeStatus,
  SNOOZE_FOR_BLOCK,
  SNOOZE_FORM_LENGTHS,
  SNOOZE_SHOWN_IDENTIFIERS,
  SNOOZE_UNTIL_BLOCK,
  SNOOZE_VIEW,
  SNOOZE_WHAT_BLOCK,
  snoozedText,
} from '../../domain/snooze-blocks.js';
import { type SnoozeLength, sourceOf, withSnoozes } from '../../domain/snooze-model.js';
import { ExpiredError, RefusalError, VigilError } from '../../kernel/errors.js';
import { ephemeral } from '../../slack/context.js';
import { userMention } from '../../slack/kit/text.js';
import { type Click, onStatusForm, type StatusSubmission } from '../../slack/listen.js';
import { clickTarget, type MessageTarget } from '../../slack/respond.js';
import type { SnoozeTarget } from '../../store/index.js';
import type { EventSnoozeDeps } from './deps.js';

/** A response_url works for 30 minutes: the pending form lives no longer. */
const PENDING_TTL_MS = 30 * 60 * 1000;

const PendingSnoozeSchema = z.object({
  kind: z.literal('snooze'),
  workspaceId: z.string().min(1),
  userId: z.string(),
  ctxId: z.string(),
  index: z.number().int().nonnegative(),
  uid: z.string(),
  message: z.object({ channel: z.string(), ts: z.string() }).optional(),
  responseUrl: z.string().url().optional(),
});
type PendingSnooze = z.infer<typeof PendingSnoozeSchema>;

function gone(): ExpiredError {
  return new ExpiredError('This menu no longer points at an event Vigil knows.', 'Run the search again.');
}

/** The menu option: a "checking" modal at once (the trigger id lives 3 s), then the form once allowed. */
export async function openSnooze(click: Click<EventSnoozeDeps>): Promise<void> {
  const opened = await click.client.views.open({
    trigger_id: click.body.trigger_id,
    view: renderSnoozeStatus(':hourglass_flowing_sand: Checking who may snooze events…'),
  });
  const viewId = opened.view?.id;
  const show = (view: View) =>
    viewId ? click.client.views.update({ view_id: viewId, view }).then(() => undefined) : Promise.resolve();
  try {
    await show(await snoozeForm(click));
  } catch (err) {
    if (err instanceof RefusalError) {
      await show(renderSnoozeStatus(`:no_entry: ${err.told} ${err.hint}`));
      return;
    }
    await show(renderSnoozeStatus(':warning: Vigil could not open this form.')).catch(() => undefined);
    throw err;
  }
}

/** The event a row's button points at, once the clicker is known to be allowed to act on it. */
async function clickedEvent(click: Click<EventSnoozeDeps>) {
  const { deps, who } = click;
  const ref = parseRef(click.action.value);
  if (!ref || ref.index === undefined) throw gone();
  await deps.authz.requireActor(click.client, who.workspaceId, who.teamId, who.userId);
  const ctx = await deps.events.contexts.load(ref.ctxId, who.workspaceId);
  const shown = ctx.events[ref.index];
  if (!shown) throw gone();
  return { ref: { ctxId: ref.ctxId, index: ref.index }, ctx, shown };
}

async function snoozeForm(click: Click<EventSnoozeDeps>): Promise<View> {
  const { deps, who } = click;
  const { ref, shown } = await clickedEvent(click);
  const event = shown.event;
  const pending: PendingSnooze = {
    kind: 'snooze',
    workspaceId: who.workspaceId,
    userId: who.userId,
    ctxId: ref.ctxId,
    index: ref.index,
    uid: event.metadata.uid,
    ...rowPlaceOf(click),
  };
  const pendingId = await deps.lists.save(PendingSnoozeSchema, pending, PENDING_TTL_MS);
  return renderSnoozeModal({
    title: plainTitle(event),
    uid: event.metadata.uid,
    identifiers: event.identifiers ?? [],
    source: sourceOf(event.metadata.uid),
    pendingId,
  });
}

type Values = Record<
  string,
  Record<string, { selected_option?: { value?: string } | null; selected_date?: string | null }>
>;

/** What the form asks for (the target as the form's option value), or the errors beside its fields. */
interface SnoozeForm {
  what: string;
  length: SnoozeLength;
}

function readSnoozeForm(view: Pick<ViewOutput, 'state'>): SnoozeForm | { errors: Record<string, string> } {
  const values = view.state.values as Values;
  const what = values[SNOOZE_WHAT_BLOCK]?.value?.selected_option?.value ?? 'event';
  if (!/^(?:event|source|identifier:\d{1,15})$/.test(what))
    return { errors: { [SNOOZE_WHAT_BLOCK]: 'Pick what to snooze from the list.' } };
  const date = values[SNOOZE_UNTIL_BLOCK]?.value?.selected_date ?? '';
  if (date) return { what, length: { kind: 'until', date } };
  const chosen = values[SNOOZE_FOR_BLOCK]?.value?.selected_option?.value ?? '1d';
  const length = SNOOZE_FORM_LENGTHS.find((l) => l.value === chosen);
  if (length === undefined) return { errors: { [SNOOZE_FOR_BLOCK]: 'Pick a length from the list.' } };
  return { what, length: { kind: 'for', hours: length.hours } };
}

/** The target the form's option names, for the event it was opened on. */
function targetFrom(
  what: string,
  ctx: EventsContext,
  index: number,
): { target: SnoozeTarget; label?: string } {
  const event = ctx.events[index]?.event;
  if (event === undefined) throw gone();
  if (what === 'source') {
    const source = sourceOf(event.metadata.uid);
    if (source === undefined) throw gone();
    return { target: { kind: 'source', source } };
  }
  if (what.startsWith('identifier:')) {
    const id = Number(what.slice('identifier:'.length));
    // Only an identifier the form offered: the first few of the event's.
    const offered = (event.identifiers ?? []).slice(0, SNOOZE_SHOWN_IDENTIFIERS);
    const identifier = offered.find((i) => i.id === id);
    if (identifier === undefined)
      throw new VigilError(
        `Identifier ${id} is not one this form offered for this event, so nothing was snoozed.`,
        'Open Snooze… on the event again and pick from the list.',
      );
    return { target: { kind: 'identifier', id }, label: identifier.name };
  }
  return { target: { kind: 'event', uid: event.metadata.uid }, label: eventTitle(event) };
}

async function redraw(
  deps: EventSnoozeDeps,
  ctx: EventsContext,
  workspaceId: string,
  target: MessageTarget | undefined,
  redrawn: ReadonlySet<string>,
) {
  // A followed alert or digest was redrawn already, from its own record.
  if (target === undefined || (target.kind === 'channel' && redrawn.has(`${target.channel}:${target.ts}`)))
    return;
  const next = withSnoozes(ctx, await deps.snoozes.matcher(workspaceId));
  await showContext(deps, next, target).catch((err: unknown) =>
    deps.logger.warn('could not update the event rows after a snooze', { err }),
  );
}

async function submit({
  deps,
  client,
  who,
  form,
  pending,
  show,
}: StatusSubmission<SnoozeForm, PendingSnooze, EventSnoozeDeps>): Promise<void> {
  await deps.authz.requireActor(client, who.workspaceId, who.teamId, who.userId);
  const ctx = await deps.events.contexts.load(pending.ctxId, who.workspaceId);
  if (ctx.events[pending.index]?.event.metadata.uid !== pending.uid) throw gone();
  const { target, label } = targetFrom(form.what, ctx, pending.index);
  const { snooze, replaced, redrawn } = await deps.snoozes.snooze({
    workspaceId: who.workspaceId,
    target,
    length: form.length,
    by: who.userId,
    label,
  });
  await show(snoozedText(snooze, replaced !== undefined));
  const into = targetOf(client, pending, deps.work.outbound.dispatcher);
  await redraw(deps, ctx, who.workspaceId, into, redrawn);
}

/** Unsnooze on a snoozed row: every snooze covering the event ends; the rows are redrawn in place. */
export async function unsnooze(click: Click<EventSnoozeDeps>): Promise<void> {
  const { deps, who } = click;
  const { ctx, shown } = await clickedEvent(click);
  const { ended, redrawn } = await deps.snoozes.endFor(who.workspaceId, shown.event, who.userId);
  await redraw(
    deps,
    ctx,
    who.workspaceId,
    clickTarget(click.body.container, click.respond, click.client, ctx.message),
    redrawn,
  );
  if (ended.length === 0) {
    await click.respond(
      ephemeral({ text: 'This event was no longer snoozed: alerts and digests include it.' }, false),
    );
  } else if (ended.some((s) => s.by !== who.userId)) {
    const by = ended.map((s) => userMention(s.by) ?? 'a teammate').join(', ');
    await click.respond(
      ephemeral(
        { text: `Unsnoozed (snoozed by ${by}): alerts and digests include this event again.` },
        false,
      ),
    );
  }
}

export function registerSnoozeForm(app: App, deps: EventSnoozeDeps): void {
  onStatusForm(app, deps, SNOOZE_VIEW, {
    name: 'snooze',
    read: readSnoozeForm,
    pending: { schema: PendingSnoozeSchema, again: '/vigil events …', ttlMs: PENDING_TTL_MS },
    status: (_, text) => renderSnoozeStatus(text),
    progress: ':hourglass_flowing_sand: Snoozing…',
    undone: 'nothing was snoozed',
    // A refusal or a bad day is an answer, not an incident.
    told: (err) => `:no_entry: ${err.told} ${err.hint}`,
    submit,
  });
}
