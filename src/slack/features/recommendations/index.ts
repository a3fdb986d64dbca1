/** `/vigil recommendations [type:…] [status:…] [query:…]`: ten at a time, with Next. */
import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { recommendationsPage } from '../../../services/recommendations.js';
import { RECOMMENDATIONS_NEXT, renderRecommendations } from '../../blocks/recommendations.js';
import type { CommandHandler, Feature, SlackDeps } from '../../context.js';
import { ephemeral } from '../../context.js';
import { reportError } from '../../error-reply.js';
import { requesterOfAction } from '../../listen.js';

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

function register(app: App, deps: SlackDeps): void {
  app.action<BlockAction<ButtonAction>>(RECOMMENDATIONS_NEXT, async ({ ack, body, action, respond }) => {
    await ack();
    const who = requesterOfAction(body);
    deps.tracker.run(
      async () => {
        const page = await recommendationsPage(deps, {
          workspaceId: who.workspaceId,
          userId: who.userId,
          ref: action.value ?? '',
        });
        await respond(ephemeral(renderRecommendations(page), true));
      },
      (err) => void reportError(deps, err, respond, { action: RECOMMENDATIONS_NEXT, team: who.workspaceId }),
    );
  });
}

export const recommendationsFeature: Feature = { commands: { recommendations }, register };
