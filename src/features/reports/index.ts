/** `/vigil report <request-uuid>`: status and content of a report request; Explain on each related event. */
import type { App } from '@slack/bolt';
import { renderExplain } from '../../domain/events/explain-blocks.js';
import { REPORT_EXPLAIN, renderReport } from '../../domain/report-blocks.js';
import { VigilError } from '../../kernel/errors.js';
import type { CommandHandler, Feature } from '../../slack/context.js';
import { ephemeral } from '../../slack/context.js';
import { onAction } from '../../slack/listen.js';
import type { ReportsDeps } from './deps.js';
import { reportSubcommands } from './grammar.js';

/** A response_url takes 5 posts: a very long explanation stops there. */
const MAX_PARTS = 4;
const EVENT_UID = /^[^/\s]+\/[^/\s]+\/\S+$/;

const report: CommandHandler<'report', ReportsDeps> = {
  progress: () => 'Looking up the report request…',
  async run(ctx) {
    const requestUuid = ctx.command.requestUuid;
    const result = await ctx.deps.reports.get(ctx.workspaceId, requestUuid);
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

function register(app: App, deps: ReportsDeps): void {
  onAction(
    app,
    deps,
    { action_id: new RegExp(`^${REPORT_EXPLAIN}:\\d{1,3}$`) },
    async ({ who, action, respond }) => {
      // The value is untrusted: an event uid of the form <index>/<source>/<id>, nothing else.
      const uid = action.value ?? '';
      if (!EVENT_UID.test(uid) || uid.length > 1000) {
        throw new VigilError('This button does not name an event.', 'Run the report command again.');
      }
      const text = await deps.events.explain(who.workspaceId, uid);
      const messages = renderExplain({ uid, text, now: deps.clock.now() });
      for (const message of messages.slice(0, MAX_PARTS)) await respond(ephemeral(message, false));
    },
  );
}

export const reportsFeature: Feature<ReportsDeps> = {
  subcommands: reportSubcommands,
  commands: { report },
  register,
};
