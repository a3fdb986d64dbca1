/** The files upload v2 flow: ask for an upload URL, POST the bytes there, then complete (and share). */
import type { SlackState } from '../state.js';
import type { FakeTeam, Json, UploadedFile } from '../types.js';
import { type BotMethod, fail, failWithMessages, resolveChannel, str } from './common.js';

const getUploadURLExternal: BotMethod = ({ state, team, body, baseUrl }) => {
  const filename = str(body, 'filename');
  const length = Number(str(body, 'length'));
  const problems: string[] = [];
  if (filename === undefined) problems.push('missing required field: filename');
  if (!Number.isInteger(length) || length < 1) problems.push('missing required field: length');
  if (problems.length > 0) return failWithMessages('invalid_arguments', problems);
  const fileId = state.nextId('F');
  const key = state.randomKey(24);
  state.files.set(fileId, {
    fileId,
    teamId: team.teamId,
    filename: filename ?? '',
    declaredLength: length,
    title: undefined,
    bytes: undefined,
    completed: false,
    channelId: undefined,
    initialComment: undefined,
    threadTs: undefined,
  });
  state.uploadKeys.set(key, fileId);
  return { ok: true, upload_url: `${baseUrl}/upload/v1/${key}`, file_id: fileId };
};

function mimetypeOf(filename: string): { mimetype: string; filetype: string; pretty: string } {
  const ext = filename.split('.').pop()?.toLowerCase();
  if (ext === 'csv') return { mimetype: 'text/csv', filetype: 'csv', pretty: 'CSV' };
  if (ext === 'json') return { mimetype: 'application/json', filetype: 'json', pretty: 'JSON' };
  if (ext === 'txt') return { mimetype: 'text/plain', filetype: 'text', pretty: 'Plain Text' };
  return { mimetype: 'application/octet-stream', filetype: 'binary', pretty: 'Binary' };
}

/** The path the fake serves a file's bytes at (with the bot token only, like Slack's files-pri URLs). */
export function filePath(teamId: string, f: Pick<UploadedFile, 'fileId' | 'filename'>): string {
  return `/files-pri/${teamId}-${f.fileId}/download/${encodeURIComponent(f.filename)}`;
}

export function fileJson(state: SlackState, team: FakeTeam, f: UploadedFile, baseUrl: string): Json {
  const type = f.mimetype
    ? { mimetype: f.mimetype, filetype: 'binary', pretty: 'Binary' }
    : mimetypeOf(f.filename);
  const now = Math.floor(state.clock.now() / 1000);
  const base = `${baseUrl}/files-pri/${team.teamId}-${f.fileId}`;
  return {
    id: f.fileId,
    created: now,
    timestamp: now,
    name: f.filename,
    title: f.title ?? f.filename,
    mimetype: type.mimetype,
    filetype: type.filetype,
    pretty_type: type.pretty,
    user: f.user ?? team.botUserId,
    user_team: team.teamId,
    editable: false,
    size: f.reportedSize ?? f.bytes?.length ?? 0,
    mode: 'hosted',
    is_external: false,
    external_type: '',
    is_public: false,
    public_url_shared: false,
    display_as_bot: false,
    username: '',
    url_private: `${base}/${encodeURIComponent(f.filename)}`,
    url_private_download: `${baseUrl}${filePath(team.teamId, f)}`,
    permalink: `https://${team.domain}.slack.com/files/${team.botUserId}/${f.fileId}/${f.filename}`,
    permalink_public: `https://slack-files.com/${team.teamId}-${f.fileId}-0000000000`,
    comments_count: 0,
    shares: {},
    channels: [],
    groups: [],
    ims: [],
    has_more_shares: false,
    has_rich_preview: false,
    file_access: 'visible',
  };
}

const completeUploadExternal: BotMethod = ({ state, team, body, baseUrl }) => {
  const files = body.files;
  if (!Array.isArray(files) || files.length === 0) return fail('invalid_arguments');
  const channelArg = str(body, 'channel_id');
  const channel = channelArg === undefined ? undefined : resolveChannel(state, team, channelArg);
  if (channel !== undefined && 'error' in channel) return fail(channel.error);
  const found: UploadedFile[] = [];
  for (const entry of files) {
    const id = typeof entry === 'object' && entry !== null ? (entry as Json).id : undefined;
    const file = typeof id === 'string' ? state.files.get(id) : undefined;
    if (file === undefined || file.teamId !== team.teamId || file.bytes === undefined)
      return fail('file_not_found');
    const title = (entry as Json).title;
    if (typeof title === 'string') file.title = title;
    found.push(file);
  }
  for (const file of found) {
    file.completed = true;
    file.channelId = channel?.channel.id;
    file.initialComment = str(body, 'initial_comment');
    file.threadTs = str(body, 'thread_ts');
  }
  return { ok: true, files: found.map((f) => fileJson(state, team, f, baseUrl)) };
};

/** files.info: a file of the team with its bytes (needs files:read on Slack; the fake does not check scopes). */
const filesInfo: BotMethod = ({ state, team, body, baseUrl }) => {
  const id = str(body, 'file');
  if (id === undefined) return fail('invalid_arguments');
  const file = state.files.get(id);
  if (file === undefined || file.teamId !== team.teamId || file.bytes === undefined)
    return fail('file_not_found');
  return {
    ok: true,
    file: fileJson(state, team, file, baseUrl),
    comments: [],
    response_metadata: { next_cursor: '' },
  };
};

export const fileMethods: Record<string, BotMethod> = {
  'files.getUploadURLExternal': getUploadURLExternal,
  'files.completeUploadExternal': completeUploadExternal,
  'files.info': filesInfo,
};
