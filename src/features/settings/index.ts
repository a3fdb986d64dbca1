/** Admin subcommands: `audit [n]` and `settings [actors …]` (who may act on events). */

import { Readable } from 'node:stream';
import { auditCsv } from '../../domain/audit-csv.js';
import {
  describeActors,
  renderAudit,
  renderSettings,
  renderUnknownUsergroup,
  usergroupLabel,
} from '../../domain/settings-blocks.js';
import { PERMISSION_WORDS } from '../../kernel/permission-rules.js';
import type { CommandHandler, Feature } from '../../slack/context.js';
import { ephemeral } from '../../slack/context.js';
import { openDm, uploadFileToDm } from '../../slack/file-upload.js';
import type { Usergroup } from '../../slack/permission-checks.js';
import { settingsAdmins } from './admins.js';
import type { SettingsDeps } from './deps.js';
import { settingsSubcommands } from './grammar.js';

const audit: CommandHandler<'audit', SettingsDeps> = {
  async run(ctx) {
    await ctx.deps.authz.requireAdmin(ctx.client, ctx, 'read the audit log');
    const entries = await ctx.deps.audit.recent(ctx.workspaceId, ctx.command.limit);
    await ctx.respond(ephemeral(renderAudit(entries), true));
  },
};

/** Every kept entry as a CSV file in the admin's direct message with Vigil, never a channel. */
const auditExport: CommandHandler<'audit-export', SettingsDeps> = {
  progress: () => 'Preparing the audit log as CSV…',
  async run(ctx) {
    const { deps } = ctx;
    await deps.authz.requireAdmin(ctx.client, ctx, 'export the audit log');
    const entries = await deps.audit.all(ctx.workspaceId);
    const csv = Buffer.from(auditCsv(entries), 'utf8');
    const day = new Date(deps.clock.now()).toISOString().slice(0, 10);
    const dm = await openDm(ctx.client, ctx.userId);
    await uploadFileToDm(
      ctx.client,
      dm,
      {
        open: () => Readable.from([csv]),
        bytes: csv.length,
        filename: `vigil-audit-${day}.csv`,
        title: 'Vigil audit log',
      },
      deps.work.outbound.dispatcher,
    );
    await deps.audit.record({
      teamId: ctx.workspaceId,
      userId: ctx.userId,
      action: 'audit.export',
      target: ctx.workspaceId,
      detail: `${entries.length} entries`,
    });
    const count = entries.length === 1 ? '1 entry' : `${entries.length.toLocaleString('en-US')} entries`;
    await ctx.respond(
      ephemeral({ text: `The audit log (${count}) is in your direct messages with Vigil, as CSV.` }, true),
    );
  },
};

const settings: CommandHandler<'settings', SettingsDeps> = {
  async run(ctx) {
    const current = await ctx.deps.settings.get(ctx.workspaceId);
    const admins = await ctx.deps.authz.administrators(ctx.workspaceId);
    await ctx.respond(ephemeral(renderSettings(current.permissions, admins, current.cardChannels), true));
  },
};

const settingsActors: CommandHandler<'settings-actors', SettingsDeps> = {
  async run(ctx) {
    const { deps, command } = ctx;
    const { permission } = command;
    await deps.authz.requireAdmin(ctx.client, ctx, `change who may ${PERMISSION_WORDS[permission]}`);
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

/** Event cards in one channel shared outside: for Vigil's admins, who judge who is in it. */
const settingsCards: CommandHandler<'settings-cards', SettingsDeps> = {
  async run(ctx) {
    const { deps, command } = ctx;
    const doing = command.open ? 'open event cards in' : 'close event cards in';
    await deps.authz.requireAdmin(ctx.client, ctx, `${doing} a channel shared with another organization`);
    await deps.settings.setCardChannel({
      workspaceId: ctx.workspaceId,
      channel: command.channel,
      open: command.open,
      userId: ctx.userId,
    });
    const text = command.open
      ? `From now on, portal links pasted in <#${command.channel}> get event cards, even while it is shared with another organization: everyone in it sees their title, severity and status.`
      : `From now on, portal links pasted in <#${command.channel}> get no event cards while it is shared with another organization.`;
    await ctx.respond(ephemeral({ text }, true));
  },
};

export const adminFeature: Feature<SettingsDeps> = {
  subcommands: settingsSubcommands,
  commands: {
    audit,
    'audit-export': auditExport,
    settings,
    'settings-actors': settingsActors,
    'settings-admins': settingsAdmins,
    'settings-cards': settingsCards,
  },
};
