import { quietText } from '../../../services/alerts/match.js';
import { filtersOf, scopeOf } from '../../../services/digest/content.js';
import type { NewAlertSubscription } from '../../../store/index.js';
import { renderAlertList } from '../../blocks/alerts.js';
import { channelRefusal } from '../../channels.js';
import type { CommandContext, CommandHandler } from '../../context.js';
import { ephemeral } from '../../context.js';
import { channelIdOf, creatorOf, creatorZone, requireCreatorOrAdmin } from '../../subscriptions.js';

export type AlertAddInput = Omit<NewAlertSubscription, 'teamId' | 'createdBy' | 'timeZone' | 'startAt'> & {
  timeZone?: string | undefined;
};

function every(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000 === 1 ? 'minute' : `${ms / 60_000} minutes`}` : `${ms / 1000} s`;
}

/** Creates alerts after the checks; the answer for the creator (a refusal when Vigil cannot post). */
export async function addAlerts(
  ctx: Pick<CommandContext, 'deps' | 'client' | 'workspaceId' | 'userId'>,
  input: AlertAddInput,
): Promise<string> {
  const { deps } = ctx;
  await deps.api.forWorkspace(ctx.workspaceId); // not connected: say so before anything else
  const refusal = await channelRefusal(ctx.client, input.channelId);
  if (refusal !== undefined) return refusal;
  const timeZone = input.timeZone ?? (await creatorZone(ctx.client, ctx.userId));
  const sub = await deps.alerts.add({ ...input, timeZone, teamId: ctx.workspaceId, createdBy: ctx.userId });
  const filters = filtersOf(sub);
  const quiet = quietText(sub);
  return [
    `Alerts \`${sub.id}\` created: new events of ${scopeOf(sub.identifierIds)}${filters ? ` (${filters})` : ''} are posted in <#${sub.channelId}> as they appear; Vigil looks every ${every(deps.alerts.pollMs)}.`,
    quiet === undefined
      ? ''
      : ` Quiet hours ${quiet} hold ${sub.hold === 'all' ? 'every alert' : 'all but critical alerts'} until they end.`,
    ' What appeared before now is not alerted: `/vigil events &lt;identifier-id&gt; since:1d` shows it.',
  ].join('');
}

export const alertsAddCommand: CommandHandler<'alerts-add'> = {
  progress: () => 'Setting up the alerts…',
  async run(ctx) {
    const { command } = ctx;
    const text = await addAlerts(ctx, {
      channelId: channelIdOf(command.channel, ctx.channelId),
      identifierIds: command.identifierIds,
      severity: command.severity,
      types: command.types,
      hold: command.hold,
      ...(command.quiet ? { quiet: command.quiet } : {}),
      timeZone: command.timeZone,
    });
    await ctx.respond(ephemeral({ text }, true));
  },
};

export const alertsListCommand: CommandHandler<'alerts-list'> = {
  async run(ctx) {
    const list = await ctx.deps.alerts.list(ctx.workspaceId);
    await ctx.respond(ephemeral(renderAlertList(list), true));
  },
};

const DONE = { remove: 'removed', pause: 'paused', resume: 'resumed' } as const;
const AFTER = {
  remove: 'Vigil will not post them again.',
  pause: 'Nothing is posted until `/vigil alerts resume` (which starts again from then).',
  resume: 'Events that appear from now on are posted.',
} as const;

function change<W extends 'remove' | 'pause' | 'resume'>(what: W): CommandHandler<`alerts-${W}`> {
  return {
    async run(ctx) {
      const id = (ctx.command as { subscriptionId: string }).subscriptionId;
      const createdBy = await creatorOf(() => ctx.deps.alerts.get(ctx.workspaceId, id));
      await requireCreatorOrAdmin(ctx, createdBy, 'change alerts someone else created');
      await ctx.deps.alerts[what](ctx.workspaceId, id, ctx.userId);
      await ctx.respond(ephemeral({ text: `Alerts \`${id}\` ${DONE[what]}. ${AFTER[what]}` }, true));
    },
  };
}

export const alertsRemoveCommand = change('remove');
export const alertsPauseCommand = change('pause');
export const alertsResumeCommand = change('resume');
