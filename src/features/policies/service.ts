/**
 * Matching policies and their assignments, page by page, with the context each page's buttons need: the
 * next cursor, and for assignments the rows shown, so Unassign knows the identifier without another call.
 */
import { z } from 'zod';
import type { MatchingPolicy, Order, PolicyAssignment } from '../../api/index.js';
import { PolicyAssignmentSchema } from '../../api/index.js';
import { firstNonEmpty, type ListDeps, listContexts } from '../../domain/list-context.js';
import type { Logger } from '../../kernel/logger.js';
import {
  settleInterruptedUnassigns,
  type UnassignDeps,
  type UnassignRequest,
  unassignOnce,
} from './unassign.js';

export type { ListDeps } from '../../domain/list-context.js';

const OrderSchema = z.enum(['asc', 'desc']).optional();

const PoliciesContextSchema = z.object({
  kind: z.literal('policies'),
  workspaceId: z.string().min(1),
  userId: z.string(),
  order: OrderSchema,
  size: z.number().int().min(1).max(25).optional(),
  /** The `from` of the page this context leads to. */
  cursor: z.string(),
  /** 1-based position of that page's first row. */
  first: z.number().int().positive(),
});

const AssignmentsContextSchema = z.object({
  kind: z.literal('assignments'),
  workspaceId: z.string().min(1),
  userId: z.string(),
  policyUuid: z.string(),
  order: OrderSchema,
  size: z.number().int().min(1).max(25).optional(),
  /** The `from` that produced this page (absent for the first), to show it again after a change. */
  from: z.string().optional(),
  first: z.number().int().positive(),
  rows: z.array(PolicyAssignmentSchema).max(25),
  /** The `from` of the next page; absent on the last. */
  next: z.string().optional(),
});
export type AssignmentsContext = z.infer<typeof AssignmentsContextSchema>;

export interface PoliciesPage {
  policies: MatchingPolicy[];
  first: number;
  nextRef: string | undefined;
}

export async function policiesPage(
  deps: ListDeps,
  req: {
    workspaceId: string;
    userId: string;
    order?: Order | undefined;
    size?: number | undefined;
    ref?: string;
  },
): Promise<PoliciesPage> {
  const contexts = listContexts(deps.repos);
  let { order, size } = req;
  let from: string | undefined;
  let first = 1;
  if (req.ref !== undefined) {
    const ctx = await contexts.load(PoliciesContextSchema, req.ref, req.workspaceId, '/vigil policies');
    ({ order, size, first } = ctx);
    from = ctx.cursor;
  }
  const page = await deps.api.call(req.workspaceId, ({ session }) =>
    firstNonEmpty(
      (at) =>
        session.listMatchingPolicies({
          ...(at !== undefined ? { from: at } : {}),
          ...(size !== undefined ? { size } : {}),
          ...(order !== undefined ? { order } : {}),
        }),
      from,
    ),
  );
  const nextRef =
    page.next === undefined
      ? undefined
      : await contexts.save(PoliciesContextSchema, {
          kind: 'policies',
          workspaceId: req.workspaceId,
          userId: req.userId,
          order,
          size,
          cursor: page.next,
          first: first + page.items.length,
        });
  return { policies: page.items, first, nextRef };
}

export interface AssignmentsPage {
  ctxId: string;
  ctx: AssignmentsContext;
}

/** A page of assignments, from its start (`from`) or from the next cursor of `ref`'s page. */
export async function assignmentsPage(
  deps: ListDeps,
  req: {
    workspaceId: string;
    userId: string;
    policyUuid: string;
    order?: Order | undefined;
    size?: number | undefined;
    from?: string | undefined;
    first?: number;
  },
): Promise<AssignmentsPage> {
  const page = await deps.api.call(req.workspaceId, ({ session }) =>
    firstNonEmpty(
      (at) =>
        session.listPolicyAssignments(req.policyUuid, {
          ...(at !== undefined ? { from: at } : {}),
          ...(req.size !== undefined ? { size: req.size } : {}),
          ...(req.order !== undefined ? { order: req.order } : {}),
        }),
      req.from,
    ),
  );
  const ctx: AssignmentsContext = {
    kind: 'assignments',
    workspaceId: req.workspaceId,
    userId: req.userId,
    policyUuid: req.policyUuid,
    order: req.order,
    size: req.size,
    first: req.first ?? 1,
    rows: page.items.slice(0, 25) as PolicyAssignment[],
    ...(page.from !== undefined ? { from: page.from } : {}),
    ...(page.next !== undefined ? { next: page.next } : {}),
  };
  const ctxId = await listContexts(deps.repos).save(AssignmentsContextSchema, ctx);
  return { ctxId, ctx };
}

function loadAssignments(deps: ListDeps, ref: string, workspaceId: string): Promise<AssignmentsContext> {
  return listContexts(deps.repos).load(
    AssignmentsContextSchema,
    ref,
    workspaceId,
    '/vigil assignments <policy-id>',
  );
}

/** The page after the one `ctx` shows. */
function nextAssignments(deps: ListDeps, ctx: AssignmentsContext, userId: string): Promise<AssignmentsPage> {
  return assignmentsPage(deps, {
    workspaceId: ctx.workspaceId,
    userId,
    policyUuid: ctx.policyUuid,
    order: ctx.order,
    size: ctx.size,
    from: ctx.next,
    first: ctx.first + ctx.rows.length,
  });
}

/** The page `ctx` shows, read again (after an unassign). */
function reloadAssignments(deps: ListDeps, ctx: AssignmentsContext): Promise<AssignmentsPage> {
  return assignmentsPage(deps, {
    workspaceId: ctx.workspaceId,
    userId: ctx.userId,
    policyUuid: ctx.policyUuid,
    order: ctx.order,
    size: ctx.size,
    from: ctx.from,
    first: ctx.first,
  });
}

/** Matching policies and their assignments, and unassigning an identifier from one (act-once, audited). */
export class PoliciesService {
  constructor(private readonly deps: ListDeps & UnassignDeps & { logger: Logger }) {}

  page(req: Parameters<typeof policiesPage>[1]) {
    return policiesPage(this.deps, req);
  }

  assignments(req: Parameters<typeof assignmentsPage>[1]) {
    return assignmentsPage(this.deps, req);
  }

  loadAssignments(ref: string, workspaceId: string) {
    return loadAssignments(this.deps, ref, workspaceId);
  }

  nextAssignments(ctx: AssignmentsContext, userId: string) {
    return nextAssignments(this.deps, ctx, userId);
  }

  reloadAssignments(ctx: AssignmentsContext) {
    return reloadAssignments(this.deps, ctx);
  }

  unassign(req: UnassignRequest) {
    return unassignOnce(this.deps, req);
  }

  /** Unassigns a crashed predecessor left half-done: looked up, then audited. */
  settleInterrupted() {
    return settleInterruptedUnassigns(this.deps);
  }
}
