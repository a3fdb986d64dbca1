/** `/vigil settings admins <group|admins>`: who administers Vigil in the workspace. */
import { renderUnknownUsergroup, usergroupLabel } from '../../domain/settings-blocks.js';
import { describeAdmins } from '../../kernel/permission-rules.js';
import type { CommandHandler } from '../../slack/context.js';
import { ephemeral } from '../../slack/context.js';
import type { Usergroup } from '../../slack/permission-checks.js';
import type { SettingsDeps } from './deps.js';

/** Who administers Vigil here: set by its administrators (Slack's admins until anyone is named). */
export const settingsAdmins: CommandHandler<'settings-admins', SettingsDeps> = {
  async run(ctx) {
    const { deps, command } = ctx;
    await deps.authz.requireAdmin(ctx.client, ctx, 'change who administers Vigil');
    let group: Usergroup | undefined;
    if (command.admins !== 'admins') {
      const wanted = command.admins.usergroup;
      const groups = await deps.authz.usergroups(ctx.client);
      group = groups.find((g) => g.id.toUpperCase() === wanted.toUpperCase());
      if (!group) {
        await ctx.respond(ephemeral(renderUnknownUsergroup(wanted, groups), true));
        return;
      }
      // Naming a group one is not in ends one's own administration: a typo would lock its author out.
      const members = (await ctx.client.usergroups.users.list({ usergroup: group.id })).users ?? [];
      const source = await deps.authz.administrators(ctx.workspaceId);
      const byOperator = source !== 'slack' && source.users.includes(ctx.userId);
      if (!byOperator && !members.includes(ctx.userId)) {
        const text = `You are not in ${usergroupLabel(group)}, so naming it would end your own administration of Vigil; nothing was changed. Join the group first, or ask one of its members to run this.`;
        await ctx.respond(ephemeral({ text }, true));
        return;
      }
    }
    const admins = group ? { usergroup: group.id } : ('admins' as const);
    await deps.settings.setAdmins({ workspaceId: ctx.workspaceId, admins, userId: ctx.userId });
    const now = describeAdmins(await deps.authz.administrators(ctx.workspaceId));
    await ctx.respond(
      ephemeral(
        {
          text: `From now on, Vigil is administered by ${now}${group ? ` (${usergroupLabel(group)})` : ''}.`,
        },
        true,
      ),
    );
  },
};
