/**
 * The Unassign form's submission: acked at once with a "working" view, then the service unassigns once
 * (however many people submit), the form shows the outcome, and the list message is read again and updated
 * in place through its response_url.
 */
import type { App, ViewOutput } from '@slack/bolt';
import type { z } from 'zod';
import { ValidationError } from '../../api/index.js';
import { ExpiredError } from '../../kernel/errors.js';
import { ephemeral } from '../../slack/context.js';
import { slackDate } from '../../slack/kit/dates.js';
import { userMention } from '../../slack/kit/text.js';
import { onStatusForm, type StatusSubmission } from '../../slack/listen.js';
import { postToResponseUrl } from '../../slack/respond.js';
import { PendingUnassignSchema } from './actions.js';
import {
  fieldProblemsText,
  identifierLabel,
  renderUnassignStatus,
  UNASSIGN_CLEAN,
  UNASSIGN_VIEW,
  unassignHeadline,
} from './blocks.js';
import { renderAssignmentsPage } from './commands.js';
import type { PoliciesDeps } from './deps.js';
import { requireUnassign } from './permission.js';
import type { UnassignOutcome } from './unassign.js';

/**
 * Whether "Also clean past events" was ticked; undefined when the submission holds a value the form did not
 * offer (its one checkbox, at most once), which is refused before any call.
 */
function cleanChosen(view: ViewOutput): boolean | undefined {
  const state = view.state.values[UNASSIGN_CLEAN.block]?.[UNASSIGN_CLEAN.action] as
    | { selected_options?: unknown }
    | undefined;
  const picked = state?.selected_options ?? [];
  if (!Array.isArray(picked) || picked.length > 1) return undefined;
  const values = picked.map((o) => (o as { value?: unknown } | null)?.value);
  if (values.some((v) => v !== UNASSIGN_CLEAN.value)) return undefined;
  return values.length === 1;
}

function who(userId: string): string {
  return userMention(userId) ?? 'A teammate';
}

function outcomeText(outcome: UnassignOutcome, name: string): string {
  switch (outcome.kind) {
    case 'done':
      return `:white_check_mark: Unassigned from ${name}${outcome.cleanPastEvents ? ', past events cleaned too' : ''}. The list is updated.`;
    case 'done-before':
      return `${who(outcome.by)} already unassigned it ${slackDate(outcome.at)}, so Vigil did nothing more.`;
    case 'in-progress':
      return 'A teammate is unassigning it right now; Vigil did nothing more.';
  }
}

type PendingUnassign = z.output<typeof PendingUnassignSchema>;

async function submit({
  deps,
  client,
  who: requester,
  form: { clean },
  pending,
  show,
  headed,
}: StatusSubmission<{ clean: boolean }, PendingUnassign, PoliciesDeps>): Promise<void> {
  const ctx = await deps.policies.loadAssignments(pending.ctxId, requester.workspaceId);
  const row = ctx.rows[pending.index];
  if (!row)
    throw new ExpiredError(
      'This assignment is no longer listed.',
      'Run `/vigil assignments <policy-id>` again.',
    );
  // The question is said again from what Vigil stored, never from the submitted view's text.
  headed(
    unassignHeadline({
      policyUuid: ctx.policyUuid,
      identifierId: row.identifier_id,
      identifierName: row.identifier_name,
    }),
  );
  await requireUnassign(deps, client, requester);
  const outcome = await deps.policies.unassign({
    workspaceId: requester.workspaceId,
    userId: requester.userId,
    policyUuid: ctx.policyUuid,
    identifierId: row.identifier_id,
    identifierName: row.identifier_name,
    cleanPastEvents: clean,
  });
  const name = identifierLabel({ identifierId: row.identifier_id, identifierName: row.identifier_name });
  await show(outcomeText(outcome, name));
  if (outcome.kind === 'done' && pending.responseUrl) {
    const { ctxId, ctx: fresh } = await deps.policies.reloadAssignments(ctx);
    const notice = `:white_check_mark: ${who(requester.userId)} unassigned ${name} · ${slackDate(outcome.at)}`;
    await postToResponseUrl(
      pending.responseUrl,
      ephemeral(renderAssignmentsPage(ctxId, fresh, notice), true),
      deps.work.outbound.dispatcher,
    ).catch((err: unknown) => deps.logger.warn('could not update the assignments list', { err }));
  }
}

export function registerUnassignForm(app: App, deps: PoliciesDeps): void {
  onStatusForm(app, deps, UNASSIGN_VIEW, {
    name: 'unassign',
    read: (view) => {
      const clean = cleanChosen(view);
      if (clean === undefined)
        return { errors: { [UNASSIGN_CLEAN.block]: 'Choose only the option this form offers.' } };
      return { clean };
    },
    pending: { schema: PendingUnassignSchema, again: '/vigil assignments <policy-id>' },
    status: renderUnassignStatus,
    progress: ':hourglass_flowing_sand: Unassigning…',
    undone: 'nothing was changed',
    told: (err) => {
      if (!(err instanceof ValidationError)) return undefined;
      deps.logger.warn('unassign refused by the API', { err });
      return `:warning: The threat-intel API refused the change:\n${fieldProblemsText(err.fields)}`;
    },
    submit,
  });
}
