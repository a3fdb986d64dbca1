/** `/vigil report <request-uuid>`: status and content of a report request; Explain on each related event. */
import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { ForbiddenError, NotFoundError } from '../../../api/index.js';
import { VigilError } from '../../../errors.js';
import { getReport } from '../../../services/reports.js';
import { renderExplain } from '../../blocks/events.js';
import { codeSpan } from '../../blocks/ids.js';
import { REPORT_EXPLAIN, renderReport } from '../../blocks/reports.js';
import type { CommandHandler, Feature, SlackDeps } from '../../context.js';
import { ephemeral } from '../../context.js';
import { reportError } from '../../error-reply.js';
import { requesterOfAction } from '../../listen.js';

/** A response_url takes 5 posts: a very long explanation stops there. */
const MAX_PARTS = 4;

const report: CommandHandler<'report'> = {
  progress: () => 'Looking up the report request…',
  async run(ctx) {
    const requestUuid = ctx.command.requestUuid;
    const result = await getReport(ctx.deps, ctx.workspaceId, requestUuid);
    await ctx.respond(
      ephemeral(
        renderReport({
          requestUuid,
          status: result.status,
          report: result.report,
          errorMessage: result.errorMessage,
        }),
        true,
      ),
    );
  },
};

async function explain(deps: SlackDeps, workspaceId: string, uid: string) {
  try {
    const ai = await deps.api.call(workspaceId, ({ session }) => session.getAiAssistance(uid));
    return renderExplain({ uid, text: ai.response, now: deps.clock.now() });
  } catch (err) {
    if (err instanceof NotFoundError) {
      throw new VigilError(
        `Event ${codeSpan(uid)} was not found in this workspace’s tenant, or it has no AI assistance.`,
        'Run `/vigil report <request-id>` again: the report may refer to events Vigil cannot see.',
        { cause: err },
      );
    }
    if (err instanceof ForbiddenError) {
      throw new VigilError('This API key may not read AI assistance.', err.hint, { cause: err });
    }
    throw err;
  }
}

function register(app: App, deps: SlackDeps): void {
  app.action<BlockAction<ButtonAction>>(
    { action_id: new RegExp(`^${REPORT_EXPLAIN}:\\d{1,3}$`) },
    async ({ ack, body, action, respond }) => {
      await ack();
      const who = requesterOfAction(body);
      deps.tracker.run(
        async () => {
          // The value is untrusted: an event uid of the form <index>/<source>/<id>, nothing else.
          const uid = action.value ?? '';
          if (!/^[^/\s]+\/[^/\s]+\/\S+$/.test(uid) || uid.length > 1000) {
            throw new VigilError('This button does not name an event.', 'Run the report command again.');
          }
          const messages = await explain(deps, who.workspaceId, uid);
          for (const message of messages.slice(0, MAX_PARTS)) await respond(ephemeral(message, false));
        },
        (err) => void reportError(deps, err, respond, { action: REPORT_EXPLAIN, team: who.workspaceId }),
      );
    },
  );
}

export const reportsFeature: Feature = { commands: { report }, register };
