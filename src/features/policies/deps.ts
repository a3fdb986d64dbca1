/** What the policies commands, the unassign form and its buttons use. */

import type { ListContexts } from '../../domain/list-context.js';
import type { SlackBase } from '../../slack/context.js';
import type { PoliciesService } from './service.js';
export interface PoliciesDeps extends SlackBase {
  policies: PoliciesService;
  /** Short-lived contexts behind list buttons and pending forms. */
  lists: ListContexts;
}
