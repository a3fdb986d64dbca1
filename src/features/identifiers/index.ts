import { IDENTIFIERS_NEXT, renderIdentifiers } from '../../domain/identifier-blocks.js';
import type { CommandHandler, Feature } from '../../slack/context.js';
import { ephemeral } from '../../slack/context.js';
import { onAction } from '../../slack/listen.js';
import type { IdentifiersDeps } from './deps.js';
import { identifiersSubcommands } from './grammar.js';
import { registerWatchActions, watchCommands } from './watch-listeners.js';

const identifiers: CommandHandler<'identifiers', IdentifiersDeps> = {
  progress: () => 'Looking up identifiers…',
  async run(ctx) {
    const page = await ctx.deps.identifierSearch.page({
      workspaceId: ctx.workspaceId,
      userId: ctx.userId,
      words: ctx.command.words,
      kinds: ctx.command.kinds,
    });
    await ctx.respond(ephemeral(renderIdentifiers(page), true));
  },
};

export const identifiersFeature: Feature<IdentifiersDeps> = {
  subcommands: identifiersSubcommands,
  commands: { identifiers, ...watchCommands },
  register(app, deps) {
    registerWatchActions(app, deps);
    onAction(app, deps, IDENTIFIERS_NEXT, async ({ who, action, respond }) => {
      const page = await deps.identifierSearch.page({
        workspaceId: who.workspaceId,
        userId: who.userId,
        ref: action.value ?? '',
      });
      await respond(ephemeral(renderIdentifiers(page), true));
    });
  },
};
