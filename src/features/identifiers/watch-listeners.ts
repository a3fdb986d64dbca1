/**
 * `identifiers add|remove|disable|enable`: watching assets from Slack (permission `watch`, admins by default,
 * checked on the command and again on the removal's click). The API's refusal is answered beside the value.
 */
import type { App } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import {
  IDENTIFIER_REMOVE_CANCEL,
  IDENTIFIER_REMOVE_CONFIRM,
  renderRemoveQuestion,
  renderWatchDone,
  renderWatchRefused,
} from '../../domain/watch-blocks.js';
import { IdentifierRefusedError } from '../../domain/watch-service.js';
import type { CommandHandler, CommandHandlers, Requester } from '../../slack/context.js';
import { ephemeral } from '../../slack/context.js';
import { type Click, onAction } from '../../slack/listen.js';
import type { IdentifiersDeps } from './deps.js';

function mayWatch(deps: IdentifiersDeps, client: WebClient, who: Requester): Promise<void> {
  return deps.authz.requirePermission(client, who.workspaceId, who.teamId, who.userId, 'watch');
}

const add: CommandHandler<'identifiers-add', IdentifiersDeps> = {
  progress: () => 'Adding the identifier…',
  async run(ctx) {
    await mayWatch(ctx.deps, ctx.client, ctx);
    const { type, value, name, categories, severities } = ctx.command;
    try {
      const added = await ctx.deps.watch.add({
        workspaceId: ctx.workspaceId,
        userId: ctx.userId,
        type,
        value,
        name,
        categories,
        severities,
      });
      await ctx.respond(ephemeral(renderWatchDone('add', added, ctx.userId), true));
    } catch (err) {
      if (!(err instanceof IdentifierRefusedError)) throw err;
      await ctx.respond(
        ephemeral(renderWatchRefused({ type, value, name, categories, severities }, err.problems), true),
      );
    }
  },
};

const remove: CommandHandler<'identifiers-remove', IdentifiersDeps> = {
  progress: () => 'Looking up the identifier…',
  async run(ctx) {
    await mayWatch(ctx.deps, ctx.client, ctx);
    const identifier = await ctx.deps.watch.get(ctx.workspaceId, ctx.command.identifierId);
    await ctx.respond(ephemeral(renderRemoveQuestion(identifier), true));
  },
};

function toggle<K extends 'identifiers-disable' | 'identifiers-enable'>(
  disabled: boolean,
): CommandHandler<K, IdentifiersDeps> {
  return {
    progress: () => (disabled ? 'Disabling the identifier…' : 'Enabling the identifier…'),
    async run(ctx) {
      await mayWatch(ctx.deps, ctx.client, ctx);
      const changed = await ctx.deps.watch.setDisabled({
        workspaceId: ctx.workspaceId,
        userId: ctx.userId,
        id: (ctx.command as { identifierId: number }).identifierId,
        disabled,
      });
      await ctx.respond(
        ephemeral(renderWatchDone(disabled ? 'disable' : 'enable', changed, ctx.userId), true),
      );
    },
  };
}

export const watchCommands: CommandHandlers<IdentifiersDeps> = {
  'identifiers-add': add,
  'identifiers-remove': remove,
  'identifiers-disable': toggle<'identifiers-disable'>(true),
  'identifiers-enable': toggle<'identifiers-enable'>(false),
};

/** The removal's answer: the id comes from the button, the permission from the verified click. */
async function confirmRemove(click: Click<IdentifiersDeps>): Promise<void> {
  const { deps, who } = click;
  const id = Number(click.action.value);
  if (!Number.isSafeInteger(id) || id <= 0) {
    await click.respond(ephemeral({ text: 'This button does not name an identifier.' }, true));
    return;
  }
  await mayWatch(deps, click.client, who);
  const removed = await deps.watch.remove({ workspaceId: who.workspaceId, userId: who.userId, id });
  await click.respond(ephemeral(renderWatchDone('remove', removed, who.userId), true));
}

export function registerWatchActions(app: App, deps: IdentifiersDeps): void {
  onAction(app, deps, IDENTIFIER_REMOVE_CONFIRM, confirmRemove);
  onAction(app, deps, IDENTIFIER_REMOVE_CANCEL, async ({ respond }) => {
    await respond(ephemeral({ text: 'Nothing was removed.' }, true));
  });
}
