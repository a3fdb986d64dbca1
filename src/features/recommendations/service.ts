/**
 * Identifier recommendations as the listeners see them: the pages shown (list.ts) and the decisions made
 * through Vigil (decisions.ts), over one set of dependencies.
 */
import type { ListDeps } from '../../domain/list-context.js';
import {
  type DecisionDeps,
  type DecisionTarget,
  decideRecommendations,
  decisionsOf,
  identifiersOfAccepted,
} from './decisions.js';
import {
  loadShownRecommendations,
  recommendationsPage,
  type ShownRecommendations,
  saveShownRecommendations,
} from './list.js';

/** What a decision did, as the listeners tell it. */
export type { DecideOutcome } from './decisions.js';

/** Identifier recommendations: pages, what was decided through Vigil, and deciding (act-once, audited). */
export class RecommendationsService {
  constructor(private readonly deps: DecisionDeps & ListDeps) {}

  page(req: Parameters<typeof recommendationsPage>[1]) {
    return recommendationsPage(this.deps, req);
  }

  loadShown(ref: string, workspaceId: string) {
    return loadShownRecommendations(this.deps, ref, workspaceId);
  }

  saveShown(shown: ShownRecommendations) {
    return saveShownRecommendations(this.deps, shown);
  }

  decisionsOf(workspaceId: string, ids: readonly number[]) {
    return decisionsOf(this.deps, workspaceId, ids);
  }

  decide(req: Parameters<typeof decideRecommendations>[1]) {
    return decideRecommendations(this.deps, req);
  }

  identifiersOfAccepted(
    workspaceId: string,
    accepted: readonly DecisionTarget[],
    opts: { fresh?: boolean } = {},
  ) {
    return identifiersOfAccepted(this.deps, workspaceId, accepted, opts);
  }
}
