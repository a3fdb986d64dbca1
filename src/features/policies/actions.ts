/**
 * The buttons of policy and assignment lists: Assignments (per policy), Next page (both lists) and Unassign,
 * which opens a modal with the trigger id at once and shows its form there only to someone allowed.
 */
import type { App } from '@slack/bolt';
import type { View } from '@slack/types';
import { z } from 'zod';
import { parseRowRef } from '../../domain/list-context.js';
import { ExpiredError, RefusalError, VigilError } from '../../kernel/errors.js';
import { ephemeral } from '../../slack/context.js';
import { type Click, onAction } from '../../slack/listen.js';
import { POLICY_ACTIONS, renderPolicies, renderUnassignModal, renderUnassignStatus } from './blocks.js';
import { renderAssignmentsPage } from './commands.js';
import type { PoliciesDeps } from './deps.js';
import { requireUnassign } from './permission.js';

/** A response_url works for 30 minutes: the pending form lives no longer. */
const PENDING_TTL_MS = 30 * 60 * 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the Unassign form needs on submission: the list it came from, the row, where to update the list. */
export const PendingUnassignSchema = z.object({
  kind: z.literal('unassign'),
  workspaceId: z.string().min(1),
  userId: z.string(),
  ctxId: z.string(),
  index: z.number().int().nonnegative(),
  /** The list message's response_url (Slack's, from the verified click), to update the list in place. */
  responseUrl: z.string().url().optional(),
});

export function registerPolicyActions(app: App, deps: PoliciesDeps): void {
  onAction(
    app,
    deps,
    { action_id: new RegExp(`^${POLICY_ACTIONS.assignments}:\\d{1,3}$`) },
    async ({ who, action, respond }) => {
      const uuid = action.value ?? '';
      if (!UUID.test(uuid))
        throw new VigilError('This button does not name a policy.', 'Run `/vigil policies` again.');
      const { ctxId, ctx } = await deps.policies.assignments({
        workspaceId: who.workspaceId,
        userId: who.userId,
        policyUuid: uuid.toLowerCase(),
      });
      await respond(ephemeral(renderAssignmentsPage(ctxId, ctx), false));
    },
  );

  onAction(app, deps, POLICY_ACTIONS.policiesNext, async ({ who, action, respond }) => {
    const page = await deps.policies.page({
      workspaceId: who.workspaceId,
      userId: who.userId,
      ref: action.value ?? '',
    });
    await respond(ephemeral(renderPolicies(page), true));
  });

  onAction(app, deps, POLICY_ACTIONS.assignmentsNext, async ({ who, action, respond }) => {
    const ctx = await deps.policies.loadAssignments(action.value ?? '', who.workspaceId);
    if (ctx.next === undefined) {
      await respond(ephemeral({ text: 'This is the last page of these assignments.' }, false));
      return;
    }
    const { ctxId, ctx: next } = await deps.policies.nextAssignments(ctx, who.userId);
    await respond(ephemeral(renderAssignmentsPage(ctxId, next), true));
  });

  onAction(app, deps, { action_id: new RegExp(`^${POLICY_ACTIONS.unassign}:\\d{1,3}$`) }, (args) =>
    openUnassignForm(deps, args),
  );
}

/** Unassign: a modal at once, its form shown only to someone allowed, for the row the button points at. */
async function openUnassignForm(
  deps: PoliciesDeps,
  { who, body, action, client }: Click<PoliciesDeps>,
): Promise<void> {
  // The trigger id lives 3 s: a modal opens at once saying what happens; the form itself is shown in it
  // only once the clicker is known to be allowed, so nobody fills in (or submits) a form for nothing.
  const opened = await client.views.open({
    trigger_id: body.trigger_id,
    view: renderUnassignStatus(undefined, ':hourglass_flowing_sand: Checking who may unassign…'),
  });
  const viewId = opened.view?.id;
  const show = (view: View) =>
    viewId ? client.views.update({ view_id: viewId, view }).then(() => undefined) : Promise.resolve();
  try {
    await requireUnassign(deps, client, who);
    const ref = parseRowRef(action.value);
    const ctx = ref ? await deps.policies.loadAssignments(ref.ctxId, who.workspaceId) : undefined;
    const row = ref && ctx ? ctx.rows[ref.index] : undefined;
    if (!ref || !ctx || !row) {
      throw new ExpiredError(
        'This button no longer points at an assignment Vigil knows.',
        'Run `/vigil assignments <policy-id>` again.',
      );
    }
    // Kept only as long as Slack honours the response_url it holds (30 minutes).
    const pendingId = await deps.lists.save(
      PendingUnassignSchema,
      {
        kind: 'unassign',
        workspaceId: who.workspaceId,
        userId: who.userId,
        ctxId: ref.ctxId,
        index: ref.index,
        ...(body.response_url ? { responseUrl: body.response_url } : {}),
      },
      PENDING_TTL_MS,
    );
    const target = {
      policyUuid: ctx.policyUuid,
      identifierId: row.identifier_id,
      identifierName: row.identifier_name,
    };
    await show(renderUnassignModal(target, pendingId));
  } catch (err) {
    if (err instanceof RefusalError) {
      await show(renderUnassignStatus(undefined, `:no_entry: ${err.told} ${err.hint}`));
      return;
    }
    await show(renderUnassignStatus(undefined, ':warning: Vigil could not open this form.')).catch(
      () => undefined,
    );
    throw err;
  }
}
