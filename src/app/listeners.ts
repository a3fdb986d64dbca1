/**
 * Every listener of the app, in the order Bolt runs them: `/vigil` with its subcommands' handlers, then each
 * feature's actions, views, events and steps. Loaded by `createSlackApp` only once the web server listens.
 */
import type { App } from '@slack/bolt';
import { registerVigilCommand } from '../slack/command.js';
import type { BoundFeature, SlackBase } from '../slack/context.js';
import { vigilGrammar } from './features.js';

export function registerListeners(app: App, base: SlackBase, features: readonly BoundFeature[]): void {
  const commands: BoundFeature['commands'] = Object.assign({}, ...features.map((f) => f.commands));
  registerVigilCommand(app, base, vigilGrammar, commands);
  for (const feature of features) feature.register(app);
}
