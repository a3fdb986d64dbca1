/**
 * Where an export goes: a progress message in the requester's direct message with Vigil, updated in place
 * every few pages, then the CSV file uploaded into that same DM (never a channel).
 */
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../kernel/logger.js';
import type { SlackBase } from '../../slack/context.js';
import { isExpected } from '../../slack/error-reply.js';
import { openDm, uploadFileToDm } from '../../slack/file-upload.js';
import type { RenderedMessage } from '../../slack/kit/kit.js';
import {
  renderExportDone,
  renderExportFailed,
  renderExportInterrupted,
  renderExportProgress,
  searchLabel,
} from './blocks.js';
import type { CredsContext, InterruptedExport, StartedExport } from './service.js';

export async function exportToDm(
  deps: Pick<SlackBase, 'logger' | 'work'>,
  client: WebClient,
  userId: string,
  ctx: CredsContext,
  started: StartedExport,
): Promise<void> {
  const label = searchLabel(ctx);
  let dm: string;
  let ts: string | undefined;
  try {
    dm = await openDm(client, userId);
    const posted = await client.chat.postMessage({
      channel: dm,
      ...renderExportProgress({ rows: 0, limit: ctx.limit, label }),
      unfurl_links: false,
      unfurl_media: false,
    });
    dm = posted.channel ?? dm;
    ts = posted.ts;
  } catch (err) {
    await started.cancel();
    throw err;
  }
  const channel = dm;
  const update = async (m: RenderedMessage) => {
    if (ts !== undefined) await client.chat.update({ channel, ts, ...m });
  };
  try {
    const result = await started.run({
      ...(ts === undefined ? {} : { notice: { channel, ts } }),
      progress: (p) => update(renderExportProgress({ rows: p.rows, limit: p.limit, label })),
      deliver: async (file) => {
        await uploadFileToDm(
          client,
          channel,
          {
            open: file.open,
            bytes: file.bytes,
            filename: file.filename,
            title: 'Leaked credentials export',
          },
          deps.work.outbound.dispatcher,
        );
      },
    });
    await update(renderExportDone({ rows: result.rows, label, filename: result.filename }));
  } catch (err) {
    const reason = isExpected(err) ? err.told : 'an internal error; the reference is in the channel reply.';
    await update(renderExportFailed({ label, reason })).catch((e: unknown) =>
      deps.logger.warn('could not mark an export as failed', { err: e }),
    );
    throw err;
  }
}

/**
 * Tells each requester whose export a crashed process left that it was interrupted and can be started again,
 * in place of its "Exporting…" message.
 */
export async function announceInterruptedExports(
  deps: { logger: Logger },
  interrupted: readonly InterruptedExport[],
  clientFor: (workspaceId: string) => Promise<WebClient>,
): Promise<void> {
  for (const { workspaceId, search, notice } of interrupted) {
    if (notice === undefined) continue;
    try {
      const client = await clientFor(workspaceId);
      await client.chat.update({
        channel: notice.channel,
        ts: notice.ts,
        ...renderExportInterrupted({ label: searchLabel({ search }) }),
      });
    } catch (err) {
      deps.logger.warn('could not tell a requester their export was interrupted', { err });
    }
  }
}
