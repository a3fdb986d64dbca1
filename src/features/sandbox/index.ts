/**
 * Sandbox uploads: `/vigil upload` opens a form with a file input; the message shortcut "Send to sandbox"
 * sends the files of a message. Either way Vigil reads the file's details with files.info (its size is
 * checked before any download), then the service streams it from Slack into the API's upload.
 */
import type { App, MessageShortcut, RespondFn } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import { VigilError } from '../../kernel/errors.js';
import type { CommandHandler, Feature } from '../../slack/context.js';
import { ephemeral } from '../../slack/context.js';
import { isExpected, reportError } from '../../slack/error-reply.js';
import { onView, runTracked } from '../../slack/listen.js';
import { requesterOfAction } from '../../slack/requester.js';
import {
  renderUploadDone,
  renderUploadFailed,
  renderUploadModal,
  renderUploadProgress,
  renderUploadStatus,
  SEND_TO_SANDBOX_SHORTCUT,
  UPLOAD_FILE,
  UPLOAD_VIEW,
} from './blocks.js';
import type { SandboxDeps } from './deps.js';
import { uploadSubcommands } from './grammar.js';
import type { SlackFile } from './service.js';

/** A message shortcut sends at most this many files (a response_url takes 5 posts: progress, results, note). */
const MAX_FILES = 3;

const FileInfoSchema = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
  title: z.string().optional(),
  size: z.number().optional(),
  mimetype: z.string().optional(),
  url_private_download: z.string().optional(),
  url_private: z.string().optional(),
});

/** files.info: Slack's own word on the file's size and download link. */
async function describeFile(client: WebClient, fileId: string): Promise<SlackFile> {
  let raw: unknown;
  try {
    raw = (await client.files.info({ file: fileId })).file;
  } catch (err) {
    throw new VigilError(
      'Vigil cannot see this file in Slack.',
      'Share the file in a channel Vigil can read, and check that Vigil was installed with the files:read permission.',
      { cause: err },
    );
  }
  const f = FileInfoSchema.parse(raw);
  return {
    id: f.id,
    name: f.name || f.title || f.id,
    size: f.size,
    downloadUrl: f.url_private_download ?? f.url_private,
    mimetype: f.mimetype,
  };
}

/** The bot token Bolt authorized this request with (the client was made with it). */
function botTokenOf(client: WebClient): string {
  return client.token ?? '';
}

async function send(
  deps: SandboxDeps,
  client: WebClient,
  botToken: string,
  who: { workspaceId: string; userId: string },
  fileId: string,
  via: string,
) {
  const file = await describeFile(client, fileId);
  return {
    file,
    run: () => deps.sandbox.send({ workspaceId: who.workspaceId, userId: who.userId, file, botToken, via }),
  };
}

/** A failure in words for the requester: our own refusals as they are, anything else with a reference. */
async function failure(deps: SandboxDeps, err: unknown, filename: string | undefined) {
  if (isExpected(err)) {
    deps.logger.warn('sandbox upload refused or failed', { err });
    return renderUploadFailed(filename, err.told, err.hint);
  }
  const ref = await reportError(deps, err, undefined, { feature: 'sandbox' });
  return renderUploadFailed(
    filename,
    'Something went wrong on Vigil’s side.',
    `Give reference ${ref} to your Vigil administrator if it keeps happening.`,
  );
}

// ── /vigil upload ───────────────────────────────────────────────────────────────────────────────────

/** No progress text: the trigger id lives 3 s, so the form opens before anything else. */
const upload: CommandHandler<'upload', SandboxDeps> = {
  async run(ctx) {
    await ctx.client.views.open({
      trigger_id: ctx.triggerId,
      view: renderUploadModal(ctx.deps.sandbox.maxBytes, ctx.channelId),
    });
  },
};

// One file of Slack's id shape: what the form's file input gives (anything else is not from it).
const SubmittedFilesSchema = z
  .array(z.looseObject({ id: z.string().regex(/^F[A-Z0-9]{2,30}$/) }))
  .min(1)
  .max(1);

function registerUploadForm(app: App, deps: SandboxDeps): void {
  onView(
    app,
    deps,
    UPLOAD_VIEW,
    ({ who, view, client }) => {
      const state = view.state.values[UPLOAD_FILE.block]?.[UPLOAD_FILE.action] as
        | { files?: unknown }
        | undefined;
      const files = SubmittedFilesSchema.safeParse(state?.files);
      if (!files.success) {
        return {
          ack: { response_action: 'errors', errors: { [UPLOAD_FILE.block]: 'Pick a file to send.' } },
        };
      }
      const fileId = files.data[0]?.id ?? '';
      const show = (message: Parameters<typeof renderUploadStatus>[0]) =>
        client.views.update({ view_id: view.id, view: renderUploadStatus(message) });
      return {
        ack: {
          response_action: 'update',
          view: renderUploadStatus(renderUploadProgress(undefined, undefined)),
        },
        work: async () => {
          let filename: string | undefined;
          try {
            const job = await send(deps, client, botTokenOf(client), who, fileId, 'upload form');
            filename = job.file.name;
            await show(renderUploadProgress(job.file.name, job.file.size));
            await show(renderUploadDone(await job.run()));
          } catch (err) {
            await show(await failure(deps, err, filename));
          }
        },
      };
    },
    'sandbox',
  );
}

// ── Message shortcut ────────────────────────────────────────────────────────────────────────────────

function registerShortcut(app: App, deps: SandboxDeps): void {
  app.shortcut<MessageShortcut>(
    { callback_id: SEND_TO_SANDBOX_SHORTCUT, type: 'message_action' },
    async ({ ack, shortcut, respond, client }) => {
      await ack();
      const who = requesterOfAction(shortcut as never);
      const files = (shortcut.message.files ?? []) as { id?: string }[];
      const ids = files.map((f) => f.id).filter((id): id is string => typeof id === 'string');
      runTracked(
        deps,
        async () => {
          // A shortcut is no listener of listen.ts: it checks `sandbox` itself, before any API call.
          await deps.authz.requireAccess(client, who, 'sandbox');
          if (ids.length === 0) {
            await respond(
              ephemeral(
                {
                  text: 'This message has no file to send. Use the shortcut on a message with a file attached, or `/vigil upload`.',
                },
                false,
              ),
            );
            return;
          }
          await sendAll(deps, client, botTokenOf(client), who, ids.slice(0, MAX_FILES), respond);
          if (ids.length > MAX_FILES) {
            await respond(
              ephemeral(
                {
                  text: `Only the first ${MAX_FILES} files of a message are sent; the others were left out.`,
                },
                false,
              ),
            );
          }
        },
        respond,
        { shortcut: SEND_TO_SANDBOX_SHORTCUT, team: who.workspaceId, user: who.userId },
      );
    },
  );
}

async function sendAll(
  deps: SandboxDeps,
  client: WebClient,
  botToken: string,
  who: { workspaceId: string; userId: string },
  ids: readonly string[],
  respond: RespondFn,
): Promise<void> {
  let announced = false;
  for (const id of ids) {
    let filename: string | undefined;
    try {
      const job = await send(deps, client, botToken, who, id, 'message shortcut');
      filename = job.file.name;
      if (!announced) {
        announced = true;
        await respond(ephemeral(renderUploadProgress(job.file.name, job.file.size, ids.length), false));
      }
      await respond(ephemeral(renderUploadDone(await job.run()), false));
    } catch (err) {
      await respond(ephemeral(await failure(deps, err, filename), false));
    }
  }
}

export const sandboxFeature: Feature<SandboxDeps> = {
  subcommands: uploadSubcommands,
  commands: { upload },
  register(app, deps) {
    registerUploadForm(app, deps);
    registerShortcut(app, deps);
  },
};
