/**
 * `app_uninstalled` and `tokens_revoked`: forget the workspace — installation, sealed API key, tenant,
 * settings and subscriptions. Idempotent and order-independent (Slack may send both, and retries).
 */
import type { App } from '@slack/bolt';
import type { Feature } from '../../slack/context.js';
import { type EnvelopeIds, workspaceOfEnvelope } from '../../slack/requester.js';
import type { LifecycleDeps } from './lifecycle-deps.js';

async function forget(deps: LifecycleDeps, workspaceId: string, reason: string): Promise<void> {
  const deleted = await deps.connection.forget(workspaceId);
  deps.logger.info('workspace data deleted', { workspaceId, reason, ...deleted });
}

function register(app: App, deps: LifecycleDeps): void {
  // Bolt acks Events API requests at once; a failed deletion is logged by the app error handler, and the
  // same clean-up runs again on the other event (or a retry), since every step is idempotent.
  app.event('app_uninstalled', async ({ body }) => {
    await forget(deps, workspaceOfEnvelope(body as EnvelopeIds), 'app_uninstalled');
  });
  app.event('tokens_revoked', async ({ event, body }) => {
    // Only the bot token matters: Vigil keeps no user tokens it relies on.
    if ((event.tokens.bot ?? []).length === 0) return;
    await forget(deps, workspaceOfEnvelope(body as EnvelopeIds), 'tokens_revoked');
  });
}

export const lifecycleFeature: Feature<LifecycleDeps> = { commands: {}, register };
