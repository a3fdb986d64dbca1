/** The fake Slack used by end-to-end tests and the local playground. */
export {
  blockProblems,
  blockTextLength,
  MESSAGE_MAX_BLOCK_TEXT,
  MESSAGE_MAX_BLOCKS,
  VIEW_MAX_BLOCKS,
  viewProblems,
} from './block-limits.js';
export {
  FakeSlack,
  type FakeSlackOptions,
  type RecordObserver,
  type RetainLimits,
  startFakeSlack,
} from './fake-slack.js';
export { messageContentError } from './methods/index.js';
export {
  type EnvelopeInput,
  type EnvelopeType,
  FakeSocketMode,
  type SendOptions,
  type SentEnvelope,
  type SocketAck,
  type SocketConnection,
} from './socket-mode.js';
export {
  DEFAULT_APP_ID,
  DEFAULT_APP_TOKEN,
  DEFAULT_BOT_TOKEN,
  DEFAULT_BOT_USER_ID,
  DEFAULT_CLIENT_ID,
  DEFAULT_CLIENT_SECRET,
  DEFAULT_TEAM_ID,
  RESPONSE_URL_MAX_USES,
  RESPONSE_URL_TTL_MS,
  SEEDED_CHANNELS,
  SEEDED_USERS,
  TRIGGER_TTL_MS,
} from './state.js';
export type {
  ContentRefusal,
  FailureSpec,
  FakeChannel,
  FakeTeam,
  FakeUser,
  FileDownload,
  OAuthGrant,
  RecordedCall,
  ResponseUrlPost,
  StoredMessage,
  StoredView,
  UploadedFile,
} from './types.js';
