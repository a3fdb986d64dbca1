/** Admin subcommands: `audit [n]` and `settings [actors …]` (who may act on events). */

import { PERMISSION_WORDS } from '../../../permission-rules.js';
import {
  describeActors,
  renderAudit,
  renderSettings,
  renderUnknownUsergroup,
  usergroupLabel,
} from '../../blocks/admin.js';
import type { CommandHandler, Feature } from '../../context.js';
import { ephemeral } from '../../context.js';
import type { Usergroup } from '../../permission-checks.js';

const audit: CommandHandler<'audit'> = {
  async run(ctx) {
    await ctx.deps.authz.requireAdmin(ctx.client, ctx.teamId, ctx.userId, 'read the audit log');
    const entries = await ctx.deps.audit.recent(ctx.workspaceId, ctx.command.limit);
    await ctx.respond(ephemeral(renderAudit(entries), true));
  },
};

const settings: CommandHandler<'settings'> = {
  async run(ctx) {
    const current = await ctx.deps.settings.get(ctx.workspaceId);
    await ctx.respond(ephemeral(renderSettings(current.permissions), true));
  },
};

const settingsActors: CommandHandler<'settings-actors'> = {
  async run(ctx) {
    const { deps, command } = ctx;
    const { permission } = command;
    await deps.authz.requireAdmin(
      ctx.client,
      ctx.teamId,
      ctx.userId,
      `change who may ${PERMISSION_WORDS[permission]}`,
    );
    // One typo would lock everyone but admins out: the group must exist, and the answer names it.
    let group: Usergroup | undefined;
    if (typeof command.actors !== 'string') {
      const wanted = command.actors.usergroup;
      const groups = await deps.authz.usergroups(ctx.client);
      group = groups.find((g) => g.id.toUpperCase() === wanted.toUpperCase());
      if (!group) {
        await ctx.respond(ephemeral(renderUnknownUsergroup(wanted, groups), true));
        return;
      }
    }
    await deps.settings.setPermission({
      workspaceId: ctx.workspaceId,
      permission,
      actors: command.actors,
      userId: ctx.userId,
    });
    await ctx.respond(
      ephemeral(
        {
          text: `From now on, ${describeActors(command.actors)}${group ? ` (${usergroupLabel(group)})` : ''} may ${PERMISSION_WORDS[permission]}.`,
        },
        true,
      ),
    );
  },
};

export const adminFeature: Feature = {
  commands: { audit, settings, 'settings-actors': settingsActors },
};
