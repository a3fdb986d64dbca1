/** What forgetting an uninstalled workspace uses. */
import type { SlackBase } from '../../slack/context.js';
import type { ConnectionService } from './service.js';
export interface LifecycleDeps extends SlackBase {
  connection: Pick<ConnectionService, 'forget' | 'forgetOrganization'>;
}
