/** The sandbox upload form, and what the requester sees while a file travels and once it arrived. Pure. */
import type { View } from '@slack/types';
import { privateMetadata, viewButton, viewTitle } from '../../slack/kit/budget.js';
import { type RenderedMessage, section } from '../../slack/kit/kit.js';
import { listCodeSpan, truncate } from '../../slack/kit/text.js';

export const UPLOAD_VIEW = 'sandbox_upload';
export const UPLOAD_FILE = { block: 'sandbox_file', action: 'file' } as const;
/** The message shortcut "Send to sandbox" (manifest.yml). */
export const SEND_TO_SANDBOX_SHORTCUT = 'send_to_sandbox';

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v >= 10 ? Math.round(v) : v.toFixed(1)} ${units[u]}`;
}

/** The form: one file, at most `maxBytes`. `metadata` is the channel the command came from. */
export function renderUploadModal(maxBytes: number, metadata: string): View {
  return {
    type: 'modal',
    callback_id: UPLOAD_VIEW,
    private_metadata: privateMetadata(metadata),
    title: viewTitle('Send to sandbox'),
    submit: viewButton('Upload'),
    close: viewButton('Cancel'),
    blocks: [
      section(
        `Pick a file to send to the threat-intel sandbox for analysis (up to ${formatBytes(maxBytes)}). Vigil fetches it from Slack and uploads it; the result is shown here.`,
      ),
      {
        type: 'input',
        block_id: UPLOAD_FILE.block,
        label: { type: 'plain_text', text: 'File' },
        element: { type: 'file_input', action_id: UPLOAD_FILE.action, max_files: 1 },
      },
    ],
  };
}

/** The modal as it is after submission: progress, then the result. */
export function renderUploadStatus(status: RenderedMessage): View {
  return {
    type: 'modal',
    callback_id: `${UPLOAD_VIEW}_status`,
    title: viewTitle('Send to sandbox'),
    close: viewButton('Close'),
    blocks: status.blocks,
  };
}

const name = (filename: string) => listCodeSpan(filename, 150);

/** `files`: how many files are on their way, when more than this one. */
export function renderUploadProgress(
  filename: string | undefined,
  size: number | undefined,
  files = 1,
): RenderedMessage {
  const sz = size === undefined ? '' : ` (${formatBytes(size)})`;
  const others = files > 1 ? ` and ${files - 1} more file${files > 2 ? 's' : ''}` : '';
  return {
    text: `Sending ${filename ?? 'the file'}${others} to the sandbox…`,
    blocks: [
      section(
        `:arrow_up: Sending ${filename === undefined ? 'the file' : name(filename)}${sz}${others} to the sandbox…`,
      ),
    ],
  };
}

export interface UploadDone {
  filename: string;
  bytes: number;
  sha256: string;
}

export function renderUploadDone(d: UploadDone): RenderedMessage {
  return {
    text: `${d.filename} was sent to the sandbox.`,
    blocks: [
      section(
        `:white_check_mark: ${name(d.filename)} (${formatBytes(d.bytes)}) was sent to the sandbox for analysis.\nSHA-256 ${listCodeSpan(d.sha256, 64)}`,
      ),
    ],
  };
}

/** Our own words may hold code spans: only Slack's control characters are escaped. */
function ownWords(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** A refusal or failure, in our own words (no upstream text reaches it unescaped). */
export function renderUploadFailed(
  filename: string | undefined,
  reason: string,
  hint: string,
): RenderedMessage {
  const what = filename ? ` ${name(filename)}` : '';
  return {
    text: `The file${filename ? ` ${filename}` : ''} was not sent to the sandbox: ${reason}`,
    blocks: [
      section(
        truncate(
          `:warning: The file${what} was not sent to the sandbox. ${ownWords(reason)}\n${ownWords(hint)}`,
          2900,
        ),
      ),
    ],
  };
}
