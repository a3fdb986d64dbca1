/** `/vigil policies [size:] [order:]` and `/vigil assignments <policy-uuid> [size:] [order:]`. */

import type { CommandHandler } from '../../slack/context.js';
import { ephemeral } from '../../slack/context.js';
import { renderAssignments, renderPolicies } from './blocks.js';
import type { PoliciesDeps } from './deps.js';
import type { assignmentsPage } from './service.js';

export const policiesCommand: CommandHandler<'policies', PoliciesDeps> = {
  progress: () => 'Listing matching policies…',
  async run(ctx) {
    const page = await ctx.deps.policies.page({
      workspaceId: ctx.workspaceId,
      userId: ctx.userId,
      order: ctx.command.order,
      size: ctx.command.size,
    });
    await ctx.respond(ephemeral(renderPolicies(page), true));
  },
};

export const assignmentsCommand: CommandHandler<'assignments', PoliciesDeps> = {
  progress: () => 'Listing the policy’s assignments…',
  async run(ctx) {
    const { ctxId, ctx: page } = await ctx.deps.policies.assignments({
      workspaceId: ctx.workspaceId,
      userId: ctx.userId,
      policyUuid: ctx.command.policyUuid,
      order: ctx.command.order,
      size: ctx.command.size,
    });
    await ctx.respond(ephemeral(renderAssignmentsPage(ctxId, page), true));
  },
};

export function renderAssignmentsPage(
  ctxId: string,
  page: Awaited<ReturnType<typeof assignmentsPage>>['ctx'],
  notice?: string,
) {
  return renderAssignments({
    policyUuid: page.policyUuid,
    rows: page.rows,
    first: page.first,
    ctxId,
    nextRef: page.next === undefined ? undefined : ctxId,
    ...(notice ? { notice } : {}),
  });
}
