/**
 * `events <name> secret|credentials`: the private form of the identifier of that name. The form must open
 * within the trigger id's 3 seconds, so it opens at once only when the name is already known (the identifier
 * list is in the store and fresh) and is exactly one identifier's. Otherwise Vigil looks the name up and
 * answers with the identifiers it may mean, each with a button that opens the form: a click brings a fresh
 * trigger id. The secret itself is only ever typed in the form.
 */

import {
  EVENTS_SECRET_FORM,
  parseSecretFormValue,
  renderSecretFormChoice,
} from '../../domain/identifier-blocks.js';
import { VigilError } from '../../kernel/errors.js';
import type { CommandHandler } from '../../slack/context.js';
import { ephemeral } from '../../slack/context.js';
import { type Click, onAction } from '../../slack/listen.js';
import type { EventsDeps } from './deps.js';
import { openSecretModal } from './views.js';

/** No progress text: when the name is known, the form opens before anything else. */
export const eventsSecretByNameCommand: CommandHandler<'events-secret-name', EventsDeps> = {
  async run(ctx) {
    const { deps, command } = ctx;
    const known = await deps.identifiers.resolveKnown(ctx.workspaceId, command.name);
    const resolution = known?.resolution;
    if (resolution?.kind === 'one' && resolution.exact) {
      await openSecretModal(ctx.client, ctx.triggerId, {
        identifierId: resolution.identifier.id,
        queryType: command.queryType,
        channelId: ctx.channelId,
      });
      return;
    }
    const looked = resolution ?? (await deps.identifiers.resolve(ctx.workspaceId, command.name)).resolution;
    const choice = renderSecretFormChoice({
      name: command.name,
      queryType: command.queryType,
      resolution: looked,
    });
    await ctx.respond(ephemeral(choice, false));
  },
};

/** "Open the private form" on an identifier the name may mean. */
async function openForm(click: Click<EventsDeps>): Promise<void> {
  const chosen = parseSecretFormValue(click.action.value);
  if (chosen === undefined) {
    throw new VigilError(
      'This button does not name an identifier.',
      'Run `/vigil events <name> secret` again.',
    );
  }
  await openSecretModal(click.client, click.body.trigger_id, { ...chosen, channelId: click.who.channelId });
}

export function registerSecretByName(app: Parameters<typeof onAction>[0], deps: EventsDeps): void {
  onAction(app, deps, { action_id: new RegExp(`^${EVENTS_SECRET_FORM}:\\d{1,3}$`) }, openForm);
}
