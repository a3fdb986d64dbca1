/** The fake Slack used by end-to-end tests and the local playground. */
export { /** @internal */ viewProblems } from './block-limits.js';
export {
  FakeSlack,
  startFakeSlack,
} from './fake-slack.js';
export type {
  /** @internal */ FunctionDeclarations,
  /** @internal */ FunctionExecution,
} from './functions.js';
export { /** @internal */ messageContentError } from './methods/index.js';
export type { StreamRecord } from './methods/streams.js';
export type { /** @internal */ SocketAck } from './socket-mode.js';
export {
  DEFAULT_APP_ID,
  /** @internal */ DEFAULT_APP_TOKEN,
  /** @internal */ DEFAULT_BOT_SCOPES,
  DEFAULT_BOT_TOKEN,
  DEFAULT_BOT_USER_ID,
  /** @internal */ DEFAULT_CLIENT_ID,
  /** @internal */ DEFAULT_CLIENT_SECRET,
  DEFAULT_TEAM_ID,
  /** @internal */ RESPONSE_URL_TTL_MS,
  SEEDED_CHANNELS,
  SEEDED_USERS,
  /** @internal */ TRIGGER_TTL_MS,
} from './state.js';
export type {
  /** @internal */ ContentRefusal,
  RecordedCall,
  ResponseUrlPost,
} from './types.js';
