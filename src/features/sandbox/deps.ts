/** What the sandbox command, shortcut and form use: the sandbox service. */
import type { SlackBase } from '../../slack/context.js';
import type { SandboxService } from './service.js';
export interface SandboxDeps extends SlackBase {
  sandbox: SandboxService;
}
