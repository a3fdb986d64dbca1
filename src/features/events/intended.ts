/** Which action a button of an event row asks for: the Slack side's reading of its own action ids. */
import type { EventActionType } from '../../api/index.js';
import type { ShownEvent } from '../../domain/events/context.js';
import { reverseOf } from '../../domain/events/model.js';
import { ACTION_IDS } from '../../domain/events/page.js';

const ACTION_OF: Readonly<Record<string, EventActionType>> = {
  [ACTION_IDS.ignore]: 'ignore',
  [ACTION_IDS.remediate]: 'remediate',
  [ACTION_IDS.unignore]: 'unignore',
  [ACTION_IDS.unremediate]: 'unremediate',
};

/** What a button means for the event it sits on: Undo reverses what this message shows was done. */
export function intendedAction(button: string, shown: ShownEvent): EventActionType | undefined {
  if (button === ACTION_IDS.undo)
    return shown.acted === undefined ? undefined : reverseOf(shown.acted.action);
  return ACTION_OF[button];
}
