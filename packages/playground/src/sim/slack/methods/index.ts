/** Every Web API method the fake answers. Anything else is `unknown_method`, as on Slack. */
import { chatMethods } from './chat.js';
import type { BotMethod, ClientMethod } from './common.js';
import { directoryMethods } from './directory.js';
import { entityMethods } from './entities.js';
import { fileMethods } from './files.js';
import { functionMethods } from './functions.js';
import { installBotMethods, installClientMethods } from './install.js';
import { openIdMethods } from './openid.js';
import { streamMethods } from './streams.js';
import { userMethods } from './users.js';
import { viewMethods } from './views.js';

export type { BotMethod, ClientMethod } from './common.js';
export { messageContentError } from './common.js';
export { forgetSignIns, openIdAuthorize, signInAs } from './openid.js';
export {
  type StreamRecord,
  type SuggestedPrompts,
  streamsOf,
  suggestedPromptsOf,
} from './streams.js';

/** Methods called with a bot token. */
export const botMethods: Record<string, BotMethod> = {
  ...installBotMethods,
  ...chatMethods,
  ...viewMethods,
  ...directoryMethods,
  ...userMethods,
  ...fileMethods,
  ...entityMethods,
  ...functionMethods,
  ...streamMethods,
};

/** Methods called with the app's client credentials instead of a token. */
export const clientMethods: Record<string, ClientMethod> = {
  ...installClientMethods,
  ...openIdMethods,
};
