/**
 * Triage from an event's menu: Tags…, Note…, Severity… (or all three) open a form at once, after checking
 * the `act` permission; the submission is checked again, applied once however many people submit (the
 * service), audited, and the event's row is updated in place where the menu was used (a channel message by
 * chat.update, an ephemeral one through its response_url, kept server-side for 30 minutes).
 */

import type { App, RespondFn, ViewOutput } from '@slack/bolt';
import type { View } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { Dispatcher } from 'undici';
import { z } from 'zod';
import { SEVERITIES, ValidationError } from '../../api/index.js';
import { ExpiredError, RefusalError } from '../../kernel/errors.js';
import type { SlackBase } from '../../slack/context.js';
import { describeSecret, detectSecret, type SecretKind } from '../../slack/grammar/index.js';
import { slackDate } from '../../slack/kit/dates.js';
import { escapeMrkdwn, userMention } from '../../slack/kit/text.js';
import { type Click, onStatusForm, type StatusSubmission } from '../../slack/listen.js';
import { type MessageTarget, postToResponseUrl } from '../../slack/respond.js';
import type { ListContexts } from '../list-context.js';
import { inTenant } from '../workspace-api.js';
import { type EventsContextStore, parseRef } from './context.js';
import type { KnownTags } from './known-tags.js';
import { showContext } from './message.js';
import {
  applyTriage,
  effectiveSeverity,
  eventTitle,
  isSeverity,
  originalSeverity,
  severityOverride,
} from './model.js';
import { ACTION_IDS, parseActionId, plainTitle } from './page.js';
import { readTags } from './tags.js';
import {
  changedFields,
  type TriageChange,
  type TriageField,
  type TriageOutcome,
  type TriageService,
} from './triage.js';
import {
  MAX_NOTE,
  NO_OVERRIDE,
  renderTriageModal,
  renderTriageStatus,
  TRIAGE_NOTE_BLOCK,
  TRIAGE_SEVERITY_BLOCK,
  TRIAGE_TAG_FIELDS,
  TRIAGE_VIEW,
} from './triage-blocks.js';

/** A response_url works for 30 minutes: the pending form lives no longer. */
const PENDING_TTL_MS = 30 * 60 * 1000;

const FIELDS_OF: Readonly<Record<string, TriageField[]>> = {
  [ACTION_IDS.tags]: ['tags'],
  [ACTION_IDS.note]: ['notes'],
  [ACTION_IDS.severity]: ['severity'],
  [ACTION_IDS.triage]: ['tags', 'notes', 'severity'],
};

const FieldSchema = z.enum(['tags', 'notes', 'severity']);
const PendingTriageSchema = z.object({
  kind: z.literal('triage'),
  workspaceId: z.string().min(1),
  userId: z.string(),
  ctxId: z.string(),
  index: z.number().int().nonnegative(),
  uid: z.string(),
  fields: z.array(FieldSchema).min(1),
  versions: z.record(z.string(), z.number().int().nonnegative()),
  /** What the form showed, to tell which fields the person changed. */
  shown: z.object({
    tags: z.array(z.string()),
    notes: z.string().nullable(),
    severity: z.enum(SEVERITIES).nullable(),
  }),
  /** Where the row lives: a channel message, or an ephemeral one and its response_url (Slack's). */
  message: z.object({ channel: z.string(), ts: z.string() }).optional(),
  responseUrl: z.string().url().optional(),
});
type PendingTriage = z.infer<typeof PendingTriageSchema>;

/** What the triage form uses: the event rows' contexts, the triage itself, the tenant's known tags, pending forms. */
export interface TriageFormDeps extends SlackBase {
  events: { contexts: Pick<EventsContextStore, 'load' | 'save'> };
  triage: Pick<TriageService, 'versions' | 'apply'>;
  /** The workspace's tenant, and the tags used before in it (offered in the form). */
  tenant: { tenantOf(workspaceId: string): Promise<number | undefined>; knownTags: KnownTags['list'] };
  /** Short-lived contexts behind pending forms. */
  lists: ListContexts;
}

/**
 * A menu option. The trigger id lives 3 s, so the modal opens at once with a "checking" status; the form is
 * shown in it only once the clicker is known to be allowed (the permission may need Slack's users.info), so
 * nobody fills in a form for nothing. A refusal, or a list that expired, is said in the modal.
 */
export async function openTriage(click: Click<TriageFormDeps>): Promise<void> {
  const opened = await click.client.views.open({
    trigger_id: click.body.trigger_id,
    view: renderTriageStatus('', ':hourglass_flowing_sand: Checking who may triage events…'),
  });
  const viewId = opened.view?.id;
  const show = (view: View) =>
    viewId ? click.client.views.update({ view_id: viewId, view }).then(() => undefined) : Promise.resolve();
  try {
    await show(await triageForm(click));
  } catch (err) {
    if (err instanceof RefusalError) {
      await show(renderTriageStatus('', `:no_entry: ${err.told} ${err.hint}`));
      return;
    }
    await show(renderTriageStatus('', ':warning: Vigil could not open this form.')).catch(() => undefined);
    throw err;
  }
}

/** The form for a menu option, after the permission check; what it will change is kept server-side. */
async function triageForm(click: Click<TriageFormDeps>): Promise<View> {
  const { deps, who } = click;
  const fields = FIELDS_OF[parseActionId(click.action.action_id).base];
  const ref = parseRef(click.action.value);
  if (!fields || !ref || ref.index === undefined) {
    throw new ExpiredError('This menu no longer points at an event Vigil knows.', 'Run the search again.');
  }
  await deps.authz.requireActor(click.client, who.workspaceId, who.teamId, who.userId);
  const ctx = await deps.events.contexts.load(ref.ctxId, who.workspaceId);
  const shown = ctx.events[ref.index];
  if (!shown) throw new ExpiredError('This event is no longer in these results.', 'Run the search again.');
  const event = shown.event;
  const uid = event.metadata.uid;
  const [versions, known] = await Promise.all([
    deps.triage.versions(who.workspaceId, uid),
    deps.tenant.tenantOf(who.workspaceId).then((t) => deps.tenant.knownTags(who.workspaceId, t)),
  ]);
  const current = {
    tags: [...(event.tenant_metadata?.tags ?? [])],
    notes: event.tenant_metadata?.notes ?? null,
    severity: severityOverride(event),
  };
  const pendingId = await deps.lists.save(
    PendingTriageSchema,
    {
      kind: 'triage',
      workspaceId: who.workspaceId,
      userId: who.userId,
      ctxId: ref.ctxId,
      index: ref.index,
      uid,
      fields,
      versions,
      shown: current,
      ...rowPlaceOf(click),
    },
    PENDING_TTL_MS,
  );
  return renderTriageModal({
    fields,
    title: plainTitle(event),
    uid,
    current: {
      tags: current.tags,
      notes: current.notes,
      original: originalSeverity(event),
      override: current.severity,
    },
    knownTags: known,
    pendingId,
  });
}

type Values = Record<string, Record<string, unknown>>;

/** Said beside a field holding what looks like a secret: the field, never the value; nothing is sent. */
function secretFieldError(field: string, kind: SecretKind): string {
  return `${field} looks like ${describeSecret(kind)}: Vigil does not store or send it. Remove it.`;
}

/** The change the form asks for, or the errors to show beside its fields. */
function readTriageForm(
  view: Pick<ViewOutput, 'state' | 'blocks'>,
): { change: TriageChange } | { errors: Record<string, string> } {
  const values = view.state.values as Values;
  const has = (blockId: string) => view.blocks.some((b) => (b as { block_id?: string }).block_id === blockId);
  const change: TriageChange = {};
  if (has(TRIAGE_TAG_FIELDS.known) || has(TRIAGE_TAG_FIELDS.added)) {
    const read = readTags(values, TRIAGE_TAG_FIELDS);
    if (read.error) return { errors: { [TRIAGE_TAG_FIELDS.added]: read.error } };
    const secret = read.tags.map((t) => detectSecret(t)).find((k) => k !== undefined);
    if (secret) return { errors: { [TRIAGE_TAG_FIELDS.added]: secretFieldError('A tag', secret) } };
    change.tags = read.tags;
  }
  if (has(TRIAGE_NOTE_BLOCK)) {
    const note = (values[TRIAGE_NOTE_BLOCK]?.value as { value?: string | null } | undefined)?.value ?? '';
    if (note.length > MAX_NOTE)
      return { errors: { [TRIAGE_NOTE_BLOCK]: `A note holds at most ${MAX_NOTE} characters.` } };
    const secret = detectSecret(note);
    if (secret) return { errors: { [TRIAGE_NOTE_BLOCK]: secretFieldError('The note', secret) } };
    change.notes = note.trim() === '' ? null : note.trim();
  }
  if (has(TRIAGE_SEVERITY_BLOCK)) {
    const chosen = (
      values[TRIAGE_SEVERITY_BLOCK]?.value as { selected_option?: { value?: string } } | undefined
    )?.selected_option?.value;
    if (chosen === NO_OVERRIDE || chosen === undefined) change.severity = null;
    else if (isSeverity(chosen)) change.severity = chosen;
    else return { errors: { [TRIAGE_SEVERITY_BLOCK]: 'Pick a severity from the list.' } };
  }
  return { change };
}

const FIELD_WORDS: Readonly<Record<TriageField, string>> = {
  tags: 'the tags',
  notes: 'the note',
  severity: 'the severity',
};

function appliedWords(field: TriageField, change: TriageChange): string {
  if (field === 'tags')
    return change.tags?.length
      ? `tags set to ${change.tags.map((t) => `“${escapeMrkdwn(t)}”`).join(', ')}`
      : 'tags removed';
  if (field === 'notes') return change.notes ? 'note saved' : 'note removed';
  return change.severity
    ? `severity set to *${change.severity}* for your tenant`
    : 'severity override removed';
}

function outcomeText(outcome: TriageOutcome, change: TriageChange): string {
  const lines: string[] = [];
  if (outcome.applied.length > 0) {
    const words = outcome.applied.map((a) => appliedWords(a.field, change));
    lines.push(`:white_check_mark: ${words.join('; ')}. The row shows it.`);
  }
  for (const s of outcome.stale) {
    const who = s.by ? (userMention(s.by) ?? 'A teammate') : 'Someone';
    const when = s.at === undefined ? '' : ` ${slackDate(s.at)}`;
    lines.push(
      `${who} changed ${FIELD_WORDS[s.field]} of this event${when}, after you opened this form, so Vigil did not apply yours. Search again to see theirs, then change it if you still need to.`,
    );
  }
  if (outcome.busy.length > 0) {
    lines.push(
      `A teammate is changing ${outcome.busy.map((f) => FIELD_WORDS[f]).join(' and ')} of this event right now; Vigil did not apply yours. Look again in a moment.`,
    );
  }
  return lines.join('\n');
}

/** Where a clicked row lives, kept with a pending form (triage, snooze): its channel message, else its response_url. */
export function rowPlaceOf(click: Click): Pick<PendingTriage, 'message' | 'responseUrl'> {
  const container = click.body.container as {
    is_ephemeral?: boolean;
    channel_id?: string;
    message_ts?: string;
  };
  const inChannel = container?.is_ephemeral !== true && container?.channel_id && container.message_ts;
  if (inChannel)
    return { message: { channel: container.channel_id as string, ts: container.message_ts as string } };
  return click.body.response_url ? { responseUrl: click.body.response_url } : {};
}

/** Where the row lives, from a pending form (triage, snooze). */
export function targetOf(
  client: WebClient,
  pending: Pick<PendingTriage, 'message' | 'responseUrl'>,
  dispatcher: Dispatcher,
): MessageTarget | undefined {
  if (pending.message)
    return { kind: 'channel', channel: pending.message.channel, ts: pending.message.ts, client };
  const url = pending.responseUrl;
  if (!url) return undefined;
  const respond = ((message: unknown) => postToResponseUrl(url, message, dispatcher)) as unknown as RespondFn;
  return { kind: 'ephemeral', respond };
}

async function submit({
  deps,
  client,
  who,
  form: { change },
  pending,
  show,
  headed,
}: StatusSubmission<{ change: TriageChange }, PendingTriage, TriageFormDeps>): Promise<void> {
  await deps.authz.requireActor(client, who.workspaceId, who.teamId, who.userId);
  const ctx = await deps.events.contexts.load(pending.ctxId, who.workspaceId);
  const shown = ctx.events[pending.index];
  if (!shown || shown.event.metadata.uid !== pending.uid)
    throw new ExpiredError('This event is no longer in these results.', 'Run the search again.');
  headed(plainTitle(shown.event));
  const fields = changedFields(change, pending.shown).filter((f) => pending.fields.includes(f));
  if (fields.length === 0) {
    await show('Nothing changed, so Vigil did nothing.');
    return;
  }
  // In the tenant of the message's events (a subscription's), not the workspace's of now.
  const outcome = await inTenant(ctx.tenantId, async () =>
    deps.triage.apply({
      workspaceId: who.workspaceId,
      uid: pending.uid,
      by: who.userId,
      versions: pending.versions,
      change,
      fields,
      title: eventTitle(shown.event),
      severityBefore: effectiveSeverity(shown.event),
      tenantId: await deps.tenant.tenantOf(who.workspaceId),
    }),
  );
  await show(outcomeText(outcome, change));
  const target = targetOf(client, pending, deps.work.outbound.dispatcher);
  if (outcome.applied.length > 0 && target) {
    const next = {
      ...ctx,
      events: ctx.events.map((e, i) =>
        i === pending.index
          ? {
              ...e,
              event: applyTriage(e.event, outcome.metadata),
              triaged: { by: who.userId, at: outcome.at, fields: outcome.applied.map((a) => a.field) },
            }
          : e,
      ),
    };
    await showContext(deps, next, target).catch((err: unknown) =>
      deps.logger.warn('could not update the event row after triage', { err }),
    );
  }
}

export function registerTriageForm(app: App, deps: TriageFormDeps): void {
  onStatusForm(app, deps, TRIAGE_VIEW, {
    name: 'triage',
    read: readTriageForm,
    pending: { schema: PendingTriageSchema, again: '/vigil events …', ttlMs: PENDING_TTL_MS },
    status: (title, text) => renderTriageStatus(title ?? '', text),
    progress: ':hourglass_flowing_sand: Saving…',
    undone: 'nothing was changed',
    told: (err) => {
      if (!(err instanceof ValidationError)) return undefined;
      deps.logger.warn('triage refused by the API', { err });
      return `:warning: ${escapeMrkdwn(err.told)}`;
    },
    submit,
  });
}
