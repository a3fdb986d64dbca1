/** `/vigil events …`, `/vigil events <id> secret|credentials` and `/vigil explain <uid>`. */
import { renderExplain, renderPage } from '../../domain/events/page.js';
import type { CommandHandler } from '../../slack/context.js';
import { ephemeral } from '../../slack/context.js';
import { toEventSearchInput } from '../../slack/grammar/index.js';
import { eventsCommandText } from './command-text.js';
import type { EventsDeps } from './deps.js';
import { openSecretModal, sendExplain } from './views.js';

export const eventsCommand: CommandHandler<'events', EventsDeps> = {
  progress: (cmd) => `Searching the events of identifier ${cmd.identifierId}…`,
  async run(ctx) {
    const { deps, command } = ctx;
    const input = toEventSearchInput(command, new Date(deps.clock.now()));
    const context = await deps.events.searchToContext({
      workspaceId: ctx.workspaceId,
      userId: ctx.userId,
      channelId: ctx.channelId,
      commandText: eventsCommandText(command),
      input,
      pageNumber: 1,
      ...(command.sort === undefined ? {} : { sort: command.sort }),
    });
    const id = await deps.events.contexts.save(context);
    await ctx.respond(ephemeral(renderPage(context, id, deps.clock.now()), true));
  },
};

/** No progress text: the trigger id lives 3 s, so the modal opens before anything else. */
export const eventsSecretModalCommand: CommandHandler<'events-secret-modal', EventsDeps> = {
  async run(ctx) {
    await openSecretModal(ctx.client, ctx.triggerId, {
      identifierId: ctx.command.identifierId,
      queryType: ctx.command.queryType,
      channelId: ctx.channelId,
    });
  },
};

export const explainCommand: CommandHandler<'explain', EventsDeps> = {
  progress: () => 'Asking the threat-intel service for its explanation…',
  async run(ctx) {
    const { deps } = ctx;
    const text = await deps.events.explain(ctx.workspaceId, ctx.command.eventUid);
    await sendExplain(
      ctx.respond,
      renderExplain({ uid: ctx.command.eventUid, text, now: deps.clock.now() }),
      true,
    );
  },
};
