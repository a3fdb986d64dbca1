/**
 * Test harness for the Slack side: signed requests into Vigil, and reading what Vigil sent to Slack.
 *
 *   const fake = await startFakeSlack();                       // packages/playground/src/sim/slack
 *   // start Vigil with clientOptions.slackApiUrl = fake.apiUrl, signing secret S, on receiverUrl
 *   const slack = createSlackSender({ receiverUrl, signingSecret: S });
 *   await slack.slashCommand({ text: 'status', responseUrl: fake.responseUrl(), triggerId: fake.triggerId() });
 *   const post = await fake.waitForPost();                     // or fake.waitFor('chat.postMessage')
 *   expect(textOf(post.body)).toContain('Tenant');
 *   expect(fake.allText()).not.toContain(apiKey);
 */
export {
  blocksOf,
  buttons,
  findButton,
  getButton,
  type MenuOption,
  menuOptions,
  textOf,
} from './block-kit.js';
export * from './slack-payloads.js';
export {
  createSlackSender,
  type SenderResponse,
  type SlackSender,
} from './slack-sender.js';
export { SLACK_SIGNATURE_EXAMPLE, signSlackRequest } from './slack-signature.js';
