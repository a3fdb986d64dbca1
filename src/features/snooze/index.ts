/**
 * Snoozes from the command line: `snooze <event-uid>|identifier <id>|source <name> <length>`, `snoozes` (the
 * list, each with End) and `snoozes end <id>`. Snoozing and ending need the `act` permission; the service
 * audits both. The form from an event's menu lives with the event rows (features/events/snooze.ts).
 */

import { renderSnoozeList, SNOOZE_END, snoozedText } from '../../domain/snooze-blocks.js';
import { VigilError } from '../../kernel/errors.js';
import { type CommandHandler, ephemeral, type Feature } from '../../slack/context.js';
import { slackDate } from '../../slack/kit/dates.js';
import { onAction } from '../../slack/listen.js';
import type { SnoozeDeps } from './deps.js';
import { snoozeSubcommands } from './grammar.js';

const snoozeCommand: CommandHandler<'snooze', SnoozeDeps> = {
  progress: () => 'Snoozing…',
  async run(ctx) {
    const { deps, command } = ctx;
    await deps.authz.requireActor(ctx.client, ctx.workspaceId, ctx.teamId, ctx.userId);
    const { target } = command;
    if (target.kind === 'identifier') {
      // An identifier the tenant does not have would quiet nothing: say so instead.
      const missing = await deps.identifiers.missing(ctx.workspaceId, [target.id]);
      if (missing.length > 0)
        throw new VigilError(
          `Identifier ${target.id} does not exist in this tenant.`,
          '`/vigil identifiers` lists them.',
        );
    }
    const { snooze, replaced } = await deps.snoozes.snooze({
      workspaceId: ctx.workspaceId,
      target,
      length: command.length,
      by: ctx.userId,
    });
    await ctx.respond(ephemeral({ text: snoozedText(snooze, replaced !== undefined) }, true));
  },
};

const snoozesCommand: CommandHandler<'snoozes', SnoozeDeps> = {
  async run(ctx) {
    await ctx.respond(ephemeral(renderSnoozeList(await ctx.deps.snoozes.list(ctx.workspaceId)), true));
  },
};

const snoozesEndCommand: CommandHandler<'snoozes-end', SnoozeDeps> = {
  async run(ctx) {
    const { deps } = ctx;
    await deps.authz.requireActor(ctx.client, ctx.workspaceId, ctx.teamId, ctx.userId);
    const ended = await deps.snoozes.end(ctx.workspaceId, ctx.command.snoozeId, ctx.userId);
    const text = ended
      ? `Snooze \`${ended.id}\` ended (it ran until ${slackDate(ended.until)}): alerts and digests include what it covered again.`
      : `No snooze \`${ctx.command.snoozeId}\` is running (it may have ended already); \`/vigil snoozes\` lists them.`;
    await ctx.respond(ephemeral({ text }, true));
  },
};

export const snoozeFeature: Feature<SnoozeDeps> = {
  subcommands: snoozeSubcommands,
  commands: { snooze: snoozeCommand, snoozes: snoozesCommand, 'snoozes-end': snoozesEndCommand },
  register(app, deps) {
    // End on the list: the list is drawn again in place with what still runs.
    onAction(app, deps, SNOOZE_END, async ({ who, client, action, respond }) => {
      await deps.authz.requireActor(client, who.workspaceId, who.teamId, who.userId);
      await deps.snoozes.end(who.workspaceId, action.value ?? '', who.userId);
      await respond(ephemeral(renderSnoozeList(await deps.snoozes.list(who.workspaceId)), true));
    });
  },
};
