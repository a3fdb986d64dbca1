/** A credentials page as the requester sees it: the rows with what was done to them through Vigil. */
import { contextRef } from '../../../services/contexts.js';
import type { CredsContext } from '../../../services/credentials/index.js';
import { renderCredsPage } from '../../blocks/credentials.js';
import type { RenderedMessage } from '../../blocks/kit.js';
import type { SlackDeps } from '../../context.js';

export async function credsPage(
  deps: Pick<SlackDeps, 'credentials'>,
  ctx: CredsContext,
  ctxId: string,
  opts: { inChannel?: boolean; sharedBy?: string } = {},
): Promise<RenderedMessage> {
  const states = await deps.credentials.actions.statesOf(ctx.workspaceId, ctx.rows);
  return renderCredsPage(ctx, { ...opts, states, ref: (i) => contextRef(ctxId, i) });
}
