/** Test harness for the Slack side: signed requests into Vigil, and reading what Vigil sent to Slack. */
export { type Button, blocksOf, blockTypes, buttons, findButton, getButton, textOf } from './block-kit.js';
export * from './slack-payloads.js';
export {
  createSlackSender,
  type RawRequest,
  type SenderResponse,
  type SlackSender,
  type SlackSenderOptions,
  type StreamedResponse,
} from './slack-sender.js';
export { SLACK_SIGNATURE_EXAMPLE, signSlackRequest } from './slack-signature.js';
