/** The Tenant menu of every Vigil step (dynamic options): the tenants of the workspace's organization. */
import { plainText } from '../../slack/kit/text.js';
import type { TenantStepDeps } from './deps.js';
import type { StepResult, StepRun } from './run.js';

/** Slack's select menus take at most 100 options. */
const MAX_OPTIONS = 100;

export async function tenantOptions(run: StepRun<TenantStepDeps>): Promise<StepResult> {
  const page = await run.deps.tenants.page({ workspaceId: run.workspaceId, userId: 'workflow' });
  const options = page.tenants.flatMap((t) =>
    t.id === undefined
      ? []
      : [
          {
            text: { type: 'plain_text', text: plainText(`${t.name} (${t.id})`, 75) },
            value: String(t.id),
          },
        ],
  );
  return { outputs: { options: options.slice(0, MAX_OPTIONS) } };
}
