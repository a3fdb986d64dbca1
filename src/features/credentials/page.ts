/** A credentials page as the requester sees it: the rows with what was done to them through Vigil. */
import { contextRef } from '../../domain/contexts.js';
import type { RenderedMessage } from '../../slack/kit/kit.js';
import { renderCredsPage } from './blocks.js';
import type { CredentialsDeps } from './deps.js';
import type { CredsContext } from './service.js';

export async function credsPage(
  deps: Pick<CredentialsDeps, 'credentials' | 'containment'>,
  ctx: CredsContext,
  ctxId: string,
  opts: { inChannel?: boolean; sharedBy?: string } = {},
): Promise<RenderedMessage> {
  const [states, contain] = await Promise.all([
    deps.credentials.actions.statesOf(ctx.workspaceId, ctx.rows),
    deps.containment?.connected(ctx.workspaceId) ?? false,
  ]);
  return renderCredsPage(ctx, { ...opts, states, contain, ref: (i) => contextRef(ctxId, i) });
}
