import { nextSlot } from '../../../services/digest/due.js';
import { eventRef } from '../../../services/events-context.js';
import type { NewSubscription } from '../../../store/index.js';
import { renderDigestList, renderDigestMessage } from '../../blocks/digest.js';
import { slackDate } from '../../blocks/text.js';
import { channelRefusal } from '../../channels.js';
import type { CommandContext, CommandHandler } from '../../context.js';
import { ephemeral } from '../../context.js';
import { channelIdOf, creatorOf, creatorZone, requireCreatorOrAdmin } from '../../subscriptions.js';
import { saveDigestContext } from './publisher.js';
import { publisherDepsOf } from './wiring.js';

export type AddInput = Omit<NewSubscription, 'teamId' | 'createdBy' | 'timeZone'> & {
  timeZone?: string | undefined;
};

/** Creates a subscription after the checks; the answer for the creator (a refusal when Vigil cannot post). */
export async function addDigest(
  ctx: Pick<CommandContext, 'deps' | 'client' | 'workspaceId' | 'userId'>,
  input: AddInput,
): Promise<string> {
  const { deps } = ctx;
  await deps.api.forWorkspace(ctx.workspaceId); // not connected: say so before anything else
  const refusal = await channelRefusal(ctx.client, input.channelId);
  if (refusal !== undefined) return refusal;
  const timeZone = input.timeZone ?? (await creatorZone(ctx.client, ctx.userId));
  const sub = await deps.digests.add({
    ...input,
    timeZone,
    teamId: ctx.workspaceId,
    createdBy: ctx.userId,
  });
  const next = nextSlot(sub, deps.clock.now());
  return (
    `Digest \`${sub.id}\` created: it posts in <#${sub.channelId}> at ${sub.timeOfDay} ${sub.timeZone}` +
    `${sub.weekdaysOnly ? ' on weekdays' : ' every day'}; the first one ${slackDate(next)}. ` +
    `\`/vigil digest preview ${sub.id}\` shows what it would hold now.`
  );
}

export const digestAddCommand: CommandHandler<'digest-add'> = {
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
      skipEmpty: command.skipEmpty,
    });
    await ctx.respond(ephemeral({ text }, true));
  },
};

export const digestListCommand: CommandHandler<'digest-list'> = {
  async run(ctx) {
    const items = await ctx.deps.digests.list(ctx.workspaceId);
    await ctx.respond(ephemeral(renderDigestList(items), true));
  },
};

/** Only the creator of a digest or an admin changes it. */
export async function requireOwner(
  ctx: Pick<CommandContext, 'deps' | 'client' | 'workspaceId' | 'teamId' | 'userId'>,
  id: string,
): Promise<void> {
  const createdBy = await creatorOf(() => ctx.deps.digests.get(ctx.workspaceId, id));
  await requireCreatorOrAdmin(ctx, createdBy, 'change a digest someone else created');
}

export const digestRemoveCommand: CommandHandler<'digest-remove'> = {
  async run(ctx) {
    const id = ctx.command.subscriptionId;
    await requireOwner(ctx, id);
    await ctx.deps.digests.remove(ctx.workspaceId, id, ctx.userId);
    await ctx.respond(ephemeral({ text: `Digest \`${id}\` removed; Vigil will not post it again.` }, true));
  },
};

export const digestPreviewCommand: CommandHandler<'digest-preview'> = {
  progress: () => 'Gathering the events of the next digest…',
  async run(ctx) {
    const { deps } = ctx;
    const sub = await deps.digests.get(ctx.workspaceId, ctx.command.subscriptionId);
    const content = await deps.digests.preview(ctx.workspaceId, sub.id);
    const { ctxId, ctx: saved } = await saveDigestContext(publisherDepsOf(deps), content, sub, ctx.userId);
    const message = renderDigestMessage({
      heading:
        saved.digest ??
        (() => {
          throw new Error('digest heading missing');
        })(),
      events: saved.events.map((e) => e.event),
      now: deps.clock.now(),
      refs: (i) => eventRef(ctxId, i),
    });
    await ctx.respond(
      ephemeral({ text: `Preview (nothing was posted): ${message.text}`, blocks: message.blocks }, true),
    );
  },
};
