/** The shapes the fake Slack records and keeps, shared by its modules and by the tests that read them. */

export type Json = Record<string, unknown>;

/** One Web API call as the fake received it. `body` has JSON-valued fields (blocks, view, files…) decoded. */
export interface RecordedCall {
  method: string;
  body: Json;
  /** The token sent, from `Authorization: Bearer` or the form/JSON `token` field. */
  token: string | undefined;
  /** Clock time (ms) when the fake received the call. */
  at: number;
  contentType: string;
  headers: Record<string, string>;
  rawBody: string;
  /** What the fake answered. */
  status: number;
  response: Json;
}

/** One POST to a `response_url` handed out by the fake. */
export interface ResponseUrlPost {
  path: string;
  body: Json;
  at: number;
  headers: Record<string, string>;
  rawBody: string;
  status: number;
  response: Json;
}

/**
 * A payload Slack would refuse for what it holds (blocks, text, a view): always a defect of the sender, never
 * one the fake was told to inject with failNext.
 */
export interface ContentRefusal {
  /** The Web API method, `response_url`, or `socket_ack` (a slash command's ack over Socket Mode). */
  where: string;
  error: string;
  /** Slack's details, "<problem> [json-pointer:/path]". */
  problems: string[];
  at: number;
  /** What was sent: the call's or post's body, or the ack's payload. */
  body: Json;
}

/** Bytes received on an `upload_url` from files.getUploadURLExternal. */
export interface UploadedFile {
  fileId: string;
  teamId: string;
  filename: string;
  declaredLength: number;
  title: string | undefined;
  /** Undefined until the bytes arrive on the upload URL. */
  bytes: Buffer | undefined;
  completed: boolean;
  channelId: string | undefined;
  initialComment: string | undefined;
  threadTs: string | undefined;
  /** Who shared it (a person's file, added with `addFile`); the bot's own uploads leave it out. */
  user?: string;
  /** The `size` files.info reports when a test makes it differ from the bytes served (a file changed). */
  reportedSize?: number;
  /** Served without a Content-Length (chunked), as a download whose length is not announced. */
  chunked?: boolean;
  mimetype?: string;
}

/** One GET of a file's bytes (`url_private_download`), served or refused. */
export interface FileDownload {
  fileId: string | undefined;
  /** The bearer token sent, if any. */
  token: string | undefined;
  served: boolean;
  at: number;
}

export interface FakeTeam {
  teamId: string;
  enterpriseId?: string;
  name?: string;
  domain?: string;
  botToken: string;
  botUserId: string;
  botId?: string;
  isEnterpriseInstall?: boolean;
  /**
   * The bot scopes granted (an installer may decline optional ones); DEFAULT_BOT_SCOPES when absent. Reported
   * as Slack does, in the `x-oauth-scopes` header of every call with the bot token, and as oauth.v2.access's `scope`.
   */
  scopes?: readonly string[];
}

export interface FakeUser {
  id: string;
  team_id: string;
  name: string;
  real_name?: string;
  deleted?: boolean;
  is_admin?: boolean;
  is_owner?: boolean;
  is_primary_owner?: boolean;
  is_restricted?: boolean;
  is_ultra_restricted?: boolean;
  is_bot?: boolean;
  tz?: string;
  tz_label?: string;
  tz_offset?: number;
  email?: string;
  enterprise_id?: string;
  /** An admin of the organization (`enterprise_user.is_admin`); a workspace admin's `is_admin` when unset. */
  is_org_admin?: boolean;
}

export interface FakeChannel {
  id: string;
  name: string;
  team_id: string;
  is_private?: boolean;
  is_im?: boolean;
  is_mpim?: boolean;
  is_archived?: boolean;
  /** Whether the bot is in the channel; posting to a channel it is not in fails with not_in_channel. */
  is_member?: boolean;
  /** For a DM: the other user. */
  user?: string;
  /**
   * Slack Connect: shared with another organization (`is_ext_shared`, with `is_shared`), or invited and not
   * yet accepted (`is_pending_ext_shared`). Unset: the workspace's own channel.
   */
  shared?: 'external' | 'pending';
}

export interface StoredMessage {
  channel: string;
  ts: string;
  text: string;
  blocks: unknown[] | undefined;
  user: string;
  bot_id: string | undefined;
  thread_ts: string | undefined;
  /** A thread reply also shown in the channel. */
  reply_broadcast?: boolean;
  edited: { user: string; ts: string } | undefined;
  /** Message metadata (`{event_type, event_payload}`), returned by conversations.history on request. */
  metadata?: Json | undefined;
}

export interface StoredView {
  id: string;
  team_id: string;
  /** The user the view was opened for / published to. */
  user_id: string | undefined;
  view: Json;
  hash: string;
}

export interface FailureSpec {
  /** 'ratelimited' answers HTTP 429 with Retry-After; any other string answers `{ok:false, error}`. */
  error?: 'ratelimited' | (string & {});
  /** HTTP status; defaults to 429 for ratelimited and 200 otherwise (Slack reports errors with 200). */
  status?: number;
  /** Seconds, for the Retry-After header. Default 1. */
  retryAfter?: number;
  /** How many consecutive calls fail. Default 1. */
  times?: number;
  /**
   * The call takes effect before the error is answered, as Slack's `fatal_error` allows ("it's possible some
   * aspect of the operation succeeded before the error was raised"): a post that landed while its sender
   * heard a failure.
   */
  landed?: boolean;
}

export interface OAuthGrant {
  teamId: string;
  teamName?: string;
  enterpriseId?: string;
  enterpriseName?: string;
  isEnterpriseInstall?: boolean;
  /** The installing user. */
  userId?: string;
  /** The bot scopes granted, comma-separated as oauth.v2.access answers them; all of Vigil's when absent. */
  scope?: string;
  redirectUri?: string;
}
