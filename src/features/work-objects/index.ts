/**
 * Work Objects: portal links to events unfurled as event cards, and each card's side panel per person.
 */
import type { Feature } from '../../slack/context.js';
import type { WorkObjectsDeps } from './deps.js';
import { registerPanel } from './panel.js';
import { registerUnfurls } from './unfurl.js';

export const workObjectsFeature: Feature<WorkObjectsDeps> = {
  commands: {},
  register(app, deps) {
    registerUnfurls(app, deps);
    registerPanel(app, deps);
  },
};
