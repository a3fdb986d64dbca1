/** `/vigil recommendations [type:…] [status:…] [query:…]`: ten at a time, with Next. */
import { recommendationsPage } from '../../../services/recommendations.js';
import { RECOMMENDATIONS_NEXT, renderRecommendations } from '../../blocks/recommendations.js';
import type { CommandHandler, Feature } from '../../context.js';
import { ephemeral } from '../../context.js';
import { onAction } from '../../listen.js';

const recommendations: CommandHandler<'recommendations'> = {
  progress: () => 'Listing identifier recommendations…',
  async run(ctx) {
    const { command } = ctx;
    const page = await recommendationsPage(ctx.deps, {
      workspaceId: ctx.workspaceId,
      userId: ctx.userId,
      filters: { types: command.types, status: command.status, query: command.query },
    });
    await ctx.respond(ephemeral(renderRecommendations(page), true));
  },
};

export const recommendationsFeature: Feature = {
  commands: { recommendations },
  register(app, deps) {
    onAction(app, deps, RECOMMENDATIONS_NEXT, async ({ who, action, respond }) => {
      const page = await recommendationsPage(deps, {
        workspaceId: who.workspaceId,
        userId: who.userId,
        ref: action.value ?? '',
      });
      await respond(ephemeral(renderRecommendations(page), true));
    });
  },
};
