/**
 * The buttons of a credentials message: Reveal (per row), Next page, Export CSV, Share in channel. Every
 * click is acked first; who clicked comes from the verified payload, the button value only names a stored
 * context, which must belong to the clicker's workspace. Reveal and Export check the workspace's
 * permissions on every click.
 */
import type { App, BlockAction, ButtonAction, RespondFn } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { ExpiredError, VigilError } from '../../../errors.js';
import type { CredsContext } from '../../../services/credentials/context.js';
import { startExport } from '../../../services/credentials/export.js';
import { nextCredentialsPage, revealCredential } from '../../../services/credentials/search.js';
import { contextRef, parseContextRef } from '../../../services/paging-context.js';
import {
  CREDS_EXPORT,
  CREDS_NEXT_PAGE,
  CREDS_REVEAL,
  CREDS_SHARE,
  renderCredsPage,
  renderExportStarted,
  renderRevealed,
} from '../../blocks/credentials.js';
import { ephemeral, type Requester, type SlackDeps } from '../../context.js';
import { reportError } from '../../error-reply.js';
import { requesterOfAction } from '../../listen.js';
import { exportToDm } from './export-delivery.js';
import { requireCredsPermission } from './permissions.js';
import { credsServicesOf } from './services.js';

interface Click {
  deps: SlackDeps;
  who: Requester;
  body: BlockAction<ButtonAction>;
  action: ButtonAction;
  respond: RespondFn;
  client: WebClient;
}

function gone(): ExpiredError {
  return new ExpiredError(
    'This button no longer points at a search Vigil knows.',
    'Run the search again with `/vigil creds …`.',
  );
}

async function load(click: Click): Promise<{ ctx: CredsContext; ctxId: string; index: number | undefined }> {
  const ref = parseContextRef(click.action.value);
  if (!ref) throw gone();
  const ctx = await credsServicesOf(click.deps).contexts.load(ref.ctxId, click.who.workspaceId);
  return { ctx, ctxId: ref.ctxId, index: ref.index };
}

const tell = (click: Click, text: string) => click.respond(ephemeral({ text }, false));

/** Shows a page in place: the channel copy with chat.update, the private one through the response_url. */
async function showPage(click: Click, ctx: CredsContext, ctxId: string): Promise<void> {
  const container = click.body.container as { is_ephemeral?: boolean };
  if (ctx.message !== undefined && container.is_ephemeral !== true) {
    const page = renderCredsPage(ctx, { inChannel: true, ref: (i) => contextRef(ctxId, i) });
    await click.client.chat.update({ channel: ctx.message.channel, ts: ctx.message.ts, ...page });
    return;
  }
  await click.respond(ephemeral(renderCredsPage(ctx, { ref: (i) => contextRef(ctxId, i) }), true));
}

async function reveal(click: Click): Promise<void> {
  const { deps, who } = click;
  const { ctx, index } = await load(click);
  if (index === undefined || ctx.rows[index] === undefined) throw gone();
  await requireCredsPermission(deps, click.client, who, 'reveal');
  const { row, value } = await revealCredential(credsServicesOf(deps).search, ctx, index, who);
  // Only to the clicker, never replacing the (masked) results.
  await click.respond(ephemeral(renderRevealed(row, value), false));
}

async function nextPage(click: Click): Promise<void> {
  const { ctx } = await load(click);
  if (ctx.cursor === undefined) {
    await tell(click, 'This is the last page of these results.');
    return;
  }
  const next = await nextCredentialsPage(credsServicesOf(click.deps).search, ctx);
  await showPage(click, next.ctx, next.ctxId);
}

async function exportCsv(click: Click): Promise<void> {
  const { deps, who } = click;
  const { ctx } = await load(click);
  if (ctx.search === undefined) {
    throw new VigilError(
      'Vigil does not keep the password a search was made with, so it cannot export it.',
      'Export a search by domain, email, keyword or login domain instead.',
    );
  }
  await requireCredsPermission(deps, click.client, who, 'export');
  const started = await startExport(credsServicesOf(deps).export, {
    workspaceId: who.workspaceId,
    userId: who.userId,
    search: ctx.search,
    limit: ctx.limit,
  });
  await click.respond(ephemeral(renderExportStarted(ctx.limit), false));
  await exportToDm(deps, click.client, who.userId, ctx, started);
}

function slackErrorCode(err: unknown): string | undefined {
  const data = (err as { data?: { error?: unknown } } | undefined)?.data;
  return typeof data?.error === 'string' ? data.error : undefined;
}

async function share(click: Click): Promise<void> {
  const { deps, who } = click;
  const { contexts } = credsServicesOf(deps);
  const { ctx } = await load(click);
  if (ctx.message !== undefined) {
    await tell(click, 'These results are already in the channel.');
    return;
  }
  const channel = who.channelId || ctx.channelId;
  // The channel copy: masked rows only (the context never holds anything else), no Reveal or Export.
  const draftId = await contexts.save(ctx);
  let posted: { ts?: string | undefined; channel?: string | undefined };
  try {
    posted = await click.client.chat.postMessage({
      channel,
      ...renderCredsPage(ctx, { inChannel: true, ref: (i) => contextRef(draftId, i) }),
      unfurl_links: false,
      unfurl_media: false,
    });
  } catch (err) {
    const code = slackErrorCode(err);
    if (code === 'not_in_channel' || code === 'channel_not_found') {
      throw new VigilError(
        'Vigil is not a member of this channel, so it cannot share the results here.',
        'Invite it with `/invite @Vigil`, then click Share in channel again.',
        { cause: err },
      );
    }
    throw err;
  }
  if (posted.ts) {
    const shared: CredsContext = { ...ctx, message: { channel: posted.channel ?? channel, ts: posted.ts } };
    const id = await contexts.save(shared);
    const page = renderCredsPage(shared, { inChannel: true, ref: (i) => contextRef(id, i) });
    await click.client.chat
      .update({ channel: shared.message?.channel ?? channel, ts: posted.ts, ...page })
      .catch((err: unknown) => deps.logger.warn('could not point a shared message at its context', { err }));
  }
  await deps.repos.audit.append({
    teamId: who.workspaceId,
    userId: who.userId,
    action: 'credentials.share',
    target: ctx.search?.query.type ?? 'password',
    detail: `page ${ctx.pageNumber} (masked) in ${channel}`,
  });
  await click.respond({ delete_original: true });
}

// ── Registration ────────────────────────────────────────────────────────────────────────────────────

type Handler = (click: Click) => Promise<void>;

function listen(
  app: App,
  deps: SlackDeps,
  actionId: string,
  blockId: RegExp | string,
  handler: Handler,
): void {
  app.action<BlockAction<ButtonAction>>(
    { action_id: actionId, block_id: blockId },
    async ({ ack, body, action, respond, client }) => {
      await ack();
      const who = requesterOfAction(body);
      deps.tracker.run(
        () => handler({ deps, who, body, action, respond, client }),
        (err) =>
          void reportError(deps, err, respond, { action: actionId, team: who.workspaceId, user: who.userId }),
      );
    },
  );
}

export function registerCredsActions(app: App, deps: SlackDeps): void {
  listen(app, deps, CREDS_REVEAL, /^creds:row:\d{1,2}$/, reveal);
  listen(app, deps, CREDS_NEXT_PAGE, 'creds:tail', nextPage);
  listen(app, deps, CREDS_EXPORT, 'creds:tail', exportCsv);
  listen(app, deps, CREDS_SHARE, 'creds:tail', share);
}
