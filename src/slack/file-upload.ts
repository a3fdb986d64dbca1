/**
 * Slack's files upload v2 flow for a file streamed from disk: `files.getUploadURLExternal` with the exact
 * byte length, POST the bytes to the upload URL, then `files.completeUploadExternal` into a direct message
 * with the user (opened with `conversations.open`), never a channel. `filesUploadV2` of the SDK would read
 * the whole file into memory first; exports can be megabytes.
 */
import type { Readable } from 'node:stream';
import type { WebClient } from '@slack/web-api';
import { type Dispatcher, request } from 'undici';
import { VigilError } from '../kernel/errors.js';

const UPLOAD_TIMEOUT_MS = 120_000;

/** The user's DM with the app. */
export async function openDm(client: WebClient, userId: string): Promise<string> {
  const res = await client.conversations.open({ users: userId });
  const id = res.channel?.id;
  if (!id) throw new VigilError('Slack did not open a direct message with you.', 'Try again in a moment.');
  return id;
}

export interface DmFile {
  /** The bytes, streamed: exactly `bytes` of them. */
  open(): Readable;
  bytes: number;
  filename: string;
  title: string;
  initialComment?: string;
}

export async function uploadFileToDm(
  client: WebClient,
  dmChannelId: string,
  file: DmFile,
  /** The outbound proxy's (SlackBase.work.outbound); undici's global one otherwise. */
  dispatcher?: Dispatcher,
): Promise<{ fileId: string }> {
  const target = await client.files.getUploadURLExternal({ filename: file.filename, length: file.bytes });
  const url = target.upload_url;
  const fileId = target.file_id;
  if (!url || !fileId)
    throw new VigilError('Slack did not give an upload address for the file.', 'Try again.');
  const res = await request(url, {
    ...(dispatcher ? { dispatcher } : {}),
    method: 'POST',
    body: file.open(),
    headers: { 'content-type': 'application/octet-stream', 'content-length': String(file.bytes) },
    headersTimeout: UPLOAD_TIMEOUT_MS,
    bodyTimeout: UPLOAD_TIMEOUT_MS,
  });
  await res.body.dump();
  if (res.statusCode !== 200) {
    throw new VigilError(`Slack refused the file upload (HTTP ${res.statusCode}).`, 'Try the export again.');
  }
  await client.files.completeUploadExternal({
    files: [{ id: fileId, title: file.title }],
    channel_id: dmChannelId,
    ...(file.initialComment === undefined ? {} : { initial_comment: file.initialComment }),
  });
  return { fileId };
}
