import { renderAlertList } from '../../domain/subscriptions/alert-blocks.js';
import { quietText } from '../../domain/subscriptions/alert-match.js';
import { changeSubscription, channelIdOf, createSubscription } from '../../domain/subscriptions/slack.js';
import { filtersOf, scopeOf } from '../../domain/subscriptions/summary.js';
import type { CommandHandler, CommandRequest } from '../../slack/context.js';
import { ephemeral } from '../../slack/context.js';
import type { NewAlertSubscription } from '../../store/index.js';
import type { AlertsDeps } from './deps.js';
import { confirmMention, mentionWords } from './mention.js';

export type AlertAddInput = Omit<NewAlertSubscription, 'teamId' | 'createdBy' | 'timeZone' | 'startAt'> & {
  timeZone?: string | undefined;
};

function every(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000 === 1 ? 'minute' : `${ms / 60_000} minutes`}` : `${ms / 1000} s`;
}

/** Creates alerts after the checks; the answer for the creator (a refusal when Vigil cannot post). */
export async function addAlerts(
  ctx: { deps: AlertsDeps } & Pick<CommandRequest, 'client' | 'workspaceId' | 'userId'>,
  input: AlertAddInput,
): Promise<string> {
  const { deps } = ctx;
  if (input.mention !== undefined) {
    const confirmed = await confirmMention(deps, ctx.client, input.mention);
    if ('refusal' in confirmed) return confirmed.refusal;
    input = { ...input, mention: confirmed.mention };
  }
  const created = await createSubscription(ctx, input, (timeZone) =>
    deps.alerts.add({ ...input, timeZone, teamId: ctx.workspaceId, createdBy: ctx.userId }),
  );
  if ('refusal' in created) return created.refusal;
  const { sub } = created;
  const filters = filtersOf(sub);
  const quiet = quietText(sub);
  return [
    `Alerts \`${sub.id}\` created: new events of ${scopeOf(sub.identifierIds)}${filters ? ` (${filters})` : ''} are posted in <#${sub.channelId}> as they appear; Vigil looks every ${every(deps.alerts.pollMs)}.`,
    quiet === undefined
      ? ''
      : ` Quiet hours ${quiet} hold ${sub.hold === 'all' ? 'every alert' : 'all but critical alerts'} until they end.`,
    sub.mention === undefined ? '' : mentionWords(sub.mention),
    sub.askPerson === true
      ? ' The member a new leaked company credential belongs to is asked privately; their answer comes back in the alert thread.'
      : '',
    ' What appeared before now is not alerted: `/vigil events &lt;identifier-id&gt; since:1d` shows it.',
  ].join('');
}

export const alertsAddCommand: CommandHandler<'alerts-add', AlertsDeps> = {
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
      ...(command.mention ? { mention: command.mention } : {}),
      ...(command.askPerson ? { askPerson: true } : {}),
      timeZone: command.timeZone,
    });
    await ctx.respond(ephemeral({ text }, true));
  },
};

export const alertsListCommand: CommandHandler<'alerts-list', AlertsDeps> = {
  async run(ctx) {
    const [list, unreadable] = await Promise.all([
      ctx.deps.alerts.list(ctx.workspaceId),
      ctx.deps.alerts.unreadable(ctx.workspaceId),
    ]);
    // Remove beside a damaged subscription only for whom may remove it: admins (its creator is unknown).
    const removable = unreadable.length > 0 && (await ctx.deps.authz.isAdmin(ctx.client, ctx));
    await ctx.respond(ephemeral(renderAlertList(list, { ids: unreadable, removable }), true));
  },
};

const DONE = { remove: 'removed', pause: 'paused', resume: 'resumed' } as const;
const AFTER = {
  remove: 'Vigil will not post them again.',
  pause: 'Nothing is posted until `/vigil alerts resume` (which starts again from then).',
  resume: 'Events that appear from now on are posted.',
} as const;

function change<W extends 'remove' | 'pause' | 'resume'>(what: W): CommandHandler<`alerts-${W}`, AlertsDeps> {
  return {
    async run(ctx) {
      const id = (ctx.command as { subscriptionId: string }).subscriptionId;
      await changeSubscription(ctx, ctx.deps.alerts, what, id, 'change alerts someone else created');
      await ctx.respond(ephemeral({ text: `Alerts \`${id}\` ${DONE[what]}. ${AFTER[what]}` }, true));
    },
  };
}

export const alertsRemoveCommand = change('remove');
export const alertsPauseCommand = change('pause');
export const alertsResumeCommand = change('resume');
