import type { Severity } from '../../api/index.js';
import { eventRef } from '../../domain/events/context.js';
import { renderDigestList, renderDigestMessage } from '../../domain/subscriptions/digest-blocks.js';
import { changeSubscription, channelIdOf, createSubscription } from '../../domain/subscriptions/slack.js';
import type { CommandHandler, CommandRequest } from '../../slack/context.js';
import { ephemeral } from '../../slack/context.js';
import { slackDate } from '../../slack/kit/dates.js';
import type { NewSubscription } from '../../store/index.js';
import type { DigestPagesDeps, DigestsDeps } from './deps.js';
import { nextSlot } from './due.js';
import { leastSeverity } from './form-blocks.js';
import { digestTrendPart, saveDigestContext } from './publisher.js';

export type AddInput = Omit<NewSubscription, 'teamId' | 'createdBy' | 'timeZone'> & {
  timeZone?: string | undefined;
};

/** Creates a subscription after the checks; the answer for the creator (a refusal when Vigil cannot post). */
export async function addDigest(
  ctx: { deps: DigestsDeps } & Pick<CommandRequest, 'client' | 'workspaceId' | 'userId'>,
  input: AddInput,
): Promise<string> {
  const { deps } = ctx;
  const created = await createSubscription(ctx, input, (timeZone) =>
    deps.digests.add({ ...input, timeZone, teamId: ctx.workspaceId, createdBy: ctx.userId }),
  );
  if ('refusal' in created) return created.refusal;
  const { sub } = created;
  const next = nextSlot(sub, deps.clock.now());
  return (
    `Digest \`${sub.id}\` created: it posts in <#${sub.channelId}> at ${sub.timeOfDay} ${sub.timeZone}` +
    `${cadenceText(sub)}; the first one ${slackDate(next)}. ` +
    `\`/vigil digest preview ${sub.id}\` shows what it would hold now.`
  );
}

/**
 * Changes a digest from its edit form, for its creator or an admin, after the same checks as creating one
 * (connected, its identifiers exist, Vigil can post in its channel); the answer for the person.
 */
export async function editDigest(
  ctx: { deps: DigestsDeps } & Pick<CommandRequest, 'client' | 'workspaceId' | 'userId'>,
  input: AddInput & { subscriptionId: string },
): Promise<string> {
  const { deps, workspaceId, userId } = ctx;
  const { subscriptionId, channelId, ...change } = input;
  const before = await deps.digests.get(workspaceId, subscriptionId);
  if (before.createdBy !== userId)
    await deps.authz.requireAdmin(
      ctx.client,
      { workspaceId, teamId: workspaceId, userId },
      'change a digest someone else created',
    );
  if (channelId !== before.channelId)
    return `Digest \`${before.id}\` stays in <#${before.channelId}>, where its history is: add a digest in the other channel instead.`;
  // A severity list (`severity:high,critical`) shows as its least in the form: left so, it stays a list.
  const list = Array.isArray(before.severity) ? (before.severity as Severity[]) : undefined;
  const severity = list !== undefined && change.severity === leastSeverity(list) ? list : change.severity;
  const changed = await createSubscription(ctx, input, (timeZone) =>
    deps.digests.edit(workspaceId, subscriptionId, userId, { ...change, severity, timeZone }),
  );
  if ('refusal' in changed) return changed.refusal;
  const { sub } = changed;
  const next = nextSlot(sub, deps.clock.now());
  return (
    `Digest \`${sub.id}\` changed: it posts in <#${sub.channelId}> at ${sub.timeOfDay} ${sub.timeZone}` +
    `${cadenceText(sub)}; the next one ${slackDate(next)}.`
  );
}

const WEEKDAY_NAMES = ['Mondays', 'Tuesdays', 'Wednesdays', 'Thursdays', 'Fridays', 'Saturdays', 'Sundays'];

/** " every day", " on weekdays", " every week on Mondays". */
function cadenceText(sub: { weekdaysOnly: boolean; weekday?: number | undefined }): string {
  if (sub.weekday !== undefined) return ` every week on ${WEEKDAY_NAMES[sub.weekday - 1] ?? 'Mondays'}`;
  return sub.weekdaysOnly ? ' on weekdays' : ' every day';
}

export const digestAddCommand: CommandHandler<'digest-add', DigestsDeps> = {
  progress: () => 'Setting up the digest…',
  async run(ctx) {
    const { command } = ctx;
    const text = await addDigest(ctx, {
      channelId: channelIdOf(command.channel, ctx.channelId),
      identifierIds: command.identifierIds,
      severity: command.severity ?? 'info',
      types: command.types ?? [],
      ...(command.tags?.length ? { tags: command.tags } : {}),
      timeOfDay: command.timeOfDay,
      timeZone: command.timeZone,
      weekdaysOnly: command.weekdaysOnly,
      ...(command.weekday === undefined ? {} : { weekday: command.weekday }),
      skipEmpty: command.skipEmpty,
    });
    await ctx.respond(ephemeral({ text }, true));
  },
};

export const digestListCommand: CommandHandler<'digest-list', DigestsDeps> = {
  async run(ctx) {
    const [items, unreadable] = await Promise.all([
      ctx.deps.digests.list(ctx.workspaceId),
      ctx.deps.digests.unreadable(ctx.workspaceId),
    ]);
    // Remove beside a damaged subscription only for whom may remove it: admins (its creator is unknown).
    const removable = unreadable.length > 0 && (await ctx.deps.authz.isAdmin(ctx.client, ctx));
    await ctx.respond(ephemeral(renderDigestList(items, { ids: unreadable, removable }), true));
  },
};

export const digestRemoveCommand: CommandHandler<'digest-remove', DigestsDeps> = {
  async run(ctx) {
    const id = ctx.command.subscriptionId;
    await changeSubscription(ctx, ctx.deps.digests, 'remove', id, 'change a digest someone else created');
    await ctx.respond(ephemeral({ text: `Digest \`${id}\` removed; Vigil will not post it again.` }, true));
  },
};

export const digestPreviewCommand: CommandHandler<'digest-preview', DigestPagesDeps> = {
  progress: () => 'Gathering the events of the next digest…',
  async run(ctx) {
    const { deps } = ctx;
    const sub = await deps.digests.get(ctx.workspaceId, ctx.command.subscriptionId);
    const content = await deps.digests.preview(ctx.workspaceId, sub.id, deps.publishing.unsnoozed);
    // The same paragraph, chart and table the post would carry, from the same records, none written.
    const trend = await digestTrendPart(deps.publishing, content, sub.weekday !== undefined, false);
    const { ctxId, ctx: saved } = await saveDigestContext(
      deps.publishing,
      content,
      sub,
      ctx.userId,
      undefined,
      trend,
    );
    const message = renderDigestMessage({
      heading: saved.heading,
      events: saved.events.map((e) => e.event),
      now: deps.clock.now(),
      refs: (i) => eventRef(ctxId, i),
    });
    await ctx.respond(
      ephemeral({ text: `Preview (nothing was posted): ${message.text}`, blocks: message.blocks }, true),
    );
  },
};
