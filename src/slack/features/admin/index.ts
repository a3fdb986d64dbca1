/** Admin subcommands: `audit [n]` and `settings [actors …]` (who may act on events). */
import type { KnownBlock } from '@slack/types';
import type { Actors, AuditEntry } from '../../../store/index.js';
import { escapeMrkdwn, slackDate } from '../../blocks/text.js';
import type { CommandHandler, Feature } from '../../context.js';
import { ephemeral } from '../../context.js';

const section = (text: string): KnownBlock => ({ type: 'section', text: { type: 'mrkdwn', text } });

export function describeActors(actors: Actors): string {
  if (actors === 'everyone') return 'every member of the workspace';
  if (actors === 'admins') return 'workspace admins only';
  return `members of the user group <!subteam^${actors.usergroup.replace(/[^A-Z0-9]/gi, '')}>`;
}

/**
 * An audit action (`tenant.switch`) is Vigil's own identifier: shown as code, not run through escapeMrkdwn,
 * which defangs dotted words that look like hosts (`tenant[.]switch`).
 */
export function auditAction(action: string): string {
  return `\`${action.replace(/[^A-Za-z0-9._-]/g, '')}\``;
}

export function renderAudit(entries: AuditEntry[]): { text: string; blocks: KnownBlock[] } {
  if (entries.length === 0)
    return { text: 'No actions recorded yet.', blocks: [section('No actions recorded yet.')] };
  const lines = entries.map(
    (e) =>
      `${slackDate(e.at)} · <@${e.userId}> · ${auditAction(e.action)} ${escapeMrkdwn(e.target)}${e.detail ? ` — ${escapeMrkdwn(e.detail)}` : ''}`,
  );
  const blocks: KnownBlock[] = [];
  for (let i = 0; i < lines.length && blocks.length < 45; i += 10)
    blocks.push(section(lines.slice(i, i + 10).join('\n')));
  return { text: `The last ${entries.length} actions taken through Vigil.`, blocks };
}

const audit: CommandHandler<'audit'> = {
  async run(ctx) {
    await ctx.deps.authz.requireAdmin(ctx.client, ctx.teamId, ctx.userId, 'read the audit log');
    const entries = await ctx.deps.repos.audit.recent(ctx.workspaceId, ctx.command.limit);
    await ctx.respond(ephemeral(renderAudit(entries), true));
  },
};

const settings: CommandHandler<'settings'> = {
  async run(ctx) {
    const current = await ctx.deps.repos.settings.get(ctx.workspaceId);
    const text = `Who may ignore or remediate events: ${describeActors(current.actors)}.`;
    await ctx.respond(
      ephemeral(
        {
          text,
          blocks: [
            section(`*Who may act on events:* ${describeActors(current.actors)}`),
            {
              type: 'context',
              elements: [
                {
                  type: 'mrkdwn',
                  text: 'Admins change it with `/vigil settings actors everyone|admins|group:<usergroup-id>`.',
                },
              ],
            },
          ],
        },
        true,
      ),
    );
  },
};

const settingsActors: CommandHandler<'settings-actors'> = {
  async run(ctx) {
    const { deps, command } = ctx;
    await deps.authz.requireAdmin(ctx.client, ctx.teamId, ctx.userId, 'change who may act on events');
    await deps.repos.settings.setActors(ctx.workspaceId, command.actors, ctx.userId);
    await deps.repos.audit.append({
      teamId: ctx.workspaceId,
      userId: ctx.userId,
      action: 'settings.actors',
      target: typeof command.actors === 'string' ? command.actors : `group:${command.actors.usergroup}`,
    });
    await ctx.respond(
      ephemeral(
        { text: `From now on, ${describeActors(command.actors)} may ignore or remediate events.` },
        true,
      ),
    );
  },
};

export const adminFeature: Feature = {
  commands: { audit, settings, 'settings-actors': settingsActors },
};
