/**
 * The buttons of a credentials message: Reveal (per row), Next page, Export CSV, Share in channel. Every
 * click is acked first; who clicked comes from the verified payload, the button value only names a stored
 * context, which must belong to the clicker's workspace. Reveal and Export check the workspace's
 * permissions on every click.
 */
import type { App } from '@slack/bolt';
import { parseContextRef } from '../../domain/contexts.js';
import { ExpiredError, VigilError } from '../../kernel/errors.js';
import { ephemeral } from '../../slack/context.js';
import { type Click, onAction } from '../../slack/listen.js';
import { clickTarget, replaceMessage, shareInChannel } from '../../slack/respond.js';
import { actOnCredentials, PAGE_ACTIONS, ROW_ACTIONS } from './act.js';
import {
  CREDS_EXPORT,
  CREDS_EXPORT_CONFIRMED,
  CREDS_NEXT_PAGE,
  CREDS_REVEAL,
  CREDS_SHARE,
  renderExportAsk,
  renderExportStarted,
  renderRevealed,
} from './blocks.js';
import type { CredsContext } from './context.js';
import type { CredentialsDeps } from './deps.js';
import { ExportBusyError, type StartedExport } from './export.js';
import { exportToDm } from './export-delivery.js';
import { credsPage } from './page.js';

function gone(): ExpiredError {
  return new ExpiredError(
    'This button no longer points at a search Vigil knows.',
    'Run the search again with `/vigil creds …`.',
  );
}

async function load(
  click: Click<CredentialsDeps>,
): Promise<{ ctx: CredsContext; ctxId: string; index: number | undefined }> {
  const ref = parseContextRef(click.action.value);
  if (!ref) throw gone();
  const ctx = await click.deps.credentials.contexts.load(ref.ctxId, click.who.workspaceId);
  return { ctx, ctxId: ref.ctxId, index: ref.index };
}

const tell = (click: Click<CredentialsDeps>, text: string) => click.respond(ephemeral({ text }, false));

/** Shows a page in place: the channel copy with chat.update, the private one through the response_url. */
async function showPage(click: Click<CredentialsDeps>, ctx: CredsContext, ctxId: string): Promise<void> {
  const target = clickTarget(click.body.container, click.respond, click.client, ctx.message);
  const inChannel = target.kind === 'channel';
  await replaceMessage(target, await credsPage(click.deps, ctx, ctxId, { inChannel }));
}

const permit = (click: Click<CredentialsDeps>, permission: 'reveal' | 'export') =>
  click.deps.authz.requirePermission(
    click.client,
    click.who.workspaceId,
    click.who.teamId,
    click.who.userId,
    permission,
  );

async function reveal(click: Click<CredentialsDeps>): Promise<void> {
  const { deps, who } = click;
  const { ctx, index } = await load(click);
  if (index === undefined || ctx.rows[index] === undefined) throw gone();
  await permit(click, 'reveal');
  const { row, value } = await deps.credentials.reveal(ctx, index, who);
  // Only to the clicker, never replacing the (masked) results.
  await click.respond(ephemeral(renderRevealed(row, value), false));
}

async function nextPage(click: Click<CredentialsDeps>): Promise<void> {
  const { ctx } = await load(click);
  if (ctx.cursor === undefined) {
    await tell(click, 'This is the last page of these results.');
    return;
  }
  const next = await click.deps.credentials.next(ctx);
  await showPage(click, next.ctx, next.ctxId);
}

async function exportCsv(click: Click<CredentialsDeps>): Promise<void> {
  const { deps, who } = click;
  const { ctx } = await load(click);
  if (ctx.search === undefined) {
    throw new VigilError(
      'Vigil does not keep the password a search was made with, so it cannot export it.',
      'Export a search by domain, email, keyword or login domain instead.',
    );
  }
  await permit(click, 'export');
  if (click.action.action_id !== CREDS_EXPORT_CONFIRMED) {
    const ask = await deps.credentials.exportNeedsAsking(who.workspaceId, ctx.limit, ctx.quota);
    if (ask !== undefined) {
      await click.respond(
        ephemeral(renderExportAsk({ ...ask, limit: ctx.limit }, click.action.value ?? ''), false),
      );
      return;
    }
  }
  let started: StartedExport;
  try {
    started = await deps.credentials.startExport({
      workspaceId: who.workspaceId,
      userId: who.userId,
      search: ctx.search,
      limit: ctx.limit,
    });
  } catch (err) {
    // A polite answer, not an incident.
    if (!(err instanceof ExportBusyError)) throw err;
    await tell(click, `${err.told} ${err.hint}`);
    return;
  }
  await click.respond(ephemeral(renderExportStarted(ctx.limit), false));
  await exportToDm(deps, click.client, who.userId, ctx, started);
}

async function share(click: Click<CredentialsDeps>): Promise<void> {
  const { deps, who } = click;
  const { contexts } = deps.credentials;
  const { ctx } = await load(click);
  if (ctx.message !== undefined) {
    await tell(click, 'These results are already in the channel.');
    return;
  }
  const channel = who.channelId || ctx.channelId;
  // The channel copy: masked rows only (the context never holds anything else), no Reveal or Export.
  const draftId = await contexts.save(ctx);
  const posted = await shareInChannel(
    click.client,
    channel,
    await credsPage(deps, ctx, draftId, { inChannel: true, sharedBy: who.userId }),
  );
  if (posted.ts) {
    const shared: CredsContext = {
      ...ctx,
      message: { channel: posted.channel ?? channel, ts: posted.ts, sharedBy: who.userId },
    };
    const id = await contexts.save(shared);
    const page = await credsPage(deps, shared, id, { inChannel: true });
    await click.client.chat
      .update({ channel: shared.message?.channel ?? channel, ts: posted.ts, ...page })
      .catch((err: unknown) => deps.logger.warn('could not point a shared message at its context', { err }));
  }
  await deps.audit.record({
    teamId: who.workspaceId,
    userId: who.userId,
    action: 'credentials.share',
    target: ctx.search?.query.type ?? 'password',
    detail: `page ${ctx.pageNumber} (masked) in ${channel}`,
  });
  await click.respond({ delete_original: true });
}

// ── Registration ────────────────────────────────────────────────────────────────────────────────────

/** Every button of a credentials search needs `creds` (Reveal and Export their own permission too). */
const CREDS = { access: 'creds' } as const;

export function registerCredsActions(app: App, deps: CredentialsDeps): void {
  onAction(app, deps, { action_id: CREDS_REVEAL, block_id: /^creds:row:\d{1,2}$/ }, reveal, CREDS);
  // The page buttons sit in the `creds:tail` block.
  onAction(app, deps, { action_id: CREDS_NEXT_PAGE, block_id: 'creds:tail' }, nextPage, CREDS);
  onAction(app, deps, { action_id: CREDS_EXPORT, block_id: 'creds:tail' }, exportCsv, CREDS);
  onAction(app, deps, { action_id: CREDS_SHARE, block_id: 'creds:tail' }, share, CREDS);
  onAction(app, deps, { action_id: CREDS_EXPORT_CONFIRMED, block_id: 'creds:export-ask' }, exportCsv, CREDS);
  for (const id of Object.keys(ROW_ACTIONS))
    onAction(app, deps, { action_id: id, block_id: /^creds:act:\d{1,2}$/ }, actOnCredentials, CREDS);
  for (const id of Object.keys(PAGE_ACTIONS))
    onAction(app, deps, { action_id: id, block_id: 'creds:tail' }, actOnCredentials, CREDS);
}
