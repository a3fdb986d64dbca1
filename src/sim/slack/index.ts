/** The fake Slack used by end-to-end tests and the local playground. */
export { viewProblems } from './block-limits.js';
export {
  FakeSlack,
  startFakeSlack,
} from './fake-slack.js';
export { messageContentError } from './methods/index.js';
export type { SocketAck } from './socket-mode.js';
export {
  DEFAULT_APP_ID,
  DEFAULT_APP_TOKEN,
  DEFAULT_BOT_TOKEN,
  DEFAULT_BOT_USER_ID,
  DEFAULT_CLIENT_ID,
  DEFAULT_CLIENT_SECRET,
  DEFAULT_TEAM_ID,
  RESPONSE_URL_TTL_MS,
  SEEDED_CHANNELS,
  SEEDED_USERS,
  TRIGGER_TTL_MS,
} from './state.js';
export type {
  ContentRefusal,
  RecordedCall,
  ResponseUrlPost,
} from './types.js';
