/**
 * `/vigil identifiers [words] [type:…]`: the tenant's identifiers by name, ten at a time, each with its id
 * and an Events button (handled with the events).
 */
import { identifiersPage } from '../../../services/identifiers-page.js';
import { IDENTIFIERS_NEXT, renderIdentifiers } from '../../blocks/identifiers.js';
import type { CommandHandler, Feature } from '../../context.js';
import { ephemeral } from '../../context.js';
import { onAction } from '../../listen.js';

const identifiers: CommandHandler<'identifiers'> = {
  progress: () => 'Looking up identifiers…',
  async run(ctx) {
    const page = await identifiersPage(ctx.deps, {
      workspaceId: ctx.workspaceId,
      userId: ctx.userId,
      words: ctx.command.words,
      kinds: ctx.command.kinds,
    });
    await ctx.respond(ephemeral(renderIdentifiers(page), true));
  },
};

export const identifiersFeature: Feature = {
  commands: { identifiers },
  register(app, deps) {
    onAction(app, deps, IDENTIFIERS_NEXT, async ({ who, action, respond }) => {
      const page = await identifiersPage(deps, {
        workspaceId: who.workspaceId,
        userId: who.userId,
        ref: action.value ?? '',
      });
      await respond(ephemeral(renderIdentifiers(page), true));
    });
  },
};
